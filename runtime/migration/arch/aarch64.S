// The migration point's slow path and the register switches, aarch64.
// Offsets into struct RegisterSet (stack-transform/RegisterSet.h): x0-x30
// at 8*n, Pc 256, Sp 264, ThreadPointer 272, Machine 280, v0-v31 at
// 288 + 16*n.

// \op (stp or ldp) of x0-x29 at 8*n from \base.
.macro gpr_pairs op, base
	\op x0, x1, [\base, #0]
	\op x2, x3, [\base, #16]
	\op x4, x5, [\base, #32]
	\op x6, x7, [\base, #48]
	\op x8, x9, [\base, #64]
	\op x10, x11, [\base, #80]
	\op x12, x13, [\base, #96]
	\op x14, x15, [\base, #112]
	\op x16, x17, [\base, #128]
	\op x18, x19, [\base, #144]
	\op x20, x21, [\base, #160]
	\op x22, x23, [\base, #176]
	\op x24, x25, [\base, #192]
	\op x26, x27, [\base, #208]
	\op x28, x29, [\base, #224]
.endm

// \op (stp or ldp) of v0-v31, whole, at 288 + 16*n from \base.
.macro vector_pairs op, base
	\op q0, q1, [\base, #288]
	\op q2, q3, [\base, #320]
	\op q4, q5, [\base, #352]
	\op q6, q7, [\base, #384]
	\op q8, q9, [\base, #416]
	\op q10, q11, [\base, #448]
	\op q12, q13, [\base, #480]
	\op q14, q15, [\base, #512]
	\op q16, q17, [\base, #544]
	\op q18, q19, [\base, #576]
	\op q20, q21, [\base, #608]
	\op q22, q23, [\base, #640]
	\op q24, q25, [\base, #672]
	\op q26, q27, [\base, #704]
	\op q28, q29, [\base, #736]
	\op q30, q31, [\base, #768]
.endm

// Every register into the RegisterSet at sp (800 bytes below the caller's
// sp), as the caller sees them at its return address, in x30.  \a and \b
// are scratch once saved.
.macro save_registers a, b
	gpr_pairs stp, sp
	str x30, [sp, #240]
	add \a, sp, #800
	stp x30, \a, [sp, #256]         // Pc: the return address; Sp: the caller's
	mrs \a, tpidr_el0
	mov \b, #183
	stp \a, \b, [sp, #272]
	vector_pairs stp, sp
.endm

// void __popcorn_migration_point(void), called with preserve_all: every
// register is the caller's (x30 holds the return address).  See x86_64.S.
	.section .text.__popcorn_migration_point,"ax",%progbits
	.p2align 4
	.globl __popcorn_migration_point
	.type __popcorn_migration_point,%function
__popcorn_migration_point:
	sub sp, sp, #800
	save_registers x0, x1
	mov x0, sp
	bl popcorn_migration_point_slow
	// The thread stays: restore while the set is still above sp (a
	// signal frame may land below it).
	vector_pairs ldp, sp
	gpr_pairs ldp, sp
	ldr x30, [sp, #240]
	add sp, sp, #800
	ret
	.size __popcorn_migration_point, .-__popcorn_migration_point

// longjmp(buf, val) branches here first: see x86_64.S.
	.section .text.__popcorn_longjmp,"ax",%progbits
	.p2align 4
	.globl __popcorn_longjmp
	.type __popcorn_longjmp,%function
__popcorn_longjmp:
	sub sp, sp, #800
	save_registers x2, x3
	mov x2, sp
	bl popcorn_longjmp_slow
	ldp x0, x1, [sp, #0]
	ldr x30, [sp, #240]
	add sp, sp, #800
	b __longjmp_native
	.size __popcorn_longjmp, .-__popcorn_longjmp

// [[noreturn]] void popcorn_resume(const RegisterSet *): continues at
// Pc with Sp and every register of the set, as if a call returned there.
	.section .text.popcorn_resume,"ax",%progbits
	.p2align 4
	.globl popcorn_resume
	.type popcorn_resume,%function
popcorn_resume:
	mov x30, x0
	ldr x0, [x30, #264]
	mov sp, x0
	vector_pairs ldp, x30
	gpr_pairs ldp, x30
	ldr x30, [x30, #256]            // the return address, as a call leaves it
	ret
	.size popcorn_resume, .-popcorn_resume

// void popcorn_call_on_stack(void *top, void (*fn)(void *), void *arg)
	.section .text.popcorn_call_on_stack,"ax",%progbits
	.p2align 4
	.globl popcorn_call_on_stack
	.type popcorn_call_on_stack,%function
popcorn_call_on_stack:
	stp x29, x30, [sp, #-16]!
	mov x29, sp
	mov sp, x0
	mov x0, x2
	blr x1
	mov sp, x29
	ldp x29, x30, [sp], #16
	ret
	.size popcorn_call_on_stack, .-popcorn_call_on_stack

// int popcorn_migrate(int node): see x86_64.S.
	.section .text.popcorn_migrate,"ax",%progbits
	.p2align 4
	.globl popcorn_migrate
	.type popcorn_migrate,%function
popcorn_migrate:
	stp x29, x30, [sp, #-16]!
	bl popcorn_request_migration
	ldp x29, x30, [sp], #16
	b __popcorn_migration_point
	.size popcorn_migrate, .-popcorn_migrate

// The restorer of the runtime's own signal handlers: rt_sigreturn.
	.section .text.popcorn_signal_return,"ax",%progbits
	.p2align 4
	.globl popcorn_signal_return
	.type popcorn_signal_return,%function
popcorn_signal_return:
	mov x8, #139
	svc #0
	.size popcorn_signal_return, .-popcorn_signal_return

	.section .note.GNU-stack,"",@progbits
