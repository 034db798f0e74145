/* string.h, snprintf, sscanf and the strto* conversions. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void show(const char *label, const char *s)
{
	printf("%-10s [%s]\n", label, s ? s : "(null)");
}

static int sign(int x)
{
	return (x > 0) - (x < 0);
}

int main(void)
{
	char buf[128], *p;
	const char *hay = "the quick brown fox jumps over the lazy dog";

	printf("strlen %zu %zu\n", strlen(hay), strlen(""));
	printf("strcmp %d %d %d %d\n", sign(strcmp("abc", "abd")), sign(strcmp("abc", "abc")),
	       sign(strcmp("b", "abc")), sign(strcmp("\x80", "\x01")));
	printf("strncmp %d %d\n", sign(strncmp("abcdef", "abcxyz", 3)), sign(strncmp("abcdef", "abcxyz", 4)));

	memset(buf, 'X', sizeof buf);
	strncpy(buf, "short", 10);
	printf("strncpy pad: %d %d %d %c\n", buf[5], buf[9], buf[10] == 'X', buf[0]);
	strncpy(buf, "longer than four", 4);
	buf[4] = 0;
	show("strncpy4", buf);
	strcpy(buf, "con");
	strcat(buf, "cat");
	strncat(buf, "enation!!!", 7);
	show("strcat", buf);

	show("strstr", strstr(hay, "fox"));
	show("strstr-no", strstr(hay, "cat"));
	show("strstr-e", strstr(hay, ""));
	show("strchr", strchr(hay, 'q'));
	show("strrchr", strrchr(hay, 'o'));
	printf("strchr-nul %d\n", strchr(hay, '\0') == hay + strlen(hay));
	printf("strspn %zu strcspn %zu\n", strspn("aaabbbccc", "ab"), strcspn(hay, "xyz"));
	show("strpbrk", strpbrk(hay, "zyx"));

	strcpy(buf, "a,b;;c, d,,e;");
	int n = 0;
	for (p = strtok(buf, ",;"); p; p = strtok(NULL, ",;"))
		printf("tok%d [%s]\n", n++, p);

	strcpy(buf, "0123456789");
	memmove(buf + 2, buf, 5);
	show("memmove>", buf);
	strcpy(buf, "0123456789");
	memmove(buf, buf + 3, 6);
	show("memmove<", buf);
	memcpy(buf, "abc", 4);
	show("memcpy", buf);
	printf("memcmp %d %d %d\n", sign(memcmp("abc", "abd", 3)), sign(memcmp("abc", "abd", 2)),
	       sign(memcmp("\xff", "\x01", 1)));
	printf("memchr %d\n", (int)((const char *)memchr(hay, 'z', strlen(hay)) - hay));

	/* snprintf building, then sscanf parsing it back */
	n = snprintf(buf, sizeof buf, "%d %x %s %lf %c %Lf", -77, 0xabc, "word", 2.75, 'Q', 1.5L);
	printf("snprintf %d [%s]\n", n, buf);
	{
		int i = 0;
		unsigned x = 0;
		char w[16];
		double d = 0;
		char c = 0;
		long double ld = 0;
		int got = sscanf(buf, "%d %x %15s %lf %c %Lf", &i, &x, w, &d, &c, &ld);
		printf("sscanf %d: %d %u %s %.3f %c %.3Lf\n", got, i, x, w, d, c, ld);
		int a = 0, b = 0, consumed = 0;
		got = sscanf("12-34 rest", "%d-%d%n", &a, &b, &consumed);
		printf("sscanf %d: %d %d consumed %d\n", got, a, b, consumed);
		char set[16];
		got = sscanf("abc123def", "%15[a-z]", set);
		printf("sscanf set %d [%s]\n", got, set);
		got = sscanf("nothing", "%d", &a);
		printf("sscanf mismatch %d\n", got);
	}

	/* strtol family */
	const char *nums[] = {"42", "-17xyz", "0x1F", "0777", "  +9", "9223372036854775808", "zzz", "-0"};
	for (unsigned k = 0; k < sizeof nums / sizeof nums[0]; k++) {
		errno = 0;
		long v = strtol(nums[k], &p, 0);
		printf("strtol(%s) = %ld rest [%s] erange %d\n", nums[k], v, p, errno == ERANGE);
	}
	printf("strtol base 36 %ld, base 2 %ld\n", strtol("popcorn", NULL, 36), strtol("101101", NULL, 2));
	printf("strtoul %lu, strtoll %lld, strtoull %llu\n", strtoul("4000000000", NULL, 10),
	       strtoll("-9000000000000", NULL, 10), strtoull("0xffffffffffffffff", NULL, 16));
	printf("atoi %d atol %ld\n", atoi("  123abc"), atol("-99999999999"));

	const char *dbl[] = {"3.14159", "-2.5e-3", "1e308", "1e309", "0x1.8p3", "inf", "  .5x", "1e-400"};
	for (unsigned k = 0; k < sizeof dbl / sizeof dbl[0]; k++) {
		errno = 0;
		double v = strtod(dbl[k], &p);
		printf("strtod(%s) = %.17g rest [%s] erange %d\n", dbl[k], v, p, errno == ERANGE);
	}
	printf("strtof %.9g\n", (double)strtof("0.1", NULL));
	{
		long double v = strtold("3.141592653589793238462643383279502884197", &p);
		printf("strtold %.36Lg rest [%s]\n", v, p);
		v = strtold("1e4000", NULL);
		printf("strtold big %Lg\n", v);
		v = strtold("0x1.123456789abcdef0123456789abcp-16000", NULL);
		printf("strtold hex %La\n", v);
	}
	return 0;
}
