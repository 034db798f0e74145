// POPCORN-MIGRATE-EVERY: 3
/* File descriptors and stdio on files the program creates: open flags,
 * lseek, fcntl, dup, pipes, directories, rename, and fopen/fseek/ftell. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int cmpstr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(void)
{
	const char *file = "files-test.bin", *dir = "files-test.dir";
	char buf[256];
	int fd;

	unlink(file);
	fd = open(file, O_RDWR | O_CREAT | O_EXCL, 0600);
	printf("create %d\n", fd >= 0);
	int again = open(file, O_RDWR | O_CREAT | O_EXCL, 0600);
	printf("create again: %d errno EEXIST %d\n", again, errno == EEXIST);
	for (int i = 0; i < 100; i++)
		buf[i] = (char)('A' + i % 26);
	printf("write %zd\n", write(fd, buf, 100));
	printf("lseek end %lld\n", (long long)lseek(fd, 0, SEEK_END));
	printf("lseek set %lld\n", (long long)lseek(fd, 10, SEEK_SET));
	memset(buf, 0, sizeof buf);
	printf("read %zd [%.10s]\n", read(fd, buf, 10), buf);
	printf("lseek cur %lld\n", (long long)lseek(fd, -5, SEEK_CUR));
	printf("pread %zd [%.5s]\n", pread(fd, buf, 5, 50), buf);

	int flags = fcntl(fd, F_GETFL);
	printf("F_GETFL accmode rdwr %d append %d\n", (flags & O_ACCMODE) == O_RDWR, (flags & O_APPEND) != 0);
	fcntl(fd, F_SETFL, flags | O_APPEND);
	printf("F_SETFL append %d\n", (fcntl(fd, F_GETFL) & O_APPEND) != 0);
	lseek(fd, 0, SEEK_SET);
	write(fd, "tail", 4);
	printf("append wrote at end: size %lld\n", (long long)lseek(fd, 0, SEEK_END));
	printf("cloexec %d", (fcntl(fd, F_GETFD) & FD_CLOEXEC) != 0);
	fcntl(fd, F_SETFD, FD_CLOEXEC);
	printf(" -> %d\n", (fcntl(fd, F_GETFD) & FD_CLOEXEC) != 0);
	int fd2 = dup(fd);
	printf("dup shares offset: %lld\n", (long long)lseek(fd2, 0, SEEK_CUR));
	close(fd2);
	close(fd);

	/* O_DIRECTORY and O_NOFOLLOW have different values on x86-64 and aarch64 */
	errno = 0;
	fd = open(file, O_RDONLY | O_DIRECTORY);
	printf("O_DIRECTORY on a file: %d ENOTDIR %d\n", fd, errno == ENOTDIR);
	symlink(file, "files-test.sym");
	errno = 0;
	fd = open("files-test.sym", O_RDONLY | O_NOFOLLOW);
	printf("O_NOFOLLOW on a symlink: %d ELOOP %d\n", fd, errno == ELOOP);
	unlink("files-test.sym");
	fd = open(".", O_RDONLY | O_DIRECTORY);
	printf("O_DIRECTORY on . ok %d\n", fd >= 0);
	close(fd);

	int p[2];
	pipe(p);
	write(p[1], "through the pipe", 16);
	close(p[1]);
	memset(buf, 0, sizeof buf);
	ssize_t first = read(p[0], buf, sizeof buf);
	printf("pipe read %zd [%s]", first, buf);
	printf(" then %zd\n", read(p[0], buf, sizeof buf));
	close(p[0]);

	/* stdio on the same file */
	FILE *f = fopen(file, "r+");
	fseek(f, 0, SEEK_END);
	printf("ftell end %ld\n", ftell(f));
	fseek(f, 20, SEEK_SET);
	int c = fgetc(f);
	printf("fgetc %c ftell %ld\n", c, ftell(f));
	fseek(f, 0, SEEK_SET);
	fprintf(f, "%s %d %.2f\n", "header", 12, 3.5);
	rewind(f);
	fgets(buf, sizeof buf, f);
	printf("fgets [%s]", buf);
	fclose(f);
	f = fopen(file, "a");
	fputs("appended line\n", f);
	fclose(f);
	f = fopen(file, "rb");
	size_t total = 0, got;
	while ((got = fread(buf, 1, 7, f)) > 0)
		total += got;
	printf("fread total %zu eof %d\n", total, feof(f));
	fclose(f);

	mkdir(dir, 0755);
	const char *names[] = {"c.txt", "a.txt", "b.dat"};
	for (int i = 0; i < 3; i++) {
		snprintf(buf, sizeof buf, "%s/%s", dir, names[i]);
		close(open(buf, O_WRONLY | O_CREAT, 0644));
	}
	snprintf(buf, sizeof buf, "%s/b.dat", dir);
	char to[64];
	snprintf(to, sizeof to, "%s/renamed.dat", dir);
	printf("rename %d\n", rename(buf, to));
	DIR *d = opendir(dir);
	char *entries[8];
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d)) && n < 8)
		if (e->d_name[0] != '.')
			entries[n++] = strdup(e->d_name);
	closedir(d);
	qsort(entries, n, sizeof entries[0], cmpstr);
	for (int i = 0; i < n; i++) {
		printf("entry %s\n", entries[i]);
		snprintf(buf, sizeof buf, "%s/%s", dir, entries[i]);
		unlink(buf);
		free(entries[i]);
	}
	printf("rmdir %d unlink %d\n", rmdir(dir), unlink(file));
	return 0;
}
