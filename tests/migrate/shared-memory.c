// MIGRATE-MIN: 6
/* Memory shared with other processes stays shared away from home: a
 * forked child, which runs at home, sees what the thread wrote on a node
 * before it told the child (a pipe), and the thread sees there what the
 * child wrote before it answered; the child's writes survive the thread's
 * return.  A file mapped shared shows, to read and write on the file's
 * descriptor, what the thread wrote in the mapping on a node, and the
 * mapping shows what was written to the file. */
#include <fcntl.h>
#include <popcorn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

enum { Page = 4096 };

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

static void with_child(int node)
{
	volatile int *shared = mmap(0, 2 * Page, PROT_READ | PROT_WRITE,
	                            MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int to_child[2], to_parent[2];
	if (shared == MAP_FAILED || pipe(to_child) || pipe(to_parent))
		exit(1);
	shared[0] = 1;
	fflush(stdout);
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

int main(void)
{
	for (int node = 2; node >= 1; node--) {
		with_child(node);
		with_file(node);
	}
	return 0;
}
