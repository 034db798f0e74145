/* epoll on pipes: the 64-bit user data must come back intact
 * (struct epoll_event is packed on x86-64, not on aarch64). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

int main(void)
{
	int a[2], b[2];
	struct epoll_event ev, events[4];
	int ep = epoll_create1(EPOLL_CLOEXEC);
	if (ep < 0) {
		perror("epoll_create1");
		return 1;
	}
	if (pipe(a) || pipe(b)) {
		perror("pipe");
		return 1;
	}

	memset(&ev, 0, sizeof ev);
	ev.events = EPOLLIN;
	ev.data.u64 = 0x1122334455667788ULL;
	printf("ctl add a: %d\n", epoll_ctl(ep, EPOLL_CTL_ADD, a[0], &ev));
	ev.events = EPOLLIN | EPOLLET;
	ev.data.u64 = 0xfedcba9876543210ULL;
	printf("ctl add b: %d\n", epoll_ctl(ep, EPOLL_CTL_ADD, b[0], &ev));

	printf("wait, nothing ready: %d\n", epoll_wait(ep, events, 4, 0));

	write(a[1], "x", 1);
	memset(events, 0xAA, sizeof events);
	int n = epoll_wait(ep, events, 4, 1000);
	printf("wait after writing a: %d\n", n);
	for (int i = 0; i < n; i++)
		printf("  events %#x in %d data %016llx\n", (unsigned)events[i].events, (events[i].events & EPOLLIN) != 0,
		       (unsigned long long)events[i].data.u64);

	write(b[1], "yz", 2);
	memset(events, 0, sizeof events);
	n = epoll_wait(ep, events, 4, 1000);
	printf("wait after writing b: %d\n", n);
	/* order of ready events is the kernel's; print them sorted by data */
	if (n == 2 && events[0].data.u64 > events[1].data.u64) {
		struct epoll_event t = events[0];
		events[0] = events[1];
		events[1] = t;
	}
	for (int i = 0; i < n; i++)
		printf("  events %#x data %016llx\n", (unsigned)events[i].events, (unsigned long long)events[i].data.u64);

	/* modify: a now reports with a different cookie and EPOLLOUT is not asked */
	ev.events = EPOLLIN;
	ev.data.u64 = 0x0000000100000002ULL;
	printf("ctl mod a: %d\n", epoll_ctl(ep, EPOLL_CTL_MOD, a[0], &ev));
	char c[4];
	read(b[0], c, 2);
	n = epoll_wait(ep, events, 4, 1000);
	printf("wait after mod: %d data %016llx\n", n, n > 0 ? (unsigned long long)events[0].data.u64 : 0ULL);

	/* the write end: EPOLLOUT, with a pointer-sized cookie */
	ev.events = EPOLLOUT;
	ev.data.fd = a[1];
	epoll_ctl(ep, EPOLL_CTL_ADD, a[1], &ev);
	read(a[0], c, 1);
	n = epoll_wait(ep, events, 4, 1000);
	printf("wait for out: %d fd matches %d out %d\n", n, n == 1 && events[0].data.fd == a[1],
	       n == 1 && (events[0].events & EPOLLOUT) != 0);

	printf("ctl del: %d %d %d\n", epoll_ctl(ep, EPOLL_CTL_DEL, a[0], NULL), epoll_ctl(ep, EPOLL_CTL_DEL, b[0], NULL),
	       epoll_ctl(ep, EPOLL_CTL_DEL, a[1], NULL));
	printf("wait after del: %d\n", epoll_wait(ep, events, 4, 0));
	close(a[0]);
	close(a[1]);
	close(b[0]);
	close(b[1]);
	close(ep);
	return 0;
}
