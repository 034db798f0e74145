/* popcorn's <stdarg.h>: comes before musl's on the include path.
 *
 * The front end targets aarch64 for every ISA, and clang expands va_arg in
 * the front end with aarch64-only code.  So va_arg calls a runtime helper,
 * compiled natively for each ISA, that reads that ISA's va_list.  va_start,
 * va_end and va_copy stay builtins: each back end lowers them for its ISA.
 * va_list is the aarch64 type, which is at least as large as any ISA's. */
#ifndef _POPCORN_STDARG_H
#define _POPCORN_STDARG_H

typedef __builtin_va_list va_list;
typedef __builtin_va_list __gnuc_va_list;
#define __GNUC_VA_LIST 1

#if defined(__STDC_VERSION__) && __STDC_VERSION__ > 201710L
#define va_start(ap, ...) __builtin_va_start(ap, 0)
#else
#define va_start(ap, last) __builtin_va_start(ap, last)
#endif
#define va_end(ap) __builtin_va_end(ap)
#define va_copy(dst, src) __builtin_va_copy(dst, src)
#define __va_copy(dst, src) __builtin_va_copy(dst, src)

/* How the ISAs pass a variadic argument depends on its class and size. */
#define __POPCORN_VA_INTEGER 0
#define __POPCORN_VA_FLOAT 1

/* C names in C++ too: the helper is C, and the compiler looks for the
 * marker by name. */
#ifdef __cplusplus
extern "C" {
#endif
void __popcorn_va_arg(void *__ap, int __class, unsigned long __size, void *__out);
/* Never defined: popcorn's compiler rejects any call to it, naming the
 * source line and function. */
void __popcorn_va_arg_aggregate(void);
#ifdef __cplusplus
}
#endif

/* __builtin_classify_type: 8 real floating, 9 complex, 12 struct, 13 union. */
#define __popcorn_va_type_class(T) __builtin_classify_type(*(T *)0)

#define va_arg(ap, T) (__extension__({                                          \
	T __popcorn_va_value;                                                   \
	if (__popcorn_va_type_class(T) == 9 || __popcorn_va_type_class(T) == 12 \
	    || __popcorn_va_type_class(T) == 13)                                \
		__popcorn_va_arg_aggregate();                                   \
	__popcorn_va_arg(&(ap),                                                 \
	                 __popcorn_va_type_class(T) == 8 ? __POPCORN_VA_FLOAT   \
	                                                 : __POPCORN_VA_INTEGER,\
	                 sizeof(T), &__popcorn_va_value);                       \
	__popcorn_va_value;                                                     \
}))

#endif
