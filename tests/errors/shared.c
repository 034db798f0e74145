/* Shared libraries do not exist for multi-ISA programs. */
// ARGS: -shared -fPIC
// EXPECT: -shared
// EXPECT: shared libraries are not supported

int exported(int x)
{
	return x + 1;
}
