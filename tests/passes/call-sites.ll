; Calls that may reach a migration point get a deopt bundle: a header, the
; allocas with their sizes, then every value live across the call (pointers
; as integers), and a statepoint-id.  Intrinsics get none.
target datalayout = "e-m:e-i8:8:32-i16:16:32-i64:64-i128:128-n32:64-S128-Fn32"
target triple = "aarch64-unknown-linux-musl"

declare i32 @callee(i32)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)

; CHECK-LABEL: define i32 @caller(
define i32 @caller(i32 %n, ptr %p, double %d) {
entry:
  %buf = alloca [16 x i8]
; Live after the call: %n (i32), %p (ptr), %d (double); the alloca: 16 bytes.
; Kind words: alloca = 2 | 16 << 8 = 4098; ptr = 1 | 8 << 8 = 2049;
; i32 = 0 | 4 << 8 = 1024; double = 0 | 8 << 8 = 2048.
; CHECK: [[PI:%.*]] = ptrtoint ptr %p to i64
; CHECK-NEXT: %r = call i32 @callee(i32 %n) #[[ID:[0-9]+]] [ "deopt"(i64 1, i64 4098, ptr %buf, i64 1024, i32 %n, i64 2049, i64 [[PI]], i64 2048, double %d) ]
  %r = call i32 @callee(i32 %n)
; CHECK: call void @llvm.memset.p0.i64(
; CHECK-NOT: "deopt"
  call void @llvm.memset.p0.i64(ptr %buf, i8 0, i64 16, i1 false)
  %q = load i32, ptr %p
  %s = add i32 %r, %q
  %t = add i32 %s, %n
  %f = fptosi double %d to i32
  %u = add i32 %t, %f
; The last call: nothing of this function is live after it but the allocas.
; CHECK: %last = call i32 @callee(i32 %u) #[[ID2:[0-9]+]] [ "deopt"(i64 1, i64 4098, ptr %buf) ]
  %last = call i32 @callee(i32 %u)
  ret i32 %last
}

; CHECK: attributes #[[ID]] = { "statepoint-id"="{{[0-9]+}}" }
