/* Migration points (compiler/plugin/InsertMigrationPoints.cpp).
 *
 * Every migratable function tests __popcorn_migration_pending at entry and
 * before returning; when it is non-zero the function calls
 * __popcorn_migration_point, whose call site has a record describing the
 * caller's frame.  The word lives in the program's shared data, at the same
 * address on every ISA.
 *
 * With POPCORN_CHECK_UNWIND=1 in the environment every migration point is
 * taken, and walks the whole stack with the migration metadata alone: each
 * return address must be a recorded call site and the walk must end in the
 * function at the base of the thread.  A failure aborts with a report. */
#define _GNU_SOURCE
#include <popcorn.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "unwind.h"

#if defined(__x86_64__)
#define ELF_MACHINE 62
#elif defined(__aarch64__)
#define ELF_MACHINE 183
#endif

int __popcorn_migration_pending;

/* Laid out by popcorn-ld at the same address in every ISA's image. */
extern const struct popcorn_metadata __popcorn_metadata;

static int check_unwind;
static int verbose_check;
static unsigned long walks, deepest;

/* Reports go straight to the file descriptor: libc's state is not ours to
 * use while a thread is between ISAs. */
static void say(const char *s)
{
	write(2, s, strlen(s));
}

static void say_hex(uint64_t v)
{
	char buf[19] = "0x";
	int n = 2;
	for (int shift = 60; shift >= 0; shift -= 4)
		if ((v >> shift) || n > 2 || shift == 0)
			buf[n++] = "0123456789abcdef"[(v >> shift) & 15];
	buf[n] = 0;
	say(buf);
}

static void say_dec(unsigned long v)
{
	char buf[24];
	int n = sizeof buf;
	buf[--n] = 0;
	do
		buf[--n] = '0' + v % 10;
	while (v /= 10);
	say(buf + n);
}

static _Noreturn void unwind_failed(const char *why, uint64_t pc, unsigned depth)
{
	say("popcorn: POPCORN_CHECK_UNWIND: ");
	say(why);
	say(" at return address ");
	say_hex(pc);
	say(" (frame ");
	say_dec(depth);
	say(" from the migration point)\n");
	abort();
}

static void check_stack(uint64_t pc, uint64_t sp, uint64_t fp)
{
	const struct popcorn_isa_metadata *isa = popcorn_isa_table(&__popcorn_metadata, ELF_MACHINE);
	if (!isa)
		unwind_failed("the program has no migration metadata for this ISA", pc, 0);
	struct popcorn_frame f = {pc, sp, fp};
	unsigned depth = 0;
	/* The thread's base may itself have records (libc's calls back into the
	 * program); the walk ends there either way. */
	while (!popcorn_is_thread_base(&__popcorn_metadata, isa, f.pc)) {
		const struct popcorn_call_site *site = popcorn_find_site(&__popcorn_metadata, isa, f.pc);
		if (!site)
			unwind_failed("not a recorded call site nor the thread's base", f.pc, depth);
		if (popcorn_unwind_step(&__popcorn_metadata, isa, site, &f))
			unwind_failed("a frame popcorn cannot follow", f.pc, depth);
		if (++depth > 100000)
			unwind_failed("no end to the stack", f.pc, depth);
	}
	walks++;
	if (depth > deepest)
		deepest = depth;
}

static void report_checks(void)
{
	say("popcorn: POPCORN_CHECK_UNWIND: ");
	say_dec(walks);
	say(" stack walks, deepest ");
	say_dec(deepest);
	say(" frames, all ended at the thread's base\n");
}

__attribute__((constructor)) static void read_settings(void)
{
	const char *check = getenv("POPCORN_CHECK_UNWIND");
	if (check && (!strcmp(check, "1") || !strcmp(check, "verbose"))) {
		check_unwind = 1;
		__popcorn_migration_pending = 1;
		if (!strcmp(check, "verbose")) {
			verbose_check = 1;
			atexit(report_checks);
		}
	}
}

/* preserve_all, as the compiler calls it: the caller keeps values in any
 * register across the call, so this function saves every one it uses. */
__attribute__((noinline, preserve_all)) void __popcorn_migration_point(void)
{
	if (!check_unwind)
		return;
	/* The caller's state at its return address: its stack pointer is this
	 * frame's CFA, its frame pointer the one this frame's prologue saved.
	 * On aarch64 preserve_all's register saves can sit above the frame
	 * record, where __builtin_dwarf_cfa() does not look: the stack pointer
	 * at entry is the CFA there. */
	uint64_t caller_fp = *(const uint64_t *)__builtin_frame_address(0);
#if defined(__aarch64__)
	uint64_t caller_sp = (uint64_t)__builtin_sponentry();
#else
	uint64_t caller_sp = (uint64_t)__builtin_dwarf_cfa();
#endif
	check_stack((uint64_t)__builtin_return_address(0), caller_sp, caller_fp);
}
