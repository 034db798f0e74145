// MIGRATE-MIN: 90
/* longjmp after 1, 2 and many moves between its setjmp and it, each move
 * to another node than the last (aarch64, another x86-64 process, home);
 * several jmp_bufs filled in one frame; a jmp_buf copied by memcpy;
 * sigsetjmp/siglongjmp, which restores the signal mask; a setjmp made away
 * and jumped to at home; setjmp frames nested deeper than the runtime's
 * table of them; and a frame that calls setjmp again and again, moving
 * between. */
#include <popcorn.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

static int moves;

/* One move, to the node after the one the last move went to. */
static void hop(void)
{
	static const int cycle[] = {1, 2, 0};
	popcorn_migrate(cycle[moves++ % 3]);
}

__attribute__((noinline)) static void hops(int n)
{
	while (n-- > 0)
		hop();
}

/* Throws to AT from N frames down, after MOVES moves. */
__attribute__((noinline)) static void throw_from(jmp_buf at, int n, int moves_first, int code)
{
	volatile int here = n;
	if (n == 0) {
		hops(moves_first);
		longjmp(at, code);
	}
	throw_from(at, n - 1, moves_first, code);
	printf("not reached %d\n", here);
}

static int after_moves(int moves_first)
{
	jmp_buf at;
	volatile int kept = moves_first * 3;
	int got = setjmp(at);
	if (!got)
		throw_from(at, 10, moves_first, moves_first + 100);
	if (kept != moves_first * 3)
		printf("a local changed: %d\n", kept);
	return got;
}

/* Two buffers filled in one frame, and a copy of the first. */
static void several_in_one_frame(void)
{
	jmp_buf a, b, copy;
	volatile int step = 0;
	if (setjmp(a)) {
		printf("back at a, step %d\n", step);
		step++;
		if (step == 1)
			throw_from(b, 3, 2, 1);
		if (step == 3)
			return;
	}
	if (step == 0 && setjmp(b)) {
		printf("back at b, step %d\n", step);
		step++;
		throw_from(copy, 3, 1, 1);
	}
	if (step == 0) {
		memcpy(copy, a, sizeof copy);
		throw_from(a, 5, 1, 1);
	}
}

static int blocked(int sig)
{
	sigset_t now;
	sigprocmask(SIG_BLOCK, NULL, &now);
	return sigismember(&now, sig);
}

__attribute__((noinline)) static void siglong_from(sigjmp_buf at, int n)
{
	if (n == 0) {
		hops(2);
		siglongjmp(at, 7);
	}
	siglong_from(at, n - 1);
}

static void signal_mask_restored(void)
{
	sigjmp_buf at;
	sigset_t usr1;
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	int got = sigsetjmp(at, 1);
	if (!got) {
		sigprocmask(SIG_BLOCK, &usr1, NULL);
		siglong_from(at, 4);
	}
	printf("siglongjmp: %d, SIGUSR1 blocked: %d\n", got, blocked(SIGUSR1));
}

/* Filled away (on aarch64 when the moves work), jumped to at home. */
static void set_away_jump_home(void)
{
	jmp_buf at;
	popcorn_migrate(1);
	int got = setjmp(at);
	if (!got) {
		popcorn_migrate(0);
		throw_from(at, 2, 0, 9);
	}
	printf("set away, jumped home: %d\n", got);
}

/* Levels of protected calls, each with its own setjmp, deeper than the
 * runtime's table (64 frames): the innermost throws, and every level
 * catches, moves and throws to the level above. */
enum { Levels = 100 };
static jmp_buf *level_at[Levels];

__attribute__((noinline)) static int level(int n)
{
	jmp_buf at;
	volatile int mine = n;
	level_at[n] = &at;
	int got = setjmp(at);
	if (!got) {
		if (n + 1 < Levels)
			level(n + 1);
		hop();
		longjmp(at, 1);
	}
	if (mine != n)
		printf("level %d: a local changed: %d\n", n, mine);
	if (n == 0)
		return got;
	hop();
	longjmp(*level_at[n - 1], got + 1);
}

/* A frame that fills one buffer again and again, moving between. */
static int again_and_again(void)
{
	jmp_buf at;
	volatile int total = 0;
	for (volatile int i = 0; i < 20; i++) {
		int got = setjmp(at);
		if (!got) {
			hop();
			throw_from(at, 1, 0, i + 1);
		}
		total += got;
	}
	return total;
}

int main(void)
{
	printf("after 1 move: %d\n", after_moves(1));
	printf("after 2 moves: %d\n", after_moves(2));
	printf("after 25 moves: %d\n", after_moves(25));
	several_in_one_frame();
	signal_mask_restored();
	set_away_jump_home();
	printf("levels: %d\n", level(0));
	printf("again and again: %d\n", again_and_again());
	popcorn_migrate(0);
	return 0;
}
