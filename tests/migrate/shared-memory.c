// MIGRATE-MIN: 10
/* Memory shared with other processes stays shared away from home: a
 * forked child, which runs at home, sees what the thread wrote on a node
 * before it told the child (a pipe), and the thread sees there what the
 * child wrote before it answered; the child's writes survive the thread's
 * return.  A file mapped shared shows, to read and write on the file's
 * descriptor, what the thread wrote in the mapping on a node, and the
 * mapping shows what was written to the file.  The thread and the child
 * writing two words of one page at once keep both, and a futex in shared
 * memory wakes the child at home from a node. */
#include <fcntl.h>
#include <popcorn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { Page = 4096, FUTEX_WAIT = 0, FUTEX_WAKE = 1 }; /* linux/futex.h, which musl lacks */

static void tell(int fd)
{
	if (write(fd, "x", 1) != 1)
		exit(1);
}

static void wait_for(int fd)
{
	char c;
	if (read(fd, &c, 1) != 1)
		exit(1);
}

/* Pages of anonymous memory shared with the children forked from now,
 * and stdout flushed for the fork. */
static volatile int *shared_pages(int pages)
{
	void *r = mmap(0, (size_t)pages * Page, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
	               -1, 0);
	if (r == MAP_FAILED)
		exit(1);
	fflush(stdout);
	return r;
}

static void with_child(int node)
{
	volatile int *shared = shared_pages(2);
	int to_child[2], to_parent[2];
	if (pipe(to_child) || pipe(to_parent))
		exit(1);
	shared[0] = 1;
	pid_t child = fork();
	if (child == 0) {
		wait_for(to_child[0]);
		shared[1] = shared[0] + 10; /* next to what the parent wrote */
		shared[Page / sizeof(int)] = 7;
		tell(to_parent[1]);
		wait_for(to_child[0]);
		shared[2] = shared[0] + 100;
		tell(to_parent[1]);
		_exit(0);
	}
	popcorn_migrate(node);
	int before = shared[0] + shared[Page / sizeof(int)];
	shared[0] = 2;
	tell(to_child[1]);
	wait_for(to_parent[0]);
	int seen = shared[1] * 100 + shared[Page / sizeof(int)];
	popcorn_migrate(0);
	shared[0] = 3;
	popcorn_migrate(node);
	tell(to_child[1]);
	wait_for(to_parent[0]);
	int seen2 = shared[2];
	shared[3] = 4;
	popcorn_migrate(0);
	waitpid(child, 0, 0);
	printf("node %d: child: before %d, saw %d and %d; at home %d %d %d %d\n", node, before, seen,
	       seen2, shared[0], shared[1], shared[2], shared[3]);
	munmap((void *)shared, 2 * Page);
	close(to_child[0]);
	close(to_child[1]);
	close(to_parent[0]);
	close(to_parent[1]);
}

static void with_file(int node)
{
	char name[] = "/tmp/popcorn-shared-XXXXXX";
	int fd = mkstemp(name);
	if (fd < 0 || ftruncate(fd, Page))
		exit(1);
	unlink(name);
	char *map = mmap(0, Page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		exit(1);
	popcorn_migrate(node);
	strcpy(map, "written in the mapping");
	char read_back[32] = "";
	pread(fd, read_back, sizeof read_back - 1, 0);
	pwrite(fd, "WRITTEN", 7, 0);
	char seen[32];
	memcpy(seen, map, sizeof seen - 1);
	seen[sizeof seen - 1] = 0;
	popcorn_migrate(0);
	printf("node %d: file: read '%s', mapping '%s'\n", node, read_back, seen);
	munmap(map, Page);
	close(fd);
}

/* The thread writes one word of a shared page on a node while the child
 * writes another of the same page at home: only the bytes the thread
 * changed go home, and the child's stay.  (The child writes while the
 * thread computes, if the machine keeps to the timing; either way the
 * result must be both words.) */
static void same_page(int node, long spin)
{
	volatile int *shared = shared_pages(1);
	pid_t child = fork();
	if (child == 0) {
		usleep(30000);
		shared[1] = 11;
		_exit(0);
	}
	popcorn_migrate(node);
	shared[0] = 5;
	volatile long x = 0;
	for (long i = 0; i < spin; i++)
		x += i;
	waitpid(child, 0, 0);
	popcorn_migrate(0);
	printf("node %d: same page: %d %d\n", node, shared[0], shared[1]);
	munmap((void *)shared, Page);
}

/* A futex in shared memory: the child waits on it at home, the thread
 * sets the word and wakes it from a node. */
static void futex_wake(int node)
{
	volatile int *word = shared_pages(1);
	pid_t child = fork();
	if (child == 0) {
		while (*word == 0)
			syscall(SYS_futex, word, FUTEX_WAIT, 0, 0, 0, 0);
		_exit(*word);
	}
	popcorn_migrate(node);
	usleep(50000); /* the child waits by now, most likely */
	*word = 6;
	syscall(SYS_futex, word, FUTEX_WAKE, 1, 0, 0, 0);
	int status = 0;
	waitpid(child, &status, 0);
	popcorn_migrate(0);
	printf("node %d: futex: child woke with %d\n", node, WEXITSTATUS(status));
	munmap((void *)word, Page);
}

/* Iterations of a loop that take about 300 ms here. */
static long spin_for_300ms(void)
{
	struct timespec a, b;
	volatile long x = 0;
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (long i = 0; i < 10000000; i++)
		x += i;
	clock_gettime(CLOCK_MONOTONIC, &b);
	double seconds = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
	return (long)(10000000 * (0.3 / (seconds > 0 ? seconds : 0.01)));
}

int main(void)
{
	long spin = spin_for_300ms();
	for (int node = 2; node >= 1; node--) {
		with_child(node);
		with_file(node);
		/* Under qemu the loop runs about ten times slower. */
		same_page(node, node == 1 ? spin / 10 : spin);
		futex_wake(node);
	}
	return 0;
}
