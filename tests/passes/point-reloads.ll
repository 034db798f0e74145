; Values that cross a migration point's slow path (a loop point's, in a hot
; loop) are stored before it and read back right after it, on that path
; alone, however many there are: read where they are used, they would be
; loaded on every iteration.  Six values defined before the loop are used in
; it (only four homes of values used in loops are read back after other
; calls); nothing is stored or loaded on the common path.
target datalayout = "e-m:e-i8:8:32-i16:16:32-i64:64-i128:128-n32:64-S128-Fn32"
target triple = "aarch64-unknown-linux-musl"

@__popcorn_migration_pending = external global i32

declare preserve_allcc void @__popcorn_migration_point()

; CHECK-LABEL: define i64 @six_invariants(
; CHECK: loop:
; CHECK-NOT: {{= load|store }}
; CHECK: br i1 %due, label %point, label %latch
; CHECK: point:
; CHECK-DAG: store i64 %a{{[0-9]*}}, ptr %a.across
; CHECK-DAG: store i64 %b{{[0-9]*}}, ptr %b.across
; CHECK-DAG: store i64 %c{{[0-9]*}}, ptr %c.across
; CHECK-DAG: store i64 %d{{[0-9]*}}, ptr %d.across
; CHECK-DAG: store i64 %e{{[0-9]*}}, ptr %e.across
; CHECK-DAG: store i64 %f{{[0-9]*}}, ptr %f.across
; CHECK: call preserve_allcc void @__popcorn_migration_point() {{.*}}"deopt"({{.*}}ptr %a.across, {{.*}}ptr %b.across, {{.*}}ptr %c.across, {{.*}}ptr %d.across, {{.*}}ptr %e.across, {{.*}}ptr %f.across{{[,)]}}
; CHECK-DAG: %a.reload = load i64, ptr %a.across
; CHECK-DAG: %b.reload = load i64, ptr %b.across
; CHECK-DAG: %c.reload = load i64, ptr %c.across
; CHECK-DAG: %d.reload = load i64, ptr %d.across
; CHECK-DAG: %e.reload = load i64, ptr %e.across
; CHECK-DAG: %f.reload = load i64, ptr %f.across
; CHECK: latch:
; CHECK-NOT: {{= load|store }}
; CHECK: ret i64
define i64 @six_invariants(i64 %x, i64 %n) {
entry:
  %a = mul i64 %x, 3
  %b = mul i64 %x, 5
  %c = mul i64 %x, 7
  %d = mul i64 %x, 11
  %e = mul i64 %x, 13
  %f = mul i64 %x, 17
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %latch ]
  %s = phi i64 [ 0, %entry ], [ %s6, %latch ]
  %s1 = add i64 %s, %a
  %s2 = xor i64 %s1, %b
  %s3 = add i64 %s2, %c
  %s4 = xor i64 %s3, %d
  %s5 = add i64 %s4, %e
  %s6 = xor i64 %s5, %f
  %i.next = add i64 %i, 1
  %low = and i64 %i.next, 4095
  %due = icmp eq i64 %low, 0
  br i1 %due, label %point, label %latch
point:
  call preserve_allcc void @__popcorn_migration_point()
  br label %latch
latch:
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret i64 %s6
}

; A value that crosses another call lives in a home, read where it is used.
; A point between the home's store and a read must name the home in its
; record: a rewrite there builds a new frame, and the read after it finds
; only what the record carried.
declare void @work()

; CHECK-LABEL: define i64 @home_across_point(
; CHECK: store i64 %v, ptr %v.home
; CHECK: call void @work() {{.*}}"deopt"({{.*}}ptr %v.home
; CHECK: loop:
; CHECK: call preserve_allcc void @__popcorn_migration_point() {{.*}}"deopt"({{.*}}ptr %v.home
; CHECK: exit:
; CHECK: call void @work() {{.*}}"deopt"({{.*}}ptr %v.home
; CHECK: load i64, ptr %v.home
; CHECK: {{^}}}
define i64 @home_across_point(i64 %x, i64 %n) {
entry:
  %v = mul i64 %x, 3
  call void @work()
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %latch ]
  %i.next = add i64 %i, 1
  %due = icmp eq i64 %i.next, 100
  br i1 %due, label %point, label %latch
point:
  call preserve_allcc void @__popcorn_migration_point()
  br label %latch
latch:
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  call void @work()
  %r = add i64 %v, %i.next
  ret i64 %r
}
