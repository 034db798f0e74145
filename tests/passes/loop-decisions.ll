; Which loops get a point of their own with -popcorn-loop-points
; (-fpopcorn-loop-period=auto; the default is default-loop-points.ll), and how often it is
; taken.  A counted loop is strip-mined: its exit test compares with a stop
; that cuts the run after the loop's period, and the chunk's end runs the
; point; another loop tests for a pending request on its back edge.  Nothing
; is carried from one run of a loop to the next.  A loop that calls a
; function with an entry point on every iteration, or a short loop of a
; constant trip count, gets none.  The period is about 200,000 instructions
; over an iteration's (IR) instructions.
target datalayout = "e-m:e-i8:8:32-i16:16:32-i64:64-i128:128-n32:64-S128-Fn32"
target triple = "aarch64-unknown-linux-musl"

%node = type { ptr, i64 }

; Six instructions an iteration: a point every 33,333.  A run of more
; iterations stops after 33,333, and so does each chunk after.
; CHECK-LABEL: define i64 @sum(
; CHECK: [[LEFT:%.*]] = sub i64 %n, 1
; CHECK: [[LONG:%.*]] = icmp ugt i64 [[LEFT]], 33333
; CHECK: %popcorn.cut = and i1 %{{.*}}, [[LONG]]
; CHECK: %[[FIRST_STOP:popcorn.stop[0-9]*]] = select i1 %popcorn.cut, i64 33334, i64 %n
; The chunks are a loop around the loop, whose header sets the stop: the
; loop itself compares with a value that does not change in it.
; CHECK: loop.chunk:
; CHECK-NEXT: %[[STOP:popcorn.stop[.0-9]*]] = phi i64 [ %[[FIRST_STOP]], %{{.*}} ], [ %[[NEXT_STOP:popcorn.stop[0-9]*]], %{{.*}} ]
; CHECK: loop:
; CHECK-NOT: {{popcorn.stop|@__popcorn_migration_pending}}
; CHECK-NOT: icmp eq i64 %i.next, %n
; CHECK: %popcorn.in.chunk = icmp ne i64 %i.next, %[[STOP]]
; CHECK-NEXT: br i1 %popcorn.in.chunk, label %loop, label %popcorn.chunk.end
; CHECK: popcorn.chunk.end:
; CHECK-NEXT: %done = icmp eq i64 %i.next, %n
; CHECK-NEXT: br i1 %done, label %exit, label %popcorn.chunk.next
; CHECK: popcorn.chunk.next:
; CHECK-NEXT: %popcorn.pending = load volatile i32, ptr @__popcorn_migration_pending
; CHECK: call preserve_allcc void @__popcorn_migration_point()
; CHECK: icmp ugt i64 %{{.*}}, 33333
; CHECK: %[[NEXT_STOP]] = select i1
; CHECK-NOT: 33333
; CHECK: {{^}}}
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

declare void @work()

; Not bounded: it calls a function of another file.
define void @has_entry_point() {
  call void @work()
  ret void
}

define internal i64 @leaf(i64 %x) {
  %y = mul i64 %x, 3
  ret i64 %y
}

; Every iteration reaches @has_entry_point's point: none in the loop.
; CHECK-LABEL: define void @calls_point(
; CHECK: call preserve_allcc void @__popcorn_migration_point()
; CHECK-NOT: {{popcorn|@__popcorn_migration_}}
; CHECK: {{^}}}
define void @calls_point(i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  call void @has_entry_point()
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; A leaf has no point: the loop gets one.
; CHECK-LABEL: define i64 @calls_leaf(
; CHECK: %popcorn.in.chunk = icmp ne i64 %i.next
; CHECK: ret i64
define i64 @calls_leaf(i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %x = phi i64 [ 1, %entry ], [ %y, %loop ]
  %y = call i64 @leaf(i64 %x)
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret i64 %y
}

; 16 iterations of 5 instructions: short, no point.
; CHECK-LABEL: define i64 @short(
; CHECK: call preserve_allcc void @__popcorn_migration_point()
; CHECK-NOT: {{popcorn|@__popcorn_migration_}}
; CHECK: {{^}}}
define i64 @short(ptr %a) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi i64 [ 0, %entry ], [ %s.next, %loop ]
  %p = getelementptr i64, ptr %a, i64 %i
  %v = load i64, ptr %p
  %s.next = add i64 %s, %v
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, 16
  br i1 %done, label %exit, label %loop
exit:
  ret i64 %s.next
}

; No trip count: a test on the back edge, as at a function's entry, and no
; variable kept for it.  On the edge itself, past the exit test, so that the
; test's result is not live across the point.  The body is small (6
; instructions): it is copied 4 times, each copy with its own exit, so that
; one test serves 4 iterations; the exit takes the sum from the copy that
; left.
; CHECK-LABEL: define i64 @walk(
; CHECK: loop:
; CHECK-NEXT: %p = phi ptr
; CHECK-NEXT: %s = phi i64
; CHECK-NOT: @__popcorn_migration_pending
; CHECK: %end = icmp eq ptr %next, null
; CHECK-NEXT: br i1 %end, label %exit, label %loop.1
; CHECK-NOT: @__popcorn_migration_pending
; CHECK: %end.3 = icmp eq ptr %next.3, null
; CHECK-NEXT: br i1 %end.3, label %exit, label %[[EDGE:.*]]
; CHECK: [[EDGE]]:
; CHECK-NEXT: %popcorn.pending = load volatile i32, ptr @__popcorn_migration_pending
; CHECK: call preserve_allcc void @__popcorn_migration_point()
; CHECK: br label %loop
; CHECK: exit:
; CHECK-NEXT: phi i64 [ %s.next, %loop ], [ %s.next.1, %loop.1 ], [ %s.next.2, %loop.2 ], [ %s.next.3, %loop.3 ]
; CHECK: ret i64
define i64 @walk(ptr %head) {
entry:
  br label %loop
loop:
  %p = phi ptr [ %head, %entry ], [ %next, %loop ]
  %s = phi i64 [ 0, %entry ], [ %s.next, %loop ]
  %vp = getelementptr %node, ptr %p, i64 0, i32 1
  %v = load i64, ptr %vp
  %s.next = add i64 %s, %v
  %next = load ptr, ptr %p
  %end = icmp eq ptr %next, null
  br i1 %end, label %exit, label %loop
exit:
  ret i64 %s.next
}

; The inner loop (8 iterations of 6 instructions) is short; the outer one
; gets the point, its iteration 4 + 8 * 6 = 52 instructions: every 3,846.
; CHECK-LABEL: define i64 @nest(
; CHECK: inner:
; CHECK-NOT: popcorn
; CHECK: outer.latch:
; CHECK: %popcorn.in.chunk = icmp ne i64 %i.next
; CHECK: popcorn.chunk.next:
; CHECK: icmp ugt i64 %{{.*}}, 3846
define i64 @nest(ptr %a, i64 %n) {
entry:
  br label %outer
outer:
  %i = phi i64 [ 0, %entry ], [ %i.next, %outer.latch ]
  %s = phi i64 [ 0, %entry ], [ %s.inner, %outer.latch ]
  br label %inner
inner:
  %j = phi i64 [ 0, %outer ], [ %j.next, %inner ]
  %t = phi i64 [ %s, %outer ], [ %s.inner, %inner ]
  %p = getelementptr i64, ptr %a, i64 %j
  %v = load i64, ptr %p
  %s.inner = add i64 %t, %v
  %j.next = add i64 %j, 1
  %inner.done = icmp eq i64 %j.next, 8
  br i1 %inner.done, label %outer.latch, label %inner
outer.latch:
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %outer
exit:
  ret i64 %s.inner
}

; A call with an entry point on some iterations only: a point is still
; needed, and a test on the back edge, not a chunk, whose stop would cross
; the call (a recursive function's loop, entered on every call, would also
; pay a chunk's set-up each time).
; CHECK-LABEL: define void @sometimes_calls(
; CHECK-NOT: popcorn.stop
; CHECK: latch:
; CHECK-NEXT: %i.next = add i64 %i, 1
; CHECK-NEXT: %done = icmp eq i64 %i.next, %n
; CHECK-NEXT: br i1 %done, label %exit, label %[[EDGE:.*]]
; CHECK: [[EDGE]]:
; CHECK-NEXT: %popcorn.pending{{[0-9]*}} = load volatile i32, ptr @__popcorn_migration_pending
; CHECK: call preserve_allcc void @__popcorn_migration_point()
; CHECK-NOT: popcorn.{{stop|chunk}}
; CHECK: {{^}}}
define void @sometimes_calls(i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %latch ]
  %odd = trunc i64 %i to i1
  br i1 %odd, label %call, label %latch
call:
  call void @has_entry_point()
  br label %latch
latch:
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; An inner loop of unknown length is strip-mined and restarts with a full
; chunk each time, so a run of it counts as 33,333 iterations in its
; parent's: the outer loop tests on every back edge.
; CHECK-LABEL: define i64 @nest_unknown(
; CHECK: inner:
; CHECK: %popcorn.in.chunk = icmp ne i64 %j.next
; CHECK: outer.latch:
; CHECK-NOT: {{popcorn.in.chunk|@__popcorn_migration_pending}}
; CHECK: br i1 %done, label %exit, label %[[EDGE:.*]]
; CHECK: [[EDGE]]:
; CHECK-NEXT: %popcorn.pending{{[0-9]*}} = load volatile i32, ptr @__popcorn_migration_pending
; CHECK: call preserve_allcc void @__popcorn_migration_point()
; CHECK: br label %outer
define i64 @nest_unknown(ptr %a, i64 %n, i64 %m) {
entry:
  br label %outer
outer:
  %i = phi i64 [ 0, %entry ], [ %i.next, %outer.latch ]
  %s = phi i64 [ 0, %entry ], [ %s.inner, %outer.latch ]
  br label %inner
inner:
  %j = phi i64 [ 0, %outer ], [ %j.next, %inner ]
  %t = phi i64 [ %s, %outer ], [ %s.inner, %inner ]
  %p = getelementptr i64, ptr %a, i64 %j
  %v = load i64, ptr %p
  %s.inner = add i64 %t, %v
  %j.next = add i64 %j, 1
  %inner.done = icmp eq i64 %j.next, %m
  br i1 %inner.done, label %outer.latch, label %inner
outer.latch:
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %outer
exit:
  ret i64 %s.inner
}

; A variable that steps by 2 and cannot wrap, tested with !=: the chunk's
; test is an order, which gives the inner loop a trip count; the chunk's
; end asks the original test.
; CHECK-LABEL: define i64 @step_two(
; CHECK: %popcorn.stop{{[0-9]*}} = select i1 %popcorn.cut, i64 66668, i64 %n
; CHECK: %popcorn.in.chunk = icmp ult i64 %i.next, %popcorn.stop
; CHECK: popcorn.chunk.end:
; CHECK-NEXT: %done = icmp eq i64 %i.next, %n
define i64 @step_two(ptr %a, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi i64 [ 0, %entry ], [ %s.next, %loop ]
  %p = getelementptr i64, ptr %a, i64 %i
  %v = load i64, ptr %p
  %s.next = add i64 %s, %v
  %i.next = add nuw i64 %i, 2
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret i64 %s.next
}
