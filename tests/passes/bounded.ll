; Bounded functions (no cycle; calls only to bounded functions, directly or
; through a constant table of them) get no migration point, and calls to
; them get no record.  Recursion, a loop, a weak definition, a declaration
; or a table that may change make a function unbounded.
target datalayout = "e-m:e-i8:8:32-i16:16:32-i64:64-i128:128-n32:64-S128-Fn32"
target triple = "aarch64-unknown-linux-musl"

@handlers = internal constant [2 x ptr] [ptr @leaf, ptr @calls_leaf]
@mutable_handlers = internal global [2 x ptr] [ptr @leaf, ptr @calls_leaf]

; CHECK-LABEL: define internal i64 @leaf(
; CHECK-NOT: __popcorn_migration
; CHECK: ret i64
define internal i64 @leaf(i64 %a) {
  %b = add i64 %a, 1
  ret i64 %b
}

; CHECK-LABEL: define internal i64 @calls_leaf(
; CHECK-NOT: __popcorn_migration
; CHECK-NOT: "deopt"
; CHECK: ret i64
define internal i64 @calls_leaf(i64 %a) {
  %b = call i64 @leaf(i64 %a)
  %c = call i64 @leaf(i64 %b)
  ret i64 %c
}

; CHECK-LABEL: define i64 @recursive(
; CHECK: call preserve_allcc void @__popcorn_migration_point()
; CHECK: call i64 @recursive(i64 %b) {{.*}}[ "deopt"(
define i64 @recursive(i64 %a) {
  %b = sub i64 %a, 1
  %c = call i64 @recursive(i64 %b)
  ret i64 %c
}

; CHECK-LABEL: define weak i64 @weak_leaf(
define weak i64 @weak_leaf(i64 %a) {
  ret i64 %a
}

; A caller that is not bounded (it calls @work): only the calls that may
; reach a point have records.
; CHECK-LABEL: define i64 @caller(
; CHECK: call preserve_allcc void @__popcorn_migration_point()
; CHECK: call void @work() {{.*}}[ "deopt"(
; CHECK: %y = call i64 @calls_leaf(i64 %x{{[.a-z0-9]*}}){{$}}
; CHECK: call i64 @weak_leaf(i64 %y) {{.*}}[ "deopt"(
; CHECK: call i64 %through.constant(i64 %z){{$}}
; CHECK: call i64 %through.mutable(i64 %u) {{.*}}[ "deopt"(
; CHECK: ret i64
define i64 @caller(i64 %x, i64 %i) {
  call void @work()
  %y = call i64 @calls_leaf(i64 %x)
  %z = call i64 @weak_leaf(i64 %y)
  %slot = getelementptr [2 x ptr], ptr @handlers, i64 0, i64 %i
  %through.constant = load ptr, ptr %slot
  %u = call i64 %through.constant(i64 %z)
  %mslot = getelementptr [2 x ptr], ptr @mutable_handlers, i64 0, i64 %i
  %through.mutable = load ptr, ptr %mslot
  %v = call i64 %through.mutable(i64 %u)
  %w = add i64 %v, %x
  ret i64 %w
}

declare void @work()
