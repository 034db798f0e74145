/* The popcorn API for programs built with popcorn-clang. */
#ifndef _POPCORN_H
#define _POPCORN_H

#ifdef __cplusplus
extern "C" {
#endif

/* Name of the ISA the calling thread runs on now: "x86_64" or "aarch64". */
const char *popcorn_isa(void);

#ifdef __cplusplus
}
#endif

#endif
