; With -popcorn-loop-period=64 each back edge counts down from 64 and runs a
; migration point when the count reaches zero, then starts again.
target datalayout = "e-m:e-i8:8:32-i16:16:32-i64:64-i128:128-n32:64-S128-Fn32"
target triple = "aarch64-unknown-linux-musl"

; CHECK-LABEL: define i64 @sum(
; CHECK: loop:
; CHECK-NEXT: %[[COUNT:popcorn.countdown[.0-9]*]] = phi i32 [ 64, %{{[0-9]+}} ], [ %[[RESET:popcorn.countdown[.0-9]*]], %[[JOIN:[0-9]+]] ]
; CHECK: %popcorn.countdown.next = sub i32 %[[COUNT]], 1
; CHECK-NEXT: [[DUE:%.*]] = icmp eq i32 %popcorn.countdown.next, 0
; CHECK-NEXT: br i1 [[DUE]], label %[[TEST:.*]], label %[[JOIN]], !prof
; CHECK: [[TEST]]:
; CHECK-NEXT: %popcorn.pending = load volatile i32, ptr @__popcorn_migration_pending
; CHECK: call preserve_allcc void @__popcorn_migration_point()
; CHECK: [[JOIN]]:
; CHECK-NEXT: %[[RESET]] = phi i32 [ 64, %{{[0-9]+}} ], [ %popcorn.countdown.next, %loop ]
; CHECK-NEXT: br i1 %done, label %exit, label %loop
define i64 @sum(ptr %a, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi i64 [ 0, %entry ], [ %s.next, %loop ]
  %p = getelementptr i64, ptr %a, i64 %i
  %v = load i64, ptr %p
  %s.next = add i64 %s, %v
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret i64 %s.next
}

; Nested loops share one countdown per invocation: the inner loop's back edge
; counts down what the outer loop carries, so a short inner loop restarted
; by the outer one still reaches a test every 64 back edges.
; CHECK-LABEL: define i64 @nested(
; CHECK: outer:
; CHECK-NEXT: %[[OUTER:popcorn.countdown[.0-9]*]] = phi i32 [ 64, %{{[0-9]+}} ], [ %[[AFTER_OUTER:popcorn.countdown[.0-9]*]], %{{[0-9]+}} ]
; CHECK: inner:
; CHECK-NEXT: %[[INNER:popcorn.countdown[.0-9]*]] = phi i32 [ %[[OUTER]], %outer ], [ %{{popcorn.countdown[.0-9]*}}, %{{[0-9]+}} ]
; CHECK: sub i32 %[[INNER]], 1
define i64 @nested(i64 %n) {
entry:
  br label %outer
outer:
  %i = phi i64 [ 0, %entry ], [ %i.next, %outer.latch ]
  %s = phi i64 [ 0, %entry ], [ %s.inner, %outer.latch ]
  br label %inner
inner:
  %j = phi i64 [ 0, %outer ], [ %j.next, %inner ]
  %t = phi i64 [ %s, %outer ], [ %s.inner, %inner ]
  %s.inner = add i64 %t, %j
  %j.next = add i64 %j, 1
  %inner.done = icmp eq i64 %j.next, 10
  br i1 %inner.done, label %outer.latch, label %inner
outer.latch:
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %outer
exit:
  ret i64 %s.inner
}
