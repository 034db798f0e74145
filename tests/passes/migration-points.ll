; The entry of a migratable function gets a migration point: a volatile
; load of the pending word and an unlikely preserve_all call of the slow
; path.  Returns get none; a leaf without a cycle gets no point at all.
; Annotated and runtime functions get none.
target datalayout = "e-m:e-i8:8:32-i16:16:32-i64:64-i128:128-n32:64-S128-Fn32"
target triple = "aarch64-unknown-linux-musl"

@.str = private unnamed_addr constant [18 x i8] c"popcorn_nomigrate\00", section "llvm.metadata"
@llvm.global.annotations = appending global [1 x { ptr, ptr, ptr, i32, ptr }] [{ ptr, ptr, ptr, i32, ptr } { ptr @pinned, ptr @.str, ptr null, i32 0, ptr null }], section "llvm.metadata"

; CHECK-LABEL: define i32 @two_returns(
; CHECK: entry:
; CHECK-NEXT: %x = alloca i32
; CHECK-NEXT: %popcorn.pending = load volatile i32, ptr @__popcorn_migration_pending, align 4
; CHECK-NEXT: [[P:%.*]] = icmp ne i32 %popcorn.pending, 0
; CHECK-NEXT: br i1 [[P]], label {{.*}}, !prof [[UNLIKELY:![0-9]+]]
; CHECK: call preserve_allcc void @__popcorn_migration_point()
; CHECK: call void @work()
; CHECK-NOT: __popcorn_migration
; CHECK: ret i32 1
; CHECK-NOT: __popcorn_migration
; CHECK: ret i32 2
define i32 @two_returns(i1 %c) {
entry:
  %x = alloca i32
  call void @work()
  br i1 %c, label %a, label %b
a:
  ret i32 1
b:
  ret i32 2
}

; A leaf without a cycle finishes in bounded time: no point at all.
; CHECK-LABEL: define i32 @leaf(
; CHECK-NOT: __popcorn_migration
; CHECK: ret i32
define i32 @leaf(i32 %a) {
  %b = add i32 %a, 1
  ret i32 %b
}

; A leaf with a loop may run for long: the entry point, and one its loop
; reaches every so many iterations (loop-decisions.ll); none at the return.
; CHECK-LABEL: define i32 @looping_leaf(
; CHECK: load volatile i32, ptr @__popcorn_migration_pending
; CHECK: call preserve_allcc void @__popcorn_migration_point()
; CHECK: ret i32
; CHECK: popcorn.chunk.next:
; CHECK: call preserve_allcc void @__popcorn_migration_point()
; CHECK-NOT: __popcorn_migration
define i32 @looping_leaf(i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %i.next = add i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret i32 %i.next
}

declare void @work()

; CHECK-LABEL: define void @pinned(
; CHECK-NOT: __popcorn_migration
; CHECK: ret void
define void @pinned() {
  ret void
}

; CHECK-LABEL: define void @__popcorn_helper(
; CHECK-NOT: __popcorn_migration
; CHECK: ret void
define void @__popcorn_helper() {
  ret void
}

; CHECK: declare dso_local preserve_allcc void @__popcorn_migration_point()
; CHECK: [[UNLIKELY]] = !{!"branch_weights", i32 1, i32 1048576}
