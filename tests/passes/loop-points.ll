; With -popcorn-loop-period=64 each loop's back edge counts down from 64 and
; runs a migration point when the count reaches zero, then starts again.
target datalayout = "e-m:e-i8:8:32-i16:16:32-i64:64-i128:128-n32:64-S128-Fn32"
target triple = "aarch64-unknown-linux-musl"

; CHECK-LABEL: define i64 @sum(
; CHECK: loop:
; CHECK-NEXT: %popcorn.countdown = phi i32 {{.*}}[ 64, %{{[0-9]+}} ]
; CHECK: %popcorn.countdown.next = sub i32 %popcorn.countdown, 1
; CHECK-NEXT: [[DUE:%.*]] = icmp eq i32 %popcorn.countdown.next, 0
; CHECK-NEXT: br i1 [[DUE]], label %[[TEST:.*]], label %[[JOIN:.*]], !prof
; CHECK: [[TEST]]:
; CHECK-NEXT: %popcorn.pending = load volatile i32, ptr @__popcorn_migration_pending
; CHECK: call preserve_allcc void @__popcorn_migration_point()
; CHECK: [[JOIN]]:
; CHECK-NEXT: %popcorn.countdown.reset = phi i32 [ %popcorn.countdown.next, %loop ], [ 64, %{{.*}} ]
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
