/* A function pointer carried in a struct passed by value, called after the
 * function's entry, where the struct is one value of two registers (as
 * fmt's format_arg handle: {data, format function}).  The call is recorded:
 * LLVM 19 selected the first register as its callee. */
// POPCORN-MIGRATE-EVERY: 2
#include <stdio.h>
#include <string.h>

struct handle {
	const void *value;
	void (*format)(const void *value, char *out);
};

static void format_int(const void *value, char *out)
{
	sprintf(out, "int %d", *(const int *)value);
}

static void format_text(const void *value, char *out)
{
	sprintf(out, "text '%s'", (const char *)value);
}

__attribute__((noinline)) static size_t run(struct handle h, char *out)
{
	h.format(h.value, out);
	return strlen(out);
}

int main(void)
{
	int numbers[] = {42, -7, 1000000};
	const char *words[] = {"popcorn", "", "multi-isa"};
	char buf[64];
	for (int i = 0; i < 3; i++) {
		struct handle n = {&numbers[i], format_int};
		size_t len = run(n, buf);
		printf("%s (%zu)\n", buf, len);
		struct handle w = {words[i], format_text};
		len = run(w, buf);
		printf("%s (%zu)\n", buf, len);
	}
	return 0;
}
