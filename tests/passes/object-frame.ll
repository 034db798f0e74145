; A function's stack objects move to the thread's object stack
; (ObjectStack.cpp), and a call-site record then need not carry the frame:
; after any call the object-stack pointer is back at the frame's base, so
; the frame and the objects' addresses are computed again from it
; (RecordCallSites.cpp).  Only the values a rewrite must place get slots.
target datalayout = "e-m:e-i8:8:32-i16:16:32-i64:64-i128:128-n32:64-S128-Fn32"
target triple = "aarch64-unknown-linux-musl"

declare void @fill(ptr)
declare i32 @setjmp(ptr) returns_twice

; CHECK-LABEL: define i32 @two_objects(
; The prologue: the caller's pointer, less this frame's 32 bytes.
; CHECK: %popcorn.frame.old = load ptr, ptr %popcorn.slot{{.*}}, !popcorn.object.frame ![[ABOVE32:[0-9]+]]
; CHECK: %popcorn.frame = getelementptr i8, ptr %popcorn.frame.old, i64 -32
; Both objects are live across the first call: no slot for either.
; CHECK: call void @fill(ptr %{{.*}}) #{{[0-9]+}} [ "deopt"(i64 1) ]
; CHECK-NEXT: br label
; CHECK: %[[AGAIN:popcorn.frame.again[0-9]*]] = load ptr, ptr %{{.*}}
; CHECK-NEXT: %[[OLD:.*]] = getelementptr i8, ptr %[[AGAIN]], i64 32
; CHECK: getelementptr i8, ptr %[[OLD]], i64 -
; CHECK: call void @fill(
; CHECK: ret i32
define i32 @two_objects() {
  %a = alloca [4 x i32], align 4
  %b = alloca [4 x i32], align 4
  call void @fill(ptr %a)
  call void @fill(ptr %b)
  %x = load i32, ptr %a
  %y = load i32, ptr %b
  %s = add i32 %x, %y
  ret i32 %s
}

; A frame that grows after entry (a variable-sized object) is not back at
; its base after a call: the frame crosses calls in a slot.
; CHECK-LABEL: define i32 @variable_sized(
; CHECK-NOT: !popcorn.object.frame
; CHECK: call void @fill(ptr %{{.*}}) #{{[0-9]+}} [ "deopt"(i64 1, i64 2050, ptr %popcorn.frame{{.*}}.home
; CHECK: ret i32
define i32 @variable_sized(i64 %n) {
  %a = alloca [4 x i32], align 4
  %v = alloca i32, i64 %n, align 4
  call void @fill(ptr %v)
  call void @fill(ptr %a)
  %x = load i32, ptr %a
  ret i32 %x
}

; A longjmp returns from setjmp with the pointer wherever the frames it came
; from had it: across setjmp the frame takes a slot; across other calls not.
; CHECK-LABEL: define i32 @with_setjmp(
; CHECK: call i32 @setjmp(ptr %{{.*}}) #{{[0-9]+}} [ "deopt"(i64 9, i64 2050, ptr %popcorn.frame.old.across
; CHECK: call void @fill(ptr %{{.*}}) #{{[0-9]+}} [ "deopt"(i64 1, i64 1026, ptr %r.home) ]
define i32 @with_setjmp() {
  %buf = alloca [32 x i64], align 8
  %r = call i32 @setjmp(ptr %buf)
  call void @fill(ptr %buf)
  %x = load i32, ptr %buf
  %s = add i32 %x, %r
  ret i32 %s
}


; A small object whose address only indexes loads and stores, each next to
; its computation, stays on the native stack, without lifetime markers, and
; every record carries its bytes (2 | 64 << 8 = 16386).  One whose element
; address is held across a call moves to the object stack.
; CHECK-LABEL: define i32 @private_table(
; CHECK: %table = alloca [16 x i32]
; CHECK-NOT: llvm.lifetime.{{start|end}}.p0(i64 64
; CHECK: call void @fill(ptr null) {{.*}}[ "deopt"(i64 1, i64 16386, ptr %table
; CHECK-NOT: popcorn.frame
; CHECK: ret i32
define i32 @private_table(i32 %i) {
  %table = alloca [16 x i32]
  call void @llvm.lifetime.start.p0(i64 64, ptr %table)
  %slot = getelementptr [16 x i32], ptr %table, i32 0, i32 %i
  store i32 7, ptr %slot
  call void @fill(ptr null)
  %again = getelementptr [16 x i32], ptr %table, i32 0, i32 %i
  %v = load i32, ptr %again
  call void @llvm.lifetime.end.p0(i64 64, ptr %table)
  ret i32 %v
}

; CHECK-LABEL: define i32 @address_across_call(
; CHECK-NOT: alloca [16 x i32]
; CHECK: popcorn.frame
; CHECK: ret i32
define i32 @address_across_call(i32 %i) {
  %table = alloca [16 x i32]
  %slot = getelementptr [16 x i32], ptr %table, i32 0, i32 %i
  store i32 7, ptr %slot
  call void @fill(ptr null)
  %v = load i32, ptr %slot
  ret i32 %v
}

; An unused local whose address is only taken as an integer (how gnulib's
; stack overflow handler finds the stack's mapping) stays on the native
; stack; one whose address is passed as a pointer does not.
; CHECK-LABEL: define void @stack_marker(
; CHECK: %marker = alloca i32
; CHECK-NOT: popcorn.frame
; CHECK: ret void
define void @stack_marker() {
  %marker = alloca i32
  %address = ptrtoint ptr %marker to i64
  call void @note_address(i64 %address)
  ret void
}

; CHECK-LABEL: define void @marker_passed_as_pointer(
; CHECK-NOT: alloca i32
; CHECK: popcorn.frame
; CHECK: ret void
define void @marker_passed_as_pointer() {
  %marker = alloca i32
  %address = ptrtoint ptr %marker to i64
  call void @note_address(i64 %address)
  call void @fill(ptr %marker)
  ret void
}

; With a setjmp call too (gnulib's c-stack test marks the stack, then
; overflows it under sigsetjmp): a longjmp finds nothing to restore in it.
; CHECK-LABEL: define void @stack_marker_with_setjmp(
; CHECK: %marker = alloca i32
; CHECK: ret void
define void @stack_marker_with_setjmp() {
  %marker = alloca i32
  %address = ptrtoint ptr %marker to i64
  call void @note_address(i64 %address)
  %buf = alloca [8 x i64]
  %r = call i32 @setjmp(ptr %buf)
  ret void
}

declare void @note_address(i64)

; CHECK: ![[ABOVE32]] = !{i64 32}
