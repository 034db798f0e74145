/* Popcorn Linux's migration API, so that programs written for Popcorn
 * compile unchanged.  Each call is the <popcorn.h> one underneath. */
#ifndef _POPCORN_MIGRATE_H
#define _POPCORN_MIGRATE_H

#include <popcorn.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

enum arch { ARCH_UNKNOWN = -1, ARCH_AARCH64, ARCH_X86_64, ARCH_POWERPC64 };

/* The node the calling thread runs on. */
static inline int current_nid(void) { return popcorn_current_node(); }

static inline enum arch current_arch(void)
{
	const char *isa = popcorn_isa();
	return !strcmp(isa, "aarch64") ? ARCH_AARCH64 : !strcmp(isa, "x86_64") ? ARCH_X86_64 : ARCH_UNKNOWN;
}

/* Whether NID names a node of this program (POPCORN_NODES). */
static inline int node_available(int nid) { return popcorn_node_isa(nid) != 0; }

/* Moves the calling thread to node NID; CALLBACK(DATA), if given, runs
 * there before the thread goes on.  If the thread cannot move it stays,
 * and the callback does not run. */
static inline void migrate(int nid, void (*callback)(void *), void *callback_data)
{
	if (popcorn_migrate(nid) == 0 && callback)
		callback(callback_data);
}

/* Moves the thread if it has been asked to (SIGRTMIN; POPCORN_MIGRATE
 * schedules are taken at every migration point anyway). */
static inline void check_migrate(void (*callback)(void *), void *callback_data)
{
	int nid = popcorn_requested_node();
	if (nid >= 0)
		migrate(nid, callback, callback_data);
}

#ifdef __cplusplus
}
#endif

#endif
