// The migration point's slow path and the register switches, x86-64.
// Each function in its own section, as the same file of the other ISA has
// it, so popcorn-ld gives it one address on every ISA.
// Offsets into struct RegisterSet (stack-transform/RegisterSet.h): Gpr[n]
// at 8*n by DWARF number (0 rax, 1 rdx, 2 rcx, 3 rbx, 4 rsi, 5 rdi, 6 rbp,
// 8-15 r8-r15), Pc 256, Sp 264, ThreadPointer 272, Machine 280, xmm0-15 at
// 288 + 16*n.

// Every register into the RegisterSet at %rsp, as the caller of the
// function that was called (or tail-jumped into) sees them at its return
// address, which is at 808(%rsp).
.macro save_registers
	mov %rax, 0(%rsp)
	mov %rdx, 8(%rsp)
	mov %rcx, 16(%rsp)
	mov %rbx, 24(%rsp)
	mov %rsi, 32(%rsp)
	mov %rdi, 40(%rsp)
	mov %rbp, 48(%rsp)
	mov %r8, 64(%rsp)
	mov %r9, 72(%rsp)
	mov %r10, 80(%rsp)
	mov %r11, 88(%rsp)
	mov %r12, 96(%rsp)
	mov %r13, 104(%rsp)
	mov %r14, 112(%rsp)
	mov %r15, 120(%rsp)
	mov 808(%rsp), %rax
	mov %rax, 256(%rsp)             // Pc: the return address
	lea 816(%rsp), %rax
	mov %rax, 264(%rsp)             // Sp: after the return
	mov %fs:0, %rax
	mov %rax, 272(%rsp)
	movq $62, 280(%rsp)
	movaps %xmm0, 288(%rsp)
	movaps %xmm1, 304(%rsp)
	movaps %xmm2, 320(%rsp)
	movaps %xmm3, 336(%rsp)
	movaps %xmm4, 352(%rsp)
	movaps %xmm5, 368(%rsp)
	movaps %xmm6, 384(%rsp)
	movaps %xmm7, 400(%rsp)
	movaps %xmm8, 416(%rsp)
	movaps %xmm9, 432(%rsp)
	movaps %xmm10, 448(%rsp)
	movaps %xmm11, 464(%rsp)
	movaps %xmm12, 480(%rsp)
	movaps %xmm13, 496(%rsp)
	movaps %xmm14, 512(%rsp)
	movaps %xmm15, 528(%rsp)
.endm

// void __popcorn_migration_point(void), called with preserve_all: every
// register but r11 is the caller's.  Saves them all in a RegisterSet on
// this stack, as they are at the call's return address, and passes it to
// popcorn_migration_point_slow, which either returns (the thread stays) or
// resumes a rewritten stack and never comes back.
	.section .text.__popcorn_migration_point,"ax",%progbits
	.p2align 4
	.globl __popcorn_migration_point
	.type __popcorn_migration_point,@function
__popcorn_migration_point:
	sub $808, %rsp                  // RegisterSet + 8: %rsp 16-aligned
	save_registers
	mov %rsp, %rdi
	call popcorn_migration_point_slow
	// The thread stays: restore while the set is still above %rsp (a
	// signal frame may land below it).
	mov %rsp, %r11
	call restore_registers
	add $808, %rsp
	ret
	.size __popcorn_migration_point, .-__popcorn_migration_point

// longjmp(buf, val) jumps here first (libc-patches): LongJump.cpp either
// resumes the frame of buf's setjmp found after a move, or returns, and
// musl's own longjmp goes on.
	.section .text.__popcorn_longjmp,"ax",%progbits
	.p2align 4
	.globl __popcorn_longjmp
	.type __popcorn_longjmp,@function
__popcorn_longjmp:
	sub $808, %rsp
	save_registers
	mov %rsp, %rdx
	call popcorn_longjmp_slow
	mov 40(%rsp), %rdi
	mov 32(%rsp), %rsi
	add $808, %rsp
	jmp __longjmp_native
	.size __popcorn_longjmp, .-__popcorn_longjmp

// [[noreturn]] void popcorn_resume(const RegisterSet *): continues at
// Pc with Sp and every register of the set, as if a call returned there.
	.section .text.popcorn_resume,"ax",%progbits
	.p2align 4
	.globl popcorn_resume
	.type popcorn_resume,@function
popcorn_resume:
	mov %rdi, %r11
	mov 264(%r11), %rsp
	push 256(%r11)                  // the return address, where a call left it
	call restore_registers
	ret                             // r11 is scratch at a preserve_all call
	.size popcorn_resume, .-popcorn_resume

// Every register but %rsp and %r11 from the set at %r11.
restore_registers:
	movaps 288(%r11), %xmm0
	movaps 304(%r11), %xmm1
	movaps 320(%r11), %xmm2
	movaps 336(%r11), %xmm3
	movaps 352(%r11), %xmm4
	movaps 368(%r11), %xmm5
	movaps 384(%r11), %xmm6
	movaps 400(%r11), %xmm7
	movaps 416(%r11), %xmm8
	movaps 432(%r11), %xmm9
	movaps 448(%r11), %xmm10
	movaps 464(%r11), %xmm11
	movaps 480(%r11), %xmm12
	movaps 496(%r11), %xmm13
	movaps 512(%r11), %xmm14
	movaps 528(%r11), %xmm15
	mov 0(%r11), %rax
	mov 8(%r11), %rdx
	mov 16(%r11), %rcx
	mov 24(%r11), %rbx
	mov 32(%r11), %rsi
	mov 40(%r11), %rdi
	mov 48(%r11), %rbp
	mov 64(%r11), %r8
	mov 72(%r11), %r9
	mov 80(%r11), %r10
	mov 96(%r11), %r12
	mov 104(%r11), %r13
	mov 112(%r11), %r14
	mov 120(%r11), %r15
	ret

// void popcorn_call_on_stack(void *top, void (*fn)(void *), void *arg):
// runs fn(arg) on the stack that ends at top (16-aligned), then returns.
	.section .text.popcorn_call_on_stack,"ax",%progbits
	.p2align 4
	.globl popcorn_call_on_stack
	.type popcorn_call_on_stack,@function
popcorn_call_on_stack:
	push %rbp
	mov %rsp, %rbp
	mov %rdi, %rsp
	mov %rdx, %rdi
	call *%rsi
	mov %rbp, %rsp
	pop %rbp
	ret
	.size popcorn_call_on_stack, .-popcorn_call_on_stack

// int popcorn_migrate(int node): records the request, then is its
// caller's migration point: the return address on the stack is the
// caller's recorded call site, and the point's slow path leaves the result
// in %rax (0 on the destination, -1 where the thread stays).
	.section .text.popcorn_migrate,"ax",%progbits
	.p2align 4
	.globl popcorn_migrate
	.type popcorn_migrate,@function
popcorn_migrate:
	sub $8, %rsp
	call popcorn_request_migration
	add $8, %rsp
	jmp __popcorn_migration_point
	.size popcorn_migrate, .-popcorn_migrate

// The restorer of the runtime's own signal handlers: rt_sigreturn.
	.section .text.popcorn_signal_return,"ax",%progbits
	.p2align 4
	.globl popcorn_signal_return
	.type popcorn_signal_return,@function
popcorn_signal_return:
	mov $15, %eax
	syscall
	.size popcorn_signal_return, .-popcorn_signal_return

	.section .note.GNU-stack,"",@progbits
