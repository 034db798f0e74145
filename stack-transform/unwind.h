/* Walking a thread's stack with popcorn's migration metadata alone.
 *
 * Freestanding: no libc, no allocation, so it can run in a signal handler
 * or while the thread's stack is being rewritten. */
#ifndef POPCORN_UNWIND_H
#define POPCORN_UNWIND_H

#include <popcorn/Metadata.h>

/* The part of a thread's state that locates its frames: at a return address
 * pc, the stack pointer sp and the frame pointer fp as the code there sees
 * them. */
struct popcorn_frame {
	uint64_t pc;
	uint64_t sp;
	uint64_t fp;
};

/* The table of the ISA with this ELF machine, or 0. */
const struct popcorn_isa_metadata *popcorn_isa_table(const struct popcorn_metadata *m,
                                                     uint16_t elf_machine);

/* The call site whose return address is ra, or 0. */
const struct popcorn_call_site *popcorn_find_site(const struct popcorn_metadata *m,
                                                  const struct popcorn_isa_metadata *isa,
                                                  uint64_t ra);

/* Is pc inside a function at the base of every thread's stack? */
int popcorn_is_thread_base(const struct popcorn_metadata *m,
                           const struct popcorn_isa_metadata *isa, uint64_t pc);

/* Moves f from the frame of site to its caller's.  Returns 0, or -1 if the
 * site's frame cannot be followed (a CFA rule on another register). */
int popcorn_unwind_step(const struct popcorn_metadata *m, const struct popcorn_isa_metadata *isa,
                        const struct popcorn_call_site *site, struct popcorn_frame *f);

#endif
