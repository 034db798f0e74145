/* The popcorn API for programs built with popcorn-clang. */
#ifndef _POPCORN_H
#define _POPCORN_H

#include <errno.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Moves the calling thread to node NODE (POPCORN_NODES; by default 0 is
 * where the program started, 1 aarch64 under qemu-user, 2 another x86-64
 * process).  Returns 0 on the destination; -1 with errno set if the thread
 * stays where it is (or, moving from one node to another, which goes
 * through home, if home cannot send it on: then it stays home): EINVAL (no
 * such node), EHOSTUNREACH (the node cannot be started), EAGAIN (the stack cannot be moved from here now, e.g. a
 * va_list is live), EBUSY (another thread of the program is away: one is
 * at a time, while the others wait at home; or one of them blocks signal
 * 34 and cannot be made to wait), ENOTSUP (the program cannot migrate at
 * all). */
int popcorn_migrate(int node);

/* The node a request from outside (SIGRTMIN, Popcorn's signal trigger)
 * asks the calling thread to move to, or -1.  Taking it clears it. */
int popcorn_requested_node(void);

/* The node the calling thread runs on now. */
int popcorn_current_node(void);

/* One more than the highest node number (POPCORN_NODES may leave numbers
 * out: popcorn_node_isa gives NULL for those). */
int popcorn_num_nodes(void);

/* The ISA of NODE, "x86_64" or "aarch64"; NULL for no such node. */
const char *popcorn_node_isa(int node);

/* The ISA the calling thread runs on now: "x86_64" or "aarch64". */
const char *popcorn_isa(void);

/* Runs FN(ARG) on node NODE, then brings the calling thread back to the
 * node it was on: the code goes to the data, which pays when moving the
 * thread there and back costs less than fetching the pages FN reads
 * (bench/compute-to-data.c measures where that is).  FN may move the
 * thread itself; it comes back all the same.  Returns 0 once FN has run
 * and the thread is back.  -1 with errno as popcorn_migrate's if the
 * thread cannot go to NODE (FN has not run) or cannot come back (FN has
 * run; popcorn_current_node says where the thread is). */
static inline int popcorn_run_on(int node, void (*fn)(void *), void *arg)
{
	int from = popcorn_current_node();
	if (node != from && popcorn_migrate(node) != 0) {
		int error = errno; /* the thread may be home: it goes back */
		if (popcorn_current_node() != from)
			popcorn_migrate(from);
		errno = error;
		return -1;
	}
	fn(arg);
	return popcorn_current_node() == from ? 0 : popcorn_migrate(from);
}

#ifdef __cplusplus
}
#endif

#endif
