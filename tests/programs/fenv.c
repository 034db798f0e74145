/* The floating-point environment and jump buffers: rounding modes, exception
 * flags, saved environments, and sigsetjmp restoring the signal mask.  The
 * x86-64 libc keeps aarch64's encodings of all of them (fenv_t, FE_*,
 * jmp_buf), so a program sees one set of values on both ISAs. */
#include <fenv.h>
#include <setjmp.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>

static volatile double one = 1.0, three = 3.0, zero = 0.0, huge = 1e308, tiny = 1e-308;
static volatile long double lone = 1.0L, lthree = 3.0L;

static void show_flags(const char *after)
{
	printf("%-14s invalid %d divbyzero %d overflow %d underflow %d inexact %d\n", after,
	       !!fetestexcept(FE_INVALID), !!fetestexcept(FE_DIVBYZERO), !!fetestexcept(FE_OVERFLOW),
	       !!fetestexcept(FE_UNDERFLOW), !!fetestexcept(FE_INEXACT));
}

static const struct { int mode; const char *name; } modes[] = {
	{FE_TONEAREST, "to nearest"}, {FE_UPWARD, "upward"},
	{FE_DOWNWARD, "downward"}, {FE_TOWARDZERO, "toward zero"},
};

struct with_jmp_buf { char tag; jmp_buf env; int after; };

int main(void)
{
	for (unsigned i = 0; i < sizeof modes / sizeof modes[0]; i++) {
		int set = fesetround(modes[i].mode);
		printf("%-12s set %d get %d: 1/3 = %a, -1/3 = %a, 1/3L = %La\n", modes[i].name, set,
		       fegetround() == modes[i].mode, one / three, -one / three, lone / lthree);
	}
	printf("invalid mode refused: %d\n", fesetround(12345) != 0);
	fesetround(FE_TONEAREST);

	feclearexcept(FE_ALL_EXCEPT);
	show_flags("cleared");
	volatile double r = one / zero;
	show_flags("1/0");
	feclearexcept(FE_ALL_EXCEPT);
	r = huge * 10.0;
	show_flags("overflow");
	feclearexcept(FE_ALL_EXCEPT);
	r = tiny / huge;
	show_flags("underflow");
	feclearexcept(FE_ALL_EXCEPT);
	r = zero / zero;
	show_flags("0/0");
	(void)r;

	fexcept_t saved;
	fegetexceptflag(&saved, FE_ALL_EXCEPT);
	feclearexcept(FE_ALL_EXCEPT);
	feraiseexcept(FE_OVERFLOW | FE_INEXACT);
	show_flags("raised");
	fesetexceptflag(&saved, FE_ALL_EXCEPT);
	show_flags("restored");

	fenv_t env;
	fesetround(FE_UPWARD);
	feholdexcept(&env);
	printf("held: round nearest %d, flags clear %d\n", fegetround() == FE_TONEAREST,
	       fetestexcept(FE_ALL_EXCEPT) == 0);
	r = one / three;
	feupdateenv(&env);
	printf("updated: round upward %d, ", fegetround() == FE_UPWARD);
	show_flags("inexact kept");
	fesetenv(FE_DFL_ENV);
	printf("default: round nearest %d, ", fegetround() == FE_TONEAREST);
	show_flags("no flags");

	printf("sizeof fenv_t %zu fexcept_t %zu jmp_buf %zu sigjmp_buf %zu\n", sizeof(fenv_t),
	       sizeof(fexcept_t), sizeof(jmp_buf), sizeof(sigjmp_buf));
	printf("offsetof after a jmp_buf %zu\n", offsetof(struct with_jmp_buf, after));

	/* sigsetjmp(.., 1) saves the mask; siglongjmp puts it back. */
	sigjmp_buf jb;
	sigset_t set, now;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	volatile int jumps = 0;
	if (sigsetjmp(jb, 1) == 0) {
		sigprocmask(SIG_BLOCK, &set, 0);
		sigprocmask(SIG_BLOCK, 0, &now);
		printf("blocked SIGUSR1: %d\n", sigismember(&now, SIGUSR1));
		jumps++;
		siglongjmp(jb, 7);
	}
	sigprocmask(SIG_BLOCK, 0, &now);
	printf("after siglongjmp (%d jump): SIGUSR1 blocked %d\n", jumps, sigismember(&now, SIGUSR1));
	return 0;
}
