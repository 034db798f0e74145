// The migration point's slow path and the register switches, aarch64.
// Offsets into struct RegisterSet (stack-transform/RegisterSet.h): x0-x30
// at 8*n, Pc 256, Sp 264, ThreadPointer 272, Machine 280, v0-v31 at
// 288 + 16*n.

// void __popcorn_migration_point(void), called with preserve_all: every
// register is the caller's (x30 holds the return address).  See x86_64.S.
	.section .text.__popcorn_migration_point,"ax",%progbits
	.p2align 4
	.globl __popcorn_migration_point
	.type __popcorn_migration_point,%function
__popcorn_migration_point:
	sub sp, sp, #800
	stp x0, x1, [sp, #0]
	stp x2, x3, [sp, #16]
	stp x4, x5, [sp, #32]
	stp x6, x7, [sp, #48]
	stp x8, x9, [sp, #64]
	stp x10, x11, [sp, #80]
	stp x12, x13, [sp, #96]
	stp x14, x15, [sp, #112]
	stp x16, x17, [sp, #128]
	stp x18, x19, [sp, #144]
	stp x20, x21, [sp, #160]
	stp x22, x23, [sp, #176]
	stp x24, x25, [sp, #192]
	stp x26, x27, [sp, #208]
	stp x28, x29, [sp, #224]
	str x30, [sp, #240]
	add x0, sp, #800
	stp x30, x0, [sp, #256]         // Pc: the return address; Sp: the caller's
	mrs x0, tpidr_el0
	mov x1, #183
	stp x0, x1, [sp, #272]
	add x0, sp, #288
	stp q0, q1, [x0, #0]
	stp q2, q3, [x0, #32]
	stp q4, q5, [x0, #64]
	stp q6, q7, [x0, #96]
	stp q8, q9, [x0, #128]
	stp q10, q11, [x0, #160]
	stp q12, q13, [x0, #192]
	stp q14, q15, [x0, #224]
	stp q16, q17, [x0, #256]
	stp q18, q19, [x0, #288]
	stp q20, q21, [x0, #320]
	stp q22, q23, [x0, #352]
	stp q24, q25, [x0, #384]
	stp q26, q27, [x0, #416]
	stp q28, q29, [x0, #448]
	stp q30, q31, [x0, #480]
	mov x0, sp
	bl popcorn_migration_point_slow
	// The thread stays: restore while the set is still above sp (a
	// signal frame may land below it).
	add x0, sp, #288
	ldp q0, q1, [x0, #0]
	ldp q2, q3, [x0, #32]
	ldp q4, q5, [x0, #64]
	ldp q6, q7, [x0, #96]
	ldp q8, q9, [x0, #128]
	ldp q10, q11, [x0, #160]
	ldp q12, q13, [x0, #192]
	ldp q14, q15, [x0, #224]
	ldp q16, q17, [x0, #256]
	ldp q18, q19, [x0, #288]
	ldp q20, q21, [x0, #320]
	ldp q22, q23, [x0, #352]
	ldp q24, q25, [x0, #384]
	ldp q26, q27, [x0, #416]
	ldp q28, q29, [x0, #448]
	ldp q30, q31, [x0, #480]
	ldp x0, x1, [sp, #0]
	ldp x2, x3, [sp, #16]
	ldp x4, x5, [sp, #32]
	ldp x6, x7, [sp, #48]
	ldp x8, x9, [sp, #64]
	ldp x10, x11, [sp, #80]
	ldp x12, x13, [sp, #96]
	ldp x14, x15, [sp, #112]
	ldp x16, x17, [sp, #128]
	ldp x18, x19, [sp, #144]
	ldp x20, x21, [sp, #160]
	ldp x22, x23, [sp, #176]
	ldp x24, x25, [sp, #192]
	ldp x26, x27, [sp, #208]
	ldp x28, x29, [sp, #224]
	ldr x30, [sp, #240]
	add sp, sp, #800
	ret
	.size __popcorn_migration_point, .-__popcorn_migration_point

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
	add x0, x30, #288
	ldp q0, q1, [x0, #0]
	ldp q2, q3, [x0, #32]
	ldp q4, q5, [x0, #64]
	ldp q6, q7, [x0, #96]
	ldp q8, q9, [x0, #128]
	ldp q10, q11, [x0, #160]
	ldp q12, q13, [x0, #192]
	ldp q14, q15, [x0, #224]
	ldp q16, q17, [x0, #256]
	ldp q18, q19, [x0, #288]
	ldp q20, q21, [x0, #320]
	ldp q22, q23, [x0, #352]
	ldp q24, q25, [x0, #384]
	ldp q26, q27, [x0, #416]
	ldp q28, q29, [x0, #448]
	ldp q30, q31, [x0, #480]
	ldp x0, x1, [x30, #0]
	ldp x2, x3, [x30, #16]
	ldp x4, x5, [x30, #32]
	ldp x6, x7, [x30, #48]
	ldp x8, x9, [x30, #64]
	ldp x10, x11, [x30, #80]
	ldp x12, x13, [x30, #96]
	ldp x14, x15, [x30, #112]
	ldp x16, x17, [x30, #128]
	ldp x18, x19, [x30, #144]
	ldp x20, x21, [x30, #160]
	ldp x22, x23, [x30, #176]
	ldp x24, x25, [x30, #192]
	ldp x26, x27, [x30, #208]
	ldp x28, x29, [x30, #224]
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

	.section .note.GNU-stack,"",@progbits
