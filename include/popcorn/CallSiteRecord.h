//===- popcorn/CallSiteRecord.h - How call sites describe themselves -*- C -*-===//
//
// The compiler (RecordCallSites pass) writes, and the metadata generator
// reads, this encoding of a call site's "deopt" operand bundle.  The bundle
// becomes the call's stack-map record, whose locations appear in order:
//
//   Constant  header: CSR_COMPLETE if every live value is recorded, CSR_LIBC,
//             CSR_VA_LIST, CSR_RETURNS_TWICE,
//             and the call's source line << CSR_LINE_SHIFT (0: unknown)
//   then for each recorded value, two locations:
//   Constant  kind | (size << CSR_SIZE_SHIFT): the alloca's size for stack
//             objects, else the value's size in the IR (the location's own
//             size is the register's, which differs between ISAs)
//   <where>   the value (a register, a stack slot, or Direct for an alloca)
//
// Plain C so the runtime and stack transformer can include it.
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_CALLSITERECORD_H
#define POPCORN_CALLSITERECORD_H

enum {
  CSR_COMPLETE = 1,   /* header: the site can be resumed after a rewrite */
  CSR_LIBC = 2,       /* header: in libc, on the way back into the program */
  CSR_VA_LIST = 4,    /* header: the function may hold a va_list here, which
                         points into its native frame: no rewrite then */
  CSR_RETURNS_TWICE = 8, /* header: a setjmp call, to which a longjmp may
                            return while the function is at another site */
  CSR_LINE_SHIFT = 8, /* header: the source line above the flags */

  CSR_KIND_SCALAR = 0,  /* an integer or floating-point value */
  CSR_KIND_POINTER = 1, /* a pointer, recorded as an integer in its home */
  CSR_KIND_ALLOCA = 2,  /* a stack object: its address, size follows */
  CSR_KIND_MASK = 0xff,
  CSR_SIZE_SHIFT = 8,
};

#endif
