/*===- popcorn/SharedBytes.h - Bytes an embedded image leaves to the host -*- C -*-===//
 *
 * A multi-ISA executable is the host ISA's executable carrying every other
 * ISA's executable in section ".popcorn.isa.<isa>" (MultiIsaFile.h).  Some
 * sections are the same, byte for byte, in every ISA's executable: the
 * migration metadata describes all ISAs and sits at one address in each.
 * An embedded image does not repeat them.  Section ".popcorn.shared.<isa>"
 * lists what was taken out, as an array of these records sorted by
 * image_offset: bytes [image_offset, image_offset + size) of the image are
 * the first size bytes of the host's section host_section, and the stored
 * image goes on after them.  No such section: the image is stored whole.
 *
 * Written by popcorn-ld; read by popcorn-inspect and the linker tools
 * (findIsaImage) and by the runtime, which starts other-ISA nodes from the
 * image (plain C, fixed-width fields: it uses no libc there).
 *
 *===----------------------------------------------------------------------===*/
#ifndef POPCORN_SHAREDBYTES_H
#define POPCORN_SHAREDBYTES_H

#include <stdint.h>

#define POPCORN_SHARED_SECTION_PREFIX ".popcorn.shared."

struct popcorn_shared_bytes {
	uint64_t image_offset;
	uint64_t size;
	char host_section[48]; /* NUL-terminated */
};

#endif
