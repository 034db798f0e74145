/*===- popcorn/Metadata.h - Migration metadata of a multi-ISA program -*- C -*-===//
 *
 * The one format of the migration metadata: written by popcorn-ld after the
 * final link, read from memory by the runtime and the stack transformer
 * (which use no libc: plain C, fixed-width fields, offsets instead of
 * pointers), and printed by popcorn-inspect.
 *
 * The blob:
 *
 *   struct popcorn_metadata             header
 *   struct popcorn_isa_metadata[n_isas] one per ISA, in the toolchain's order
 *   then, per ISA, the arrays its entry points at (offsets from the header)
 *
 * It is stored compressed in section .popcorn.metadata, at the same address
 * in every ISA's image (struct popcorn_packed_metadata): nothing reads it
 * before a thread first moves, and SQLite's shell's 1.67 MB take 430 KB.
 * Two things make it compress that well:
 *
 *   - site IDs are dense: popcorn-ld numbers the IDs the compiler gave (64-bit
 *     hashes, the same on every ISA) by their order among all of them, so an
 *     ID is still the same on every ISA but has mostly zero bytes;
 *   - each ISA's sites array is stored byte-shuffled: byte 0 of every site,
 *     then byte 1 of every site, ..., byte 31 of every site (columns of
 *     alike bytes: return addresses that grow, frames that repeat).  The
 *     headers and the other arrays are stored as they are.
 *
 * Readers inflate it, then undo the shuffle with popcorn_unshuffle_sites.
 *
 *===----------------------------------------------------------------------===*/
#ifndef POPCORN_METADATA_H
#define POPCORN_METADATA_H

#include <stdint.h>

#define POPCORN_METADATA_MAGIC 0x444d4350u /* "PCMD" */
#define POPCORN_METADATA_VERSION 5 /* 5: dense site IDs */
#define POPCORN_METADATA_SECTION ".popcorn.metadata"

/* What section .popcorn.metadata holds: this header, the blob (its sites
 * shuffled) as one zlib stream (RFC 1950) of compressed_size bytes that
 * inflates to inflated_size bytes, then zeros up to the section's end (the
 * layout reserves the section before the blob is final). */
#define POPCORN_PACKED_METADATA_MAGIC "popmeta1" /* 8 bytes, no NUL */

struct popcorn_packed_metadata {
	char magic[8];
	uint32_t inflated_size;
	uint32_t compressed_size;
};

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

/* The byte-shuffled sites arrays of the blob Stored (size bytes) put back
 * in order in Out, which receives the whole blob (Stored is left as it is);
 * Pack does the reverse, for the writer.  Returns 0 if the header, the ISAs'
 * entries or a sites array lie outside size bytes, or the blob is not of
 * this version.  Plain C, no libc: the runtime calls it. */
static inline int popcorn_shuffle_sites(unsigned char *Out, const unsigned char *Stored,
                                        uint32_t Size, int Pack) {
	const struct popcorn_metadata *Header = (const struct popcorn_metadata *)Stored;
	const struct popcorn_isa_metadata *Isas;
	uint32_t Isa, I, Byte;
	if (Size < sizeof *Header || Header->magic != POPCORN_METADATA_MAGIC ||
	    Header->version != POPCORN_METADATA_VERSION || Header->total_size != Size ||
	    (Size - sizeof *Header) / sizeof *Isas < Header->n_isas)
		return 0;
	Isas = (const struct popcorn_isa_metadata *)(Header + 1);
	for (Isa = 0; Isa < Header->n_isas; Isa++)
		if (Isas[Isa].sites > Size ||
		    (Size - Isas[Isa].sites) / sizeof(struct popcorn_call_site) < Isas[Isa].n_sites)
			return 0;
	for (I = 0; I < Size; I++)
		Out[I] = Stored[I];
	for (Isa = 0; Isa < Header->n_isas; Isa++) {
		const unsigned char *From = Stored + Isas[Isa].sites;
		unsigned char *To = Out + Isas[Isa].sites;
		uint32_t N = Isas[Isa].n_sites, Stride = sizeof(struct popcorn_call_site);
		for (Byte = 0; Byte < Stride; Byte++)
			for (I = 0; I < N; I++) {
				if (Pack)
					To[Byte * N + I] = From[I * Stride + Byte];
				else
					To[I * Stride + Byte] = From[Byte * N + I];
			}
	}
	return 1;
}

#endif
