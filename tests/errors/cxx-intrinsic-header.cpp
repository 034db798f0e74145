// x86 intrinsics from C++: the header is refused as in C.
// EXPECT: <immintrin.h> is specific to one ISA
// EXPECT-LINE: 5

#include <immintrin.h>

int main() { return 0; }
