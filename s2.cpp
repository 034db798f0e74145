#include <sys/stat.h>
#include <stddef.h>
static_assert(sizeof(nlink_t)==4,"n");static_assert(sizeof(mode_t)==4,"m");static_assert(sizeof(dev_t)==8,"d");static_assert(sizeof(ino_t)==8,"i");static_assert(offsetof(struct stat, st_rdev)==32,"r");
