; A value read back from its slot after a call is read where its uses meet,
; not at the top of the block after the call: on the rare branch that uses
; it, with the end of the slot's lifetime; but never into a deeper loop,
; where it would be read on every iteration.
target datalayout = "e-m:e-i8:8:32-i16:16:32-i64:64-i128:128-n32:64-S128-Fn32"
target triple = "aarch64-unknown-linux-musl"

declare void @work(i64)

; CHECK-LABEL: define void @rare_use(
; CHECK: call void @work(i64 %i) {{.*}}"deopt"(
; CHECK: loop.split:
; CHECK-NOT: load i64, ptr %v.across
; CHECK: br i1 %rare, label %then, label %latch
; CHECK: then:
; CHECK-NEXT: %v.reload = load i64, ptr %v.across
; CHECK-NEXT: call void @llvm.lifetime.end.p0(i64 8, ptr %v.across)
; CHECK-NEXT: call void @work(i64 %v.reload)
define void @rare_use(i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %latch ]
  %v = mul i64 %i, 13
  call void @work(i64 %i)
  %low = and i64 %i, 7
  %rare = icmp eq i64 %low, 0
  br i1 %rare, label %then, label %latch
then:
  call void @work(i64 %v)
  br label %latch
latch:
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; %v is used in an inner loop: read once before it.  %i is used after
; the inner loop only: read there, past it.
; CHECK-LABEL: define void @used_in_inner_loop(
; CHECK: loop.split:
; CHECK-NEXT: %v.reload = load i64, ptr %v.across
; CHECK-NOT: %i.reload
; CHECK: inner:
; CHECK-NOT: = load
; CHECK: latch:
; CHECK-NEXT: %i.reload = load i64, ptr %i.across
; CHECK-NEXT: call void @llvm.lifetime.end.p0(i64 8, ptr %i.across)
define void @used_in_inner_loop(i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %latch ]
  %v = mul i64 %i, 13
  call void @work(i64 %i)
  br label %inner
inner:
  %j = phi i64 [ 0, %loop ], [ %j.next, %inner ]
  %s = add i64 %j, %v
  store volatile i64 %s, ptr null
  %j.next = add i64 %j, 1
  %jd = icmp eq i64 %j.next, 8
  br i1 %jd, label %latch, label %inner
latch:
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

