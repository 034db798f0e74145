/*===- popcorn/StoredImage.h - How an executable stores other ISAs' images -*- C -*-===//
 *
 * In an executable, section ".popcorn.isa.<isa>" holds this header and then
 * compressed_size bytes: the stored image (popcorn/SharedBytes.h: the image
 * without the bytes it leaves to the host), stored_size bytes long,
 * compressed as one zlib stream (RFC 1950).  Another ISA's image is read
 * only when a node of that ISA starts, and compressed it takes about half
 * the bytes: most of what a small program's file adds to a stock one.
 *
 * In a relocatable object the section holds the stored image itself, an
 * ELF file: objects are read once, by popcorn-ld, and compressing them
 * would only slow every compile down.  Readers tell the two apart by their
 * first bytes (this magic or ELF's).
 *
 * Written by popcorn-ld; read by the linker tools (findIsaImage) and by the
 * runtime, which inflates it with a decoder of its own (plain C, fixed-width
 * fields: it uses no libc there).
 *
 *===----------------------------------------------------------------------===*/
#ifndef POPCORN_STOREDIMAGE_H
#define POPCORN_STOREDIMAGE_H

#include <stdint.h>

#define POPCORN_STORED_IMAGE_MAGIC "popzlib1" /* 8 bytes, no NUL */

struct popcorn_stored_image {
	char magic[8];
	uint64_t stored_size;     /* inflated */
	uint64_t compressed_size; /* of the zlib stream that follows */
};

#endif
