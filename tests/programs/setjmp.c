// POPCORN-MIGRATE-EVERY: 1 3
/* setjmp/longjmp within one function, from called functions back to main,
 * and nested jump buffers; sigsetjmp/siglongjmp with and without the
 * signal mask, the jump made from a deeper frame (after the thread moved,
 * the buffer is of another ISA or stack region: the runtime finds the
 * frame, and restores the mask that sigsetjmp's own return would). */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>

static jmp_buf main_env;
static int depth_reached;

static void dive(int depth, int limit)
{
	volatile unsigned char frame[128];
	frame[0] = (unsigned char)depth;
	depth_reached = depth + (frame[0] - (depth & 0xff));
	if (depth == limit)
		longjmp(main_env, depth * 10);
	dive(depth + 1, limit);
	printf("never printed\n");
}

static int local_loop(void)
{
	jmp_buf env;
	volatile int iterations = 0;
	volatile double acc = 1.0;
	int r = setjmp(env);
	acc *= 1.5;
	if (r < 5) {
		iterations++;
		longjmp(env, r + 1);
	}
	printf("local: r=%d iterations=%d acc=%.4f\n", r, iterations, acc);
	return iterations;
}

static jmp_buf *current;

static void risky(int fail)
{
	if (fail)
		longjmp(*current, fail);
}

static int try_call(int fail)
{
	jmp_buf env, *saved = current;
	int r;
	current = &env;
	if ((r = setjmp(env)) == 0) {
		risky(fail);
		current = saved;
		return 0;
	}
	current = saved;
	return r;
}

static int nested(void)
{
	jmp_buf outer, *saved = current;
	volatile int stage = 0;
	current = &outer;
	if (setjmp(outer) == 0) {
		stage = 1;
		int inner = try_call(7);  /* caught by the inner handler */
		stage = 2;
		risky(inner + 1);         /* caught here */
		stage = 99;
	}
	current = saved;
	return stage;
}

static void jump_from_below(sigjmp_buf *env, int levels, int value)
{
	if (levels == 0)
		siglongjmp(*env, value);
	jump_from_below(env, levels - 1, value);
	printf("never printed\n");
}

int main(void)
{
	volatile int attempts = 0;
	int r = setjmp(main_env);
	printf("setjmp returned %d after %d attempts\n", r, attempts);
	if (attempts < 3) {
		attempts++;
		dive(0, 100 * attempts);
	}
	printf("depth reached %d\n", depth_reached);
	printf("local loop %d\n", local_loop());
	printf("try_call(0)=%d try_call(3)=%d\n", try_call(0), try_call(3));
	printf("nested stage %d\n", nested());
	/* longjmp with 0 becomes 1 */
	jmp_buf env;
	volatile int once = 0;
	r = setjmp(env);
	if (!once) {
		once = 1;
		longjmp(env, 0);
	}
	printf("longjmp(0) gives %d\n", r);
	/* sigsetjmp without saving the mask */
	sigjmp_buf senv;
	volatile int count = 0;
	if (sigsetjmp(senv, 0) < 2) {
		count++;
		siglongjmp(senv, count);
	}
	printf("siglongjmp count %d\n", count);
	/* sigsetjmp saving the mask: the mask blocked after it is undone */
	sigset_t block, now;
	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	static sigjmp_buf mask_env;
	volatile int jumps = 0;
	r = sigsetjmp(mask_env, 1);
	sigprocmask(SIG_BLOCK, 0, &now);
	printf("sigsetjmp(1) returned %d, SIGUSR1 %s\n", r,
	       sigismember(&now, SIGUSR1) ? "blocked" : "unblocked");
	if (jumps < 3) {
		jumps++;
		sigprocmask(SIG_BLOCK, &block, 0);
		jump_from_below(&mask_env, 4, jumps);
	}
	return 0;
}
