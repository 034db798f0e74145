/* A recursive function with many calls and many values live across each
 * (the shape of pcre2's compile_branch).  Every value crosses a recorded
 * call in a stack slot; without lifetimes for those slots each one took
 * bytes of its own for the whole function, the native frame grew to
 * several KiB and this recursion overflowed the 8 MiB stack that plain
 * clang's build stays well inside. */
#include <stdio.h>

static volatile int sink;

static __attribute__((noinline)) int step(int x)
{
	sink = x;
	return (x * 7 + 3) & 0xffff;
}

static __attribute__((noinline)) long walk(int depth, int a, int b)
{
	if (depth == 0)
		return a + b;
	int c = step(a), d = step(b), e = step(c + d), f = step(d ^ e);
	int g = step(e + f), h = step(f - g), i = step(g * 3), j = step(h + i);
	int k = step(i ^ j), l = step(j + k), m = step(k - l), n = step(l * 5);
	int o = step(m + n), p = step(n ^ o), q = step(o + p), r = step(p - q);
	int s = step(a + c + e + g), t = step(b + d + f + h), u = step(i + k + m + o);
	int v = step(j + l + n + p), w = step(q + r + s + t), x = step(u + v + w);
	long below = walk(depth - 1, step(x + a), step(w + b));
	int y = step(a + b + c + d + e + f + g + h), z = step(i + j + k + l + m + n + o + p);
	int aa = step(q + r + s + t + u + v + w + x), bb = step(y + z + aa);
	int cc = step(a - c + e - g + i), dd = step(b - d + f - h + j), ee = step(k - m + o - q + s);
	int ff = step(l - n + p - r + t), gg = step(u - w + y - aa + cc), hh = step(v - x + z - bb + dd);
	return below + a + b + c + d + e + f + g + h + i + j + k + l + m + n + o + p + q + r + s + t +
	       u + v + w + x + y + z + aa + bb + cc + dd + ee + ff + gg + hh;
}

int main(void)
{
	for (int depth = 1000; depth <= 6000; depth += 2500)
		printf("depth %d: %ld\n", depth, walk(depth, depth, 3));
	return 0;
}
// POPCORN-SELFTEST-EVERY: 997 10007
