/* syscall(2) with <sys/syscall.h>'s numbers: the program is compiled with
 * one ISA's numbers and runs on both, so libc maps them. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(void)
{
	printf("getpid: %s\n", syscall(SYS_getpid) == getpid() ? "same" : "different");
	printf("gettid: %s\n", syscall(SYS_gettid) == getpid() ? "same" : "different");
	fflush(stdout);
	static const char line[] = "write: through syscall\n";
	long n = syscall(SYS_write, 1, line, sizeof line - 1);
	printf("wrote %ld bytes\n", n);
	int fd = (int)syscall(SYS_openat, AT_FDCWD, "/proc/self/exe", O_RDONLY);
	char magic[4] = {0};
	long got = syscall(SYS_read, fd, magic, 4);
	printf("read %ld bytes: %s\n", got, memcmp(magic, "\177ELF", 4) ? "not ELF" : "ELF");
	printf("close: %ld\n", syscall(SYS_close, fd));
	errno = 0;
	long bad = syscall(100000);
	printf("unknown call: %ld, %s\n", bad, errno == ENOSYS ? "ENOSYS" : strerror(errno));
	return 0;
}
