/*===- popcorn/Control.h - popcorn-ctl's requests and replies -----*- C -*-===//
 *
 * The protocol of a home process's control socket (runtime/control/ControlSocket.h),
 * spoken by popcorn-ctl: one request, one reply, then the server closes the
 * connection.  Plain C and fixed-width fields: the runtime that serves it
 * uses no libc, and a test client in C sends malformed requests.
 *
 * A request starts with its magic and its size in bytes; the server reads
 * exactly that many and answers anything else (another magic, another
 * size, an unknown type) with an error reply.  Every reply is one struct
 * popcorn_control_reply, whatever the request.
 *
 * The socket is $XDG_RUNTIME_DIR/popcorn/PID or, without XDG_RUNTIME_DIR,
 * /tmp/popcorn-UID/PID (the environment the program started with); the
 * directory is the user's alone (mode 0700).
 *
 * A program opens its socket only when asked, so that one that is never
 * asked starts as fast as any: popcorn-ctl knows a home process by the
 * runtime's state, mapped at POPCORN_CONTROL_STATE_ADDRESS in every
 * process that runs it (/proc/PID/maps), in a process that is neither
 * a node (POPCORN_NODE in its environment) nor a forked copy that never
 * exec'd (PF_FORKNOEXEC in /proc/PID/stat).  It asks with sigqueue:
 * POPCORN_CONTROL_OPEN_SIGNAL carrying POPCORN_CONTROL_OPEN_VALUE, a signal
 * musl keeps from the program (a home under qemu-user gets it as the
 * host's signal two above), and connects once the socket answers.
 *
 *===----------------------------------------------------------------------===*/
#ifndef POPCORN_CONTROL_H
#define POPCORN_CONTROL_H

#include <stdint.h>

#define POPCORN_CONTROL_MAGIC 0x4c544350u /* "PCTL" */
#define POPCORN_CONTROL_VERSION 3
#define POPCORN_CONTROL_MAX_NODES 8
#define POPCORN_CONTROL_MAX_THREADS 64
#define POPCORN_CONTROL_DIR_NAME "popcorn"
#define POPCORN_CONTROL_STATE_ADDRESS 0x0f0000000000ull
#define POPCORN_CONTROL_OPEN_SIGNAL 34
#define POPCORN_CONTROL_OPEN_VALUE 0x4e45504f /* "OPEN" */

enum popcorn_control_type {
	POPCORN_CONTROL_STATUS = 1,  /* the reply's status part */
	POPCORN_CONTROL_MIGRATE = 2, /* move the thread to node `node` */
};

struct popcorn_control_request {
	uint32_t magic;
	uint32_t size;    /* sizeof(struct popcorn_control_request) */
	uint32_t version; /* POPCORN_CONTROL_VERSION */
	uint32_t type;    /* enum popcorn_control_type */
	int32_t node;     /* MIGRATE: the destination */
	int32_t tid;      /* MIGRATE: the thread to move (the main one's is the
	                   * PID); 0: the one away, if any, else the first to
	                   * reach a migration point */
};

enum popcorn_control_launcher {
	POPCORN_LAUNCHER_NATIVE = 0,
	POPCORN_LAUNCHER_QEMU = 1,
	POPCORN_LAUNCHER_TCP = 2,
	POPCORN_LAUNCHER_SSH = 3,
};

struct popcorn_control_node {
	uint16_t elf_machine; /* EM_X86_64, EM_AARCH64 */
	uint8_t launcher;     /* enum popcorn_control_launcher */
	uint8_t started;      /* home (node 0) counts as started */
	uint8_t alive;        /* its process exists (not a zombie) */
	uint8_t reserved[3];
	int32_t pid;          /* 0 if not started or not a local process */
	int32_t reserved2;
	char host[64];        /* tcp: "ADDRESS:PORT", ssh: "[USER@]HOST"; else "" */
};

struct popcorn_control_thread {
	int32_t tid;
	int32_t node; /* where it runs */
};

struct popcorn_control_reply {
	uint32_t magic;
	uint32_t size;    /* sizeof(struct popcorn_control_reply) */
	uint32_t version;
	int32_t error;    /* 0, or an errno value; message says why */
	char message[160];

	/* Status, in every reply. */
	int32_t pid;
	int32_t thread_node;          /* where the thread away is, else 0 */
	uint16_t thread_machine;      /* that node's ISA */
	uint16_t node_count;
	int32_t requested_node;       /* a move not yet taken, or -1 */
	uint64_t migrations;          /* trips away from home */
	uint64_t pages_fetched;       /* served to other nodes */
	uint64_t pages_returned;      /* written back by them */
	uint64_t syscalls_forwarded;  /* run at home for them */
	struct popcorn_control_node nodes[POPCORN_CONTROL_MAX_NODES];
	uint32_t thread_count;        /* the program's threads */
	uint32_t reserved3;
	/* The first POPCORN_CONTROL_MAX_THREADS of them, the one away among
	 * them. */
	struct popcorn_control_thread threads[POPCORN_CONTROL_MAX_THREADS];
};

#endif
