// MIGRATE-MIN: 2
/* Sockets away from home, on aarch64 (node 1) and another x86-64 process
 * (node 2), as at home: calls on a bad descriptor fail with EBADF (m4's
 * test-accept and its kin); a Unix stream socket is bound, listened on,
 * connected to and accepted, with the addresses accept, getsockname and
 * getpeername give back and the option values getsockopt reads; a
 * datagram names its sender (sendto, recvfrom); sendmsg passes a
 * descriptor and scattered bytes to recvmsg; poll, ppoll, select and
 * pselect say what is ready; a signal whose handler has SA_RESTART
 * still ends a poll with EINTR (the kernel never restarts poll), and one
 * the thread blocks does not. */
#define _GNU_SOURCE /* ppoll */
#include <errno.h>
#include <stddef.h>
#include <poll.h>
#include <popcorn.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

static int bad_descriptor(void)
{
	struct sockaddr_un a = {AF_UNIX, "x"};
	socklen_t len = sizeof a;
	int one = 1, seen = 0;
	errno = 0;
	seen += accept(-1, (struct sockaddr *)&a, &len) == -1 && errno == EBADF;
	errno = 0;
	seen += bind(-1, (struct sockaddr *)&a, sizeof a) == -1 && errno == EBADF;
	errno = 0;
	seen += connect(-1, (struct sockaddr *)&a, sizeof a) == -1 && errno == EBADF;
	errno = 0;
	seen += listen(-1, 1) == -1 && errno == EBADF;
	errno = 0;
	seen += setsockopt(-1, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) == -1 && errno == EBADF;
	return seen;
}

static void name(struct sockaddr_un *a, const char *what, int node)
{
	memset(a, 0, sizeof *a);
	a->sun_family = AF_UNIX;
	snprintf(a->sun_path, sizeof a->sun_path, "%s-%d-%d.sock", what, node, (int)getpid());
	unlink(a->sun_path);
}

static void stream(int node)
{
	struct sockaddr_un at, peer, self;
	name(&at, "stream", node);
	int l = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	int c = socket(AF_UNIX, SOCK_STREAM, 0);
	int bound = bind(l, (struct sockaddr *)&at, sizeof at);
	int listening = listen(l, 4);
	int connected = connect(c, (struct sockaddr *)&at, sizeof at);
	socklen_t peer_len = sizeof peer, self_len = sizeof self, short_len = 4;
	int a = accept(l, (struct sockaddr *)&peer, &peer_len);
	getsockname(l, (struct sockaddr *)&self, &self_len);
	struct sockaddr_un cut;
	getpeername(c, (struct sockaddr *)&cut, &short_len); /* cut short: the full length */
	int bufsize = 65536, got = 0;
	socklen_t got_len = sizeof got;
	setsockopt(c, SOL_SOCKET, SO_SNDBUF, &bufsize, sizeof bufsize);
	getsockopt(c, SOL_SOCKET, SO_SNDBUF, &got, &got_len);
	int type = 0;
	socklen_t type_len = sizeof type;
	getsockopt(a, SOL_SOCKET, SO_TYPE, &type, &type_len);
	ssize_t sent = send(c, "hello, node", 11, 0);
	char buf[32] = {0};
	ssize_t received = recv(a, buf, sizeof buf, 0);
	shutdown(c, SHUT_WR);
	ssize_t end = recv(a, buf + 20, 4, 0);
	printf("node %d: stream bound %d listening %d connected %d accepted %d peer family %d "
	       "length %u, name %s length %u, peer length %u, sndbuf %d (%u), type %d, sent %zd "
	       "received %zd '%s', at end %zd\n",
	       node, bound, listening, connected, a >= 0, peer.sun_family, (unsigned)peer_len,
	       strcmp(self.sun_path, at.sun_path) ? "other" : "same", (unsigned)self_len,
	       (unsigned)short_len, got > 0, (unsigned)got_len, type, sent, received, buf, end);
	unlink(at.sun_path);
	close(a);
	close(c);
	close(l);
}

static void datagram(int node)
{
	struct sockaddr_un at, from_at, from;
	name(&at, "to", node);
	name(&from_at, "from", node);
	int r = socket(AF_UNIX, SOCK_DGRAM, 0), s = socket(AF_UNIX, SOCK_DGRAM, 0);
	bind(r, (struct sockaddr *)&at, sizeof at);
	bind(s, (struct sockaddr *)&from_at, sizeof from_at);
	ssize_t sent = sendto(s, "datagram", 8, 0, (struct sockaddr *)&at, sizeof at);
	char buf[16] = {0};
	socklen_t len = sizeof from;
	ssize_t received = recvfrom(r, buf, sizeof buf, 0, (struct sockaddr *)&from, &len);
	printf("node %d: datagram sent %zd received %zd '%s' from the sender %d (length %u)\n", node,
	       sent, received, buf, !strcmp(from.sun_path, from_at.sun_path),
	       (unsigned)(len - offsetof(struct sockaddr_un, sun_path)));
	unlink(at.sun_path);
	unlink(from_at.sun_path);
	close(r);
	close(s);
}

static void messages(int node)
{
	int pair[2], pipe_ends[2];
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, pair) || pipe(pipe_ends))
		return;
	write(pipe_ends[1], "through the pipe", 16);
	struct iovec out[2] = {{"two ", 4}, {"parts", 5}};
	union {
		struct cmsghdr h;
		char bytes[CMSG_SPACE(sizeof(int))];
	} control = {0};
	struct msghdr m = {.msg_iov = out, .msg_iovlen = 2, .msg_control = control.bytes,
	                   .msg_controllen = sizeof control.bytes};
	struct cmsghdr *c = CMSG_FIRSTHDR(&m);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &pipe_ends[0], sizeof(int));
	ssize_t sent = sendmsg(pair[0], &m, 0);

	char first[3] = {0}, rest[16] = {0};
	struct iovec in[2] = {{first, 2}, {rest, sizeof rest - 1}};
	union {
		struct cmsghdr h;
		char bytes[CMSG_SPACE(sizeof(int))];
	} got = {0};
	struct msghdr r = {.msg_iov = in, .msg_iovlen = 2, .msg_control = got.bytes,
	                   .msg_controllen = sizeof got.bytes};
	ssize_t received = recvmsg(pair[1], &r, 0);
	int passed = -1;
	struct cmsghdr *g = CMSG_FIRSTHDR(&r);
	if (g && g->cmsg_type == SCM_RIGHTS)
		memcpy(&passed, CMSG_DATA(g), sizeof passed);
	char piped[17] = {0};
	ssize_t read_passed = passed >= 0 ? read(passed, piped, 16) : -1;
	printf("node %d: message sent %zd received %zd '%s' '%s', control %u, flags %d, "
	       "passed a descriptor %d reading '%s' (%zd)\n",
	       node, sent, received, first, rest, (unsigned)r.msg_controllen, r.msg_flags,
	       passed >= 0, piped, read_passed);
	close(passed);
	close(pipe_ends[0]);
	close(pipe_ends[1]);
	close(pair[0]);
	close(pair[1]);
}

static volatile sig_atomic_t alarms;
static void on_alarm(int s) { alarms += s == SIGALRM; }

static void waits(int node)
{
	int pair[2];
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, pair))
		return;
	struct pollfd p[2] = {{pair[0], POLLIN, 0}, {pair[1], POLLOUT, 0}};
	int none = poll(p, 1, 0);
	write(pair[1], "x", 1);
	int ready = poll(p, 2, 100);
	short revents[2] = {p[0].revents, p[1].revents};
	struct timespec zero = {0, 0};
	sigset_t all;
	sigfillset(&all);
	int ppolled = ppoll(p, 2, &zero, &all);

	fd_set r, w;
	FD_ZERO(&r);
	FD_ZERO(&w);
	FD_SET(pair[0], &r);
	FD_SET(pair[1], &r);
	FD_SET(pair[0], &w);
	struct timeval tv = {0, 100000};
	int selected = select(pair[1] + 1, &r, &w, 0, &tv);
	int in_r = FD_ISSET(pair[0], &r), other_r = FD_ISSET(pair[1], &r), in_w = FD_ISSET(pair[0], &w);
	FD_ZERO(&r);
	FD_SET(pair[1], &r);
	struct timespec short_wait = {0, 1000000};
	int pselected = pselect(pair[1] + 1, &r, 0, 0, &short_wait, &all);

	/* SA_RESTART, and still poll ends: an alarm in 50 ms, nothing to read. */
	struct sigaction sa = {0};
	sa.sa_handler = on_alarm;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGALRM, &sa, 0);
	char c;
	read(pair[0], &c, 1);
	struct pollfd idle = {pair[0], POLLIN, 0};
	struct itimerval in50 = {{0, 0}, {0, 50000}};
	alarms = 0;
	setitimer(ITIMER_REAL, &in50, 0);
	errno = 0;
	int interrupted = poll(&idle, 1, 5000);
	int why = errno;
	int alarmed = alarms;

	/* The alarm blocked: poll waits its 200 ms, the handler runs when
	 * the thread unblocks it. */
	sigset_t alarm_only;
	sigemptyset(&alarm_only);
	sigaddset(&alarm_only, SIGALRM);
	sigprocmask(SIG_BLOCK, &alarm_only, 0);
	alarms = 0;
	setitimer(ITIMER_REAL, &in50, 0);
	int timed_out = poll(&idle, 1, 200);
	int before = alarms;
	sigprocmask(SIG_UNBLOCK, &alarm_only, 0);
	printf("node %d: poll none %d ready %d (%#x %#x) ppoll %d select %d (%d %d %d) pselect %d, "
	       "poll with an alarm %d %s, alarms %d, blocked %d, alarms %d then %d\n",
	       node, none, ready, revents[0], revents[1], ppolled, selected, in_r, other_r, in_w,
	       pselected, interrupted, why == EINTR ? "EINTR" : strerror(why), alarmed, timed_out,
	       before, (int)alarms);
	close(pair[0]);
	close(pair[1]);
}

int main(void)
{
	for (int node = 1; node <= 2; node++) {
		popcorn_migrate(node);
		printf("node %d: bad descriptor %d\n", node, bad_descriptor());
		stream(node);
		datagram(node);
		messages(node);
		waits(node);
		popcorn_migrate(0);
	}
	return 0;
}
