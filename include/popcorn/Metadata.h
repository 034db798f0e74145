/*===- popcorn/Metadata.h - Migration metadata of a multi-ISA program -*- C -*-===//
 *
 * The one format of the migration metadata: written by popcorn-ld after the
 * final link, read from memory by the runtime and the stack transformer
 * (which use no libc: plain C, fixed-width fields, offsets instead of
 * pointers), and printed by popcorn-inspect.
 *
 * The blob sits in section .popcorn.metadata, at the same address in every
 * ISA's image:
 *
 *   struct popcorn_metadata             header
 *   struct popcorn_isa_metadata[n_isas] one per ISA, in the toolchain's order
 *   then, per ISA, the arrays its entry points at (offsets from the header)
 *
 *===----------------------------------------------------------------------===*/
#ifndef POPCORN_METADATA_H
#define POPCORN_METADATA_H

#include <stdint.h>

#define POPCORN_METADATA_MAGIC 0x444d4350u /* "PCMD" */
#define POPCORN_METADATA_VERSION 4
#define POPCORN_METADATA_SECTION ".popcorn.metadata"

struct popcorn_metadata {
	uint32_t magic;
	uint16_t version;
	uint16_t n_isas;
	uint32_t total_size; /* of the whole blob, header included */
	uint32_t reserved;
};

struct popcorn_isa_metadata {
	uint16_t elf_machine;     /* EM_X86_64, EM_AARCH64 */
	uint16_t reserved;
	uint32_t n_sites;
	uint32_t sites;           /* struct popcorn_call_site[n_sites], by return address */
	uint32_t sites_by_id;     /* uint32_t[n_sites]: indices into sites, by id */
	uint32_t n_frames;
	uint32_t frames;          /* struct popcorn_frame[n_frames] */
	uint32_t n_values;
	uint32_t values;          /* struct popcorn_value[n_values], each
	                             description once (SQLite's 57,000 values
	                             at its call sites are 1,400 distinct ones) */
	uint32_t n_value_lists;
	uint32_t value_lists;     /* uint16_t[n_value_lists]: the sites' lists
	                             of values, as indices into values */
	uint32_t n_saved;
	uint32_t saved;           /* struct popcorn_saved_register[n_saved] */
	uint32_t n_bases;
	uint32_t bases;           /* struct popcorn_code_range[n_bases] */
};

/* A function at the base of every thread's stack (libc's caller of main, the
 * thread start routine): an unwind that reaches one is complete. */
struct popcorn_code_range {
	uint64_t start;
	uint64_t end;
};

/* Where the frame of a function starts at its call sites, and where the
 * caller's registers are: the CFA (canonical frame address, DWARF's) is
 * cfa_register + cfa_offset at the return address, saved registers are at
 * CFA-relative offsets.  One per function and layout, shared by its sites. */
struct popcorn_frame {
	uint64_t function;        /* start address of the function */
	uint32_t first_saved;     /* index into the ISA's saved registers */
	uint16_t n_saved;
	uint16_t cfa_register;    /* DWARF register number */
	int32_t cfa_offset;
	uint32_t frame_size;      /* bytes between the CFA and the stack pointer
	                             at the return address */
};

struct popcorn_call_site {
	uint64_t id;              /* the same on every ISA */
	uint64_t return_address;
	uint32_t frame;           /* index into the ISA's frames */
	uint32_t first_value;     /* index into the ISA's value_lists */
	uint16_t n_values;
	uint16_t flags;           /* POPCORN_SITE_* */
	uint32_t line;            /* source line of the call, 0 if unknown */
};

enum {
	POPCORN_SITE_COMPLETE = 1, /* every live value is recorded, and the
	                              frames agree on every ISA */
	POPCORN_SITE_LIBC = 2,     /* in libc, calling back into the program */
	POPCORN_SITE_VA_LIST = 4,  /* a va_list may be live: it points into the
	                              native frame, which a rewrite moves */
	POPCORN_SITE_RETURNS_TWICE = 8, /* a setjmp call: a rewrite of any
	                              frame of the function carries its values
	                              too, for a longjmp back to it */
};

/* A register the function saved, including the return address and the
 * frame pointer: it is at CFA + cfa_offset. */
struct popcorn_saved_register {
	uint16_t dwarf_register;
	uint16_t reserved;
	int32_t cfa_offset;
};

enum popcorn_value_location {
	POPCORN_IN_REGISTER = 1,  /* in dwarf_register */
	POPCORN_AT_ADDRESS = 2,   /* the value is dwarf_register + offset (an alloca) */
	POPCORN_IN_MEMORY = 3,    /* at [dwarf_register + offset] */
	POPCORN_CONSTANT = 4,     /* the value is offset */
};

enum popcorn_value_kind {
	POPCORN_SCALAR = 0,
	POPCORN_POINTER = 1,
	POPCORN_ALLOCA = 2,
};

struct popcorn_value {
	uint8_t location;         /* enum popcorn_value_location */
	uint8_t kind;             /* enum popcorn_value_kind */
	uint16_t dwarf_register;
	uint16_t size;            /* bytes of the value */
	uint16_t location_size;   /* bytes of its register or stack slot */
	int32_t offset;
	uint32_t alloca_size;     /* bytes of the stack object, for POPCORN_ALLOCA */
};

#endif
