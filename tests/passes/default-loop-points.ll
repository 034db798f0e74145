; Which loops get a migration point by default (no -popcorn-loop-points):
; those that call the program's leaf functions and nothing that may reach a
; point (their other calls are to libc functions that never call back).
; Such a loop would hold a request for as long as it runs, and its calls
; make a test cheap beside an iteration.  A loop with no call gets none by
; default (-fpopcorn-loop-period=auto gives it one), nor does one that calls
; only libc, nor one whose calls may reach a point.  libc's functions are
; this test's list (default-loop-points.libc): strlen never calls back,
; qsort may.
target datalayout = "e-m:e-i8:8:32-i16:16:32-i64:64-i128:128-n32:64-S128-Fn32"
target triple = "aarch64-unknown-linux-musl"

define internal i64 @leaf(i64 %x) {
  %y = mul i64 %x, 2654435761
  %z = xor i64 %y, 13
  ret i64 %z
}

declare i64 @strlen(ptr)
declare void @qsort(ptr, i64, i64, ptr)
declare void @elsewhere(i64)

; A leaf on every iteration of a counted loop: strip-mined, a point at
; each chunk's end.
; CHECK-LABEL: define i64 @calls_leaf(
; CHECK: call i64 @leaf(
; CHECK-NOT: {{@__popcorn_migration_pending|icmp eq i64 %i.next, %n}}
; CHECK: %popcorn.in.chunk = icmp
; CHECK: popcorn.chunk.next:
; CHECK-NEXT: %popcorn.pending = load volatile i32, ptr @__popcorn_migration_pending
; CHECK: call preserve_allcc void @__popcorn_migration_point()
; CHECK: }
define i64 @calls_leaf(i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %a = phi i64 [ 1, %entry ], [ %a.next, %loop ]
  %x = add i64 %a, %i
  %a.next = call i64 @leaf(i64 %x)
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret i64 %a.next
}

; A leaf and libc that never calls back, in a loop whose exit depends on
; the data: a test on the back edge.
; CHECK-LABEL: define i64 @leaf_and_strlen(
; CHECK: call i64 @strlen(
; CHECK-NOT: @__popcorn_migration_pending
; CHECK: br i1 %done, label %exit, label %[[EDGE:.*]]
; CHECK: [[EDGE]]:
; CHECK-NEXT: %popcorn.pending = load volatile i32, ptr @__popcorn_migration_pending
; CHECK: call preserve_allcc void @__popcorn_migration_point()
; CHECK: }
define i64 @leaf_and_strlen(ptr %words) {
entry:
  br label %loop
loop:
  %p = phi ptr [ %words, %entry ], [ %p.next, %loop ]
  %t = phi i64 [ 0, %entry ], [ %t.next, %loop ]
  %len = call i64 @strlen(ptr %p)
  %h = call i64 @leaf(i64 %len)
  %t.next = add i64 %t, %h
  %p.next = getelementptr i8, ptr %p, i64 %len
  %done = icmp eq i64 %len, 0
  br i1 %done, label %exit, label %loop
exit:
  ret i64 %t.next
}

; libc alone: none of the loop's own.
; CHECK-LABEL: define i64 @only_strlen(
; CHECK: call preserve_allcc void @__popcorn_migration_point()
; CHECK-NOT: @__popcorn_migration_
; CHECK: {{^}}}
define i64 @only_strlen(ptr %words) {
entry:
  br label %loop
loop:
  %p = phi ptr [ %words, %entry ], [ %p.next, %loop ]
  %t = phi i64 [ 0, %entry ], [ %t.next, %loop ]
  %len = call i64 @strlen(ptr %p)
  %t.next = add i64 %t, %len
  %p.next = getelementptr i8, ptr %p, i64 %len
  %done = icmp eq i64 %len, 0
  br i1 %done, label %exit, label %loop
exit:
  ret i64 %t.next
}

; No call: only the function's entry point.
; CHECK-LABEL: define i64 @no_calls(
; CHECK: call preserve_allcc void @__popcorn_migration_point()
; CHECK-NOT: @__popcorn_migration_
; CHECK: {{^}}}
define i64 @no_calls(ptr %a, i64 %n) {
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

; Calls that may reach a point, each in a counted loop of its own, which
; would be strip-mined if it got a point: another file's function; a libc
; function that calls back; either beside a leaf.  None of the loop's own.
; CHECK-LABEL: define void @calls_elsewhere(
; CHECK: call preserve_allcc void @__popcorn_migration_point()
; CHECK-NOT: @__popcorn_migration_
; CHECK: {{^}}}
define void @calls_elsewhere(i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  call void @elsewhere(i64 %i)
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; CHECK-LABEL: define void @calls_qsort(
; CHECK: call preserve_allcc void @__popcorn_migration_point()
; CHECK-NOT: @__popcorn_migration_
; CHECK: {{^}}}
define void @calls_qsort(ptr %base, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  call void @qsort(ptr %base, i64 %i, i64 8, ptr null)
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; CHECK-LABEL: define void @leaf_and_elsewhere(
; CHECK: call preserve_allcc void @__popcorn_migration_point()
; CHECK-NOT: @__popcorn_migration_
; CHECK: {{^}}}
define void @leaf_and_elsewhere(i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %h = call i64 @leaf(i64 %i)
  call void @elsewhere(i64 %h)
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}
