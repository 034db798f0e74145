/* Sends malformed requests to the control socket named by argv[1], one
 * per connection, and prints each reply's error and message: each must be
 * an error, and the program must go on serving. */
#include <popcorn/Control.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static int ask(const char *path, const void *request, size_t bytes)
{
	struct sockaddr_un address = {.sun_family = AF_UNIX};
	strncpy(address.sun_path, path, sizeof address.sun_path - 1);
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&address, sizeof address)) {
		perror(path);
		return 1;
	}
	if (write(fd, request, bytes) != (ssize_t)bytes)
		perror("write");
	shutdown(fd, SHUT_WR);
	struct popcorn_control_reply reply;
	size_t got = 0;
	ssize_t n;
	while (got < sizeof reply && (n = read(fd, (char *)&reply + got, sizeof reply - got)) > 0)
		got += n;
	close(fd);
	if (got != sizeof reply || reply.magic != POPCORN_CONTROL_MAGIC) {
		printf("no reply (%zu bytes)\n", got);
		return 1;
	}
	reply.message[sizeof reply.message - 1] = 0;
	printf("error %d: %s\n", reply.error, reply.message);
	return reply.error == 0;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: ctl-garbage SOCKET\n");
		return 2;
	}
	struct popcorn_control_request good = {POPCORN_CONTROL_MAGIC, sizeof good,
					       POPCORN_CONTROL_VERSION, POPCORN_CONTROL_STATUS, 0, 0};
	struct popcorn_control_request q;
	int failed = 0;
	failed |= ask(argv[1], "abc", 3);
	q = good, q.magic = 0x12345678;
	failed |= ask(argv[1], &q, sizeof q);
	q = good, q.size = 1000;
	failed |= ask(argv[1], &q, sizeof q);
	q = good, q.size = 4;
	failed |= ask(argv[1], &q, sizeof q);
	failed |= ask(argv[1], &good, sizeof good - 4);
	q = good, q.type = 99;
	failed |= ask(argv[1], &q, sizeof q);
	q = good, q.version = 7;
	failed |= ask(argv[1], &q, sizeof q);
	q = good, q.type = POPCORN_CONTROL_MIGRATE, q.node = -5;
	failed |= ask(argv[1], &q, sizeof q);
	return failed;
}
