// MIGRATE-MIN: 2
/* Calls away from home on aarch64 (node 1) and another x86-64 process
 * (node 2) do what they do at home: file locks, copies between
 * descriptors (sendfile, copy_file_range, splice, with their offsets),
 * eventfd, timerfd and inotify descriptors, memfd, special files, the
 * process's group and session and ids, and the time and processors of
 * the process the thread runs in. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <popcorn.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <sys/times.h>
#include <time.h>
#include <unistd.h>

static int file_with(const char *name, const char *text)
{
	int fd = open(name, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd >= 0)
		write(fd, text, strlen(text));
	return fd;
}

static void copies(int node)
{
	int from = file_with("from.txt", "0123456789abcdef");
	int to = file_with("to.txt", "");
	int locked = flock(to, LOCK_EX | LOCK_NB) == 0 && flock(to, LOCK_UN) == 0;
	off_t at = 4;
	ssize_t sent = sendfile(to, from, &at, 6);
	loff_t in = 10, out = 6;
	ssize_t copied = copy_file_range(from, &in, to, &out, 6, 0);
	int ends[2];
	pipe(ends);
	loff_t spliced_at = 2;
	ssize_t spliced = splice(from, &spliced_at, ends[1], NULL, 3, 0);
	char piped[4] = {0}, result[16] = {0};
	read(ends[0], piped, 3);
	pread(to, result, 12, 0);
	printf("node %d: flock %d, sendfile %zd to offset %ld, copy_file_range %zd to %ld %ld, "
	       "splice %zd '%s' to %ld, file '%s'\n",
	       node, locked, sent, (long)at, copied, (long)in, (long)out, spliced, piped,
	       (long)spliced_at, result);
	close(ends[0]);
	close(ends[1]);
	close(from);
	close(to);
	unlink("from.txt");
	unlink("to.txt");
}

static void descriptors(int node)
{
	int e = eventfd(0, EFD_CLOEXEC);
	uint64_t add = 3, got = 0;
	write(e, &add, sizeof add);
	write(e, &add, sizeof add);
	read(e, &got, sizeof got);
	close(e);

	int t = timerfd_create(CLOCK_MONOTONIC, 0);
	struct itimerspec in10 = {{0, 0}, {0, 10000000}}, left, old;
	int set = timerfd_settime(t, 0, &in10, &old);
	timerfd_gettime(t, &left);
	uint64_t expired = 0;
	read(t, &expired, sizeof expired);
	close(t);

	int watch = inotify_init1(IN_CLOEXEC);
	int wd = inotify_add_watch(watch, ".", IN_CREATE);
	close(file_with("watched.txt", "x"));
	union {
		struct inotify_event e;
		char bytes[sizeof(struct inotify_event) + 64];
	} event;
	ssize_t n = read(watch, &event, sizeof event);
	int named = n > 0 && !strcmp(event.e.name, "watched.txt");
	int removed = inotify_rm_watch(watch, wd);
	close(watch);
	unlink("watched.txt");

	int m = memfd_create("scratch", MFD_CLOEXEC);
	char back[8] = {0};
	write(m, "in memory", 9);
	pread(m, back, 6, 3);
	close(m);
	printf("node %d: eventfd %llu, timerfd set %d old %ld left %d expired %d, inotify %d %d %d, "
	       "memfd '%s'\n",
	       node, (unsigned long long)got, set, (long)old.it_value.tv_nsec,
	       left.it_value.tv_nsec > 0 || left.it_value.tv_sec > 0, expired >= 1, wd > 0, named,
	       removed, back);
}

static void process(int node, pid_t group, pid_t session)
{
	uid_t r, e, s;
	gid_t rg, eg, sg;
	getresuid(&r, &e, &s);
	getresgid(&rg, &eg, &sg);
	struct stat st;
	int fifo = mknod("fifo", S_IFIFO | 0600, 0) == 0 && stat("fifo", &st) == 0 &&
	           S_ISFIFO(st.st_mode);
	unlink("fifo");
	struct tms t;
	clock_t ticks = times(&t);
	struct timespec res;
	int resolution = clock_getres(CLOCK_MONOTONIC, &res) == 0 && res.tv_sec == 0 &&
	                 res.tv_nsec > 0;
	cpu_set_t cpus;
	int affinity = sched_getaffinity(0, sizeof cpus, &cpus) == 0 &&
	               sched_setaffinity(0, sizeof cpus, &cpus) == 0;
	sync();
	int fd = open(".", O_RDONLY);
	int synced = syncfs(fd) == 0;
	close(fd);
	printf("node %d: group %d session %d, ids %d %d, fifo %d, times %d, resolution %d, "
	       "affinity %d, syncfs %d\n",
	       node, getpgid(0) == group && getpgrp() == group, getsid(0) == session,
	       r == getuid() && e == geteuid() && s == r, rg == getgid() && eg == getegid(), fifo,
	       ticks != (clock_t)-1, resolution, affinity, synced);
}

int main(void)
{
	pid_t group = getpgrp(), session = getsid(0);
	for (int node = 1; node <= 2; node++) {
		popcorn_migrate(node);
		copies(node);
		descriptors(node);
		process(node, group, session);
		popcorn_migrate(0);
	}
	return 0;
}
