/* The futex operations libc++'s atomic waits use (src/atomic.cpp), for its
 * build only: musl has no kernel headers, and these values are the same on
 * every Linux ISA. */
#ifndef POPCORN_LINUX_FUTEX_H
#define POPCORN_LINUX_FUTEX_H
#define FUTEX_WAIT 0
#define FUTEX_WAKE 1
#define FUTEX_PRIVATE_FLAG 128
#define FUTEX_WAIT_PRIVATE (FUTEX_WAIT | FUTEX_PRIVATE_FLAG)
#define FUTEX_WAKE_PRIVATE (FUTEX_WAKE | FUTEX_PRIVATE_FLAG)
#endif
