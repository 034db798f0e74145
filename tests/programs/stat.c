/* stat, fstat and lstat of a file, a directory and a symbolic link that the
 * program creates in its working directory.  Prints only what is the same
 * on every run: sizes, types, link counts, permission bits. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void show(const char *what, const struct stat *st)
{
	printf("%-12s size %lld reg %d dir %d lnk %d nlink %lu mode %04o blksize>0 %d blocks*512>=size %d\n",
	       what, (long long)st->st_size, S_ISREG(st->st_mode) != 0, S_ISDIR(st->st_mode) != 0,
	       S_ISLNK(st->st_mode) != 0, (unsigned long)st->st_nlink, (unsigned)(st->st_mode & 07777),
	       st->st_blksize > 0, (long long)st->st_blocks * 512 >= (long long)st->st_size);
}

int main(void)
{
	const char *file = "stat-test.txt", *link2 = "stat-test.hard", *sym = "stat-test.sym",
		   *dir = "stat-test.dir";
	struct stat st, st2;
	char data[3000];

	unlink(file);
	unlink(link2);
	unlink(sym);
	rmdir(dir);
	umask(022);

	int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0640);
	if (fd < 0) {
		perror("open");
		return 1;
	}
	memset(data, 'x', sizeof data);
	if (write(fd, data, 1234) != 1234) {
		perror("write");
		return 1;
	}
	if (fstat(fd, &st)) {
		perror("fstat");
		return 1;
	}
	show("fstat", &st);
	write(fd, data, sizeof data);
	fsync(fd);
	fstat(fd, &st);
	show("fstat grown", &st);
	close(fd);

	if (stat(file, &st)) {
		perror("stat");
		return 1;
	}
	show("stat", &st);
	fstatat(AT_FDCWD, file, &st2, 0);
	printf("fstatat same inode %d dev %d size %lld\n", st.st_ino == st2.st_ino, st.st_dev == st2.st_dev,
	       (long long)st2.st_size);

	link(file, link2);
	stat(file, &st);
	show("hard-linked", &st);

	symlink(file, sym);
	lstat(sym, &st);
	printf("lstat symlink: lnk %d size %lld\n", S_ISLNK(st.st_mode) != 0, (long long)st.st_size);
	stat(sym, &st2);
	show("stat via sym", &st2);

	chmod(file, 0604);
	stat(file, &st);
	show("chmod 604", &st);

	mkdir(dir, 0751);
	stat(dir, &st);
	printf("dir: dir %d reg %d mode %04o nlink %lu\n", S_ISDIR(st.st_mode) != 0, S_ISREG(st.st_mode) != 0,
	       (unsigned)(st.st_mode & 07777), (unsigned long)st.st_nlink);

	printf("stat missing: %d\n", stat("stat-test.missing", &st));

	truncate(file, 10);
	stat(file, &st);
	printf("truncated size %lld\n", (long long)st.st_size);

	unlink(sym);
	unlink(link2);
	unlink(file);
	rmdir(dir);
	printf("cleaned up: %d\n", access(file, F_OK));
	return 0;
}
