/* Home on aarch64 (run-aarch64-home.sh): popcorn-inspect extract --isa
 * aarch64 gives this program's aarch64 executable, run under qemu-aarch64
 * as home.  Its thread goes to node 1 (x86-64) and node 2 (another aarch64
 * process) and back, touching heap pages, printing and writing a file on
 * node 1 (forwarded to home).  stdout is the same with a native build,
 * which does not move.  musl on x86-64 makes calls aarch64's kernel does
 * not have (open, stat, pipe, dup2, poll): home makes their replacements
 * (runtime/syscalls/LegacyCalls.h).  stderr says how many moves there
 * were, how many ended on a node of the wrong ISA, and whether a move
 * with a second thread of the program running reached node 1 while that
 * thread waited (signals/HeldThreads.h): home holds the program's threads,
 * not qemu's.  With NO_MOVES set, only a schedule
 * (POPCORN_MIGRATE) moves the thread, at the migration point of move(). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __popcorn__
#include <popcorn.h>
#endif

static int moves, wrong_isa;

static void move(int node)
{
#ifdef __popcorn__
	static int scheduled = -1;
	if (scheduled < 0)
		scheduled = getenv("NO_MOVES") != NULL;
	int from = popcorn_current_node();
	if (scheduled || popcorn_migrate(node) != 0 || from == node)
		return;
	moves++;
	const char *isa = node == 1 ? "x86_64" : "aarch64";
	if (popcorn_current_node() != node || strcmp(popcorn_isa(), isa) != 0)
		wrong_isa++;
#else
	(void)node;
#endif
}

/* Reads and writes every page of a: page faults away from home. */
static unsigned long touch(unsigned char *a, size_t bytes, unsigned long salt)
{
	unsigned long sum = 0;
	for (size_t i = 0; i < bytes; i += 512) {
		a[i] = (unsigned char)(a[i] * 6364136223846793005ul + salt + i);
		sum += a[i];
	}
	return sum;
}

/* Calls musl makes on x86-64 with their old numbers. */
static void legacy_calls(void)
{
	struct stat st;
	int fds[2];
	printf("stat: %d, %lld bytes\n", stat("away.txt", &st), (long long)st.st_size);
	if (pipe(fds) != 0) {
		printf("pipe failed\n");
		return;
	}
	struct pollfd ready = {fds[0], POLLIN, 0};
	printf("poll before a write: %d\n", poll(&ready, 1, 0));
	printf("write: %d, poll: %d\n", (int)write(fds[1], "x", 1), poll(&ready, 1, 1000));
	printf("dup2 onto itself: %d\n", dup2(fds[0], fds[0]) == fds[0]);
	close(fds[0]);
	close(fds[1]);
}

static volatile long ticks;

static void *wait_for_main(void *stop)
{
	while (!*(volatile int *)stop) {
		ticks++;
		usleep(1000);
	}
	return NULL;
}

/* Whether a move reaches node 1 while a second thread runs, and back, and
 * that thread waits meanwhile: it ticks every millisecond it runs, while
 * the main thread computes there for about a second (home lets it run a
 * millisecond each 50). */
static int moved_with_a_thread(void)
{
#ifdef __popcorn__
	int stop = 0, moved;
	pthread_t thread;
	if (pthread_create(&thread, NULL, wait_for_main, &stop) != 0)
		return 0;
	moved = popcorn_migrate(1) == 0 && popcorn_current_node() == 1;
	/* Read there, after a call that lets the others run a moment and
	 * takes home's pages afresh: the moves themselves take a while under
	 * qemu, before the others are held. */
	sched_yield();
	long before = ticks;
	volatile unsigned long x = 0;
	for (unsigned long i = 0; i < 1500000000ul; i++)
		x += i;
	sched_yield();
	long ticked = ticks - before;
	moved &= popcorn_migrate(0) == 0;
	stop = 1;
	pthread_join(thread, NULL);
	moves += moved ? 2 : 0; /* the trace holds them */
	fprintf(stderr, "aarch64-home: the other thread ticked %ld times\n", ticked);
	return moved && ticked < 300;
#else
	(void)wait_for_main;
	return 1;
#endif
}

int main(void)
{
	int moved = moved_with_a_thread();
	size_t bytes = 16 * 4096;
	unsigned char *a = calloc(bytes, 1);
	unsigned long sum = 0;
	for (int trip = 0; trip < 12; trip++) {
		move(1);
		sum += touch(a, bytes, trip);
		printf("trip %d, first stop: %lu\n", trip, sum);
		fflush(stdout);
		if (trip == 3) {
			int fd = open("away.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
			if (fd < 0 || write(fd, "written away\n", 13) != 13 || close(fd) != 0)
				printf("cannot write away.txt\n");
		}
		if (trip == 4)
			legacy_calls();
		move(0);
		sum += touch(a, bytes, trip + 100);
		move(2);
		sum += touch(a, bytes, trip + 200);
		move(0);
	}
	char text[32] = "";
	FILE *f = fopen("away.txt", "r");
	if (!f || !fgets(text, sizeof text, f))
		printf("cannot read away.txt\n");
	if (f)
		fclose(f);
	printf("checksum %lu, away.txt: %s", sum, text);
	fprintf(stderr, "aarch64-home: %d moves, %d on a node of another ISA than its own\n", moves,
		wrong_isa);
	fprintf(stderr, "aarch64-home: a move with a second thread running: %s\n",
		moved ? "moved, the other waited" : "not moved, or the other ran");
	free(a);
	return 0;
}
