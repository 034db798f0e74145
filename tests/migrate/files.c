// MIGRATE-MIN: 1
// STDIN: first line of input\nsecond line\n
/* Files across nodes: a file written on aarch64 is read at home, its times
 * set there are seen at home (gzip sets its output's times with futimens),
 * a record lock taken there is held at home (SQLite locks its database
 * with fcntl), advice on a file is home's (xz gives posix_fadvise), stdin
 * is read after a move, and stdout keeps program order across the moves. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <popcorn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

// Who holds a write lock on the file's first bytes, as seen through fd.
static const char *lockOn(int fd)
{
	struct flock l = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 16};
	if (fcntl(fd, F_OFD_GETLK, &l))
		return "F_OFD_GETLK failed";
	return l.l_type == F_UNLCK ? "unlocked" : l.l_type == F_WRLCK ? "write-locked" : "read-locked";
}

int main(void)
{
	char path[] = "/tmp/popcorn-files-XXXXXX", line[128];
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w+");
	printf("before the move\n");
	popcorn_migrate(1);
	printf("written away\n");
	fprintf(f, "a line written on the other node\n");
	fflush(f);
	struct timespec times[2] = {{1000000000, 0}, {946684800, 0}};
	if (futimens(fd, times))
		perror("futimens away");
	times[1].tv_sec += 60;
	if (utimensat(AT_FDCWD, path, times, 0))
		perror("utimensat away");
	struct flock l = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 16};
	if (fcntl(fd, F_SETLK, &l))
		perror("F_SETLK away");
	if (fcntl(fd, F_OFD_SETLK, &l))
		perror("F_OFD_SETLK away");
	printf("advice away: %d, on a descriptor not open: %d\n",
	       posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL),
	       posix_fadvise(9999, 0, 0, POSIX_FADV_NORMAL) == EBADF);
	int other = open(path, O_RDWR);
	printf("lock seen away: %s\n", lockOn(other));
	if (fgets(line, sizeof line, stdin))
		printf("stdin: %s", line);
	popcorn_migrate(0);
	printf("lock seen at home: %s\n", lockOn(other));
	close(other);
	struct stat st;
	if (!fstat(fd, &st))
		printf("times set away: access %lld, modification %lld\n", (long long)st.st_atime,
		       (long long)st.st_mtime);
	rewind(f);
	if (fgets(line, sizeof line, f))
		printf("read at home: %s", line);
	if (fgets(line, sizeof line, stdin))
		printf("stdin at home: %s", line);
	fclose(f);
	unlink(path);
	return 0;
}
