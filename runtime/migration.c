/* Migration points (compiler/plugin/InsertMigrationPoints.cpp).
 *
 * Every migratable function tests __popcorn_migration_pending at entry and
 * before returning; when it is non-zero the function calls
 * __popcorn_migration_point, whose call site has a record describing the
 * caller's frame.  The word lives in the program's shared data, at the same
 * address on every ISA. */
#include <popcorn.h>

int __popcorn_migration_pending;

void __popcorn_migration_point(void)
{
	/* Nothing requests a migration yet: the slow path is never taken. */
}
