; qsort, qsort_r and bsearch with a bounded comparator call libc's plain
; copies (no records in them); with a comparator that may reach a
; migration point, or an unknown one, libc's recorded functions.
target datalayout = "e-m:e-i8:8:32-i16:16:32-i64:64-i128:128-n32:64-S128-Fn32"
target triple = "aarch64-unknown-linux-musl"

define internal i32 @leaf_cmp(ptr %a, ptr %b) {
  %x = load i32, ptr %a
  %y = load i32, ptr %b
  %d = sub i32 %x, %y
  ret i32 %d
}

define internal i32 @moving_cmp(ptr %a, ptr %b) {
  call void @work()
  ret i32 0
}

define internal i32 @leaf_cmp_r(ptr %a, ptr %b, ptr %arg) {
  ret i32 0
}

; CHECK-LABEL: define void @sorts(
; CHECK: call void @__popcorn_plain_qsort(ptr %v, i64 %n, i64 4, ptr @leaf_cmp)
; CHECK: call void @qsort(ptr %v, i64 %n, i64 4, ptr @moving_cmp)
; CHECK: call void @qsort(ptr %v, i64 %n, i64 4, ptr %unknown)
; CHECK: call void @__popcorn_plain_qsort_r(ptr %v, i64 %n, i64 4, ptr @leaf_cmp_r, ptr null)
; CHECK: call ptr @__popcorn_plain_bsearch(ptr %key, ptr %v, i64 %n, i64 4, ptr @leaf_cmp)
; CHECK: call ptr @bsearch(ptr %key, ptr %v, i64 %n, i64 4, ptr @moving_cmp)
define void @sorts(ptr %v, i64 %n, ptr %unknown, ptr %key) {
  call void @qsort(ptr %v, i64 %n, i64 4, ptr @leaf_cmp)
  call void @qsort(ptr %v, i64 %n, i64 4, ptr @moving_cmp)
  call void @qsort(ptr %v, i64 %n, i64 4, ptr %unknown)
  call void @qsort_r(ptr %v, i64 %n, i64 4, ptr @leaf_cmp_r, ptr null)
  %h = call ptr @bsearch(ptr %key, ptr %v, i64 %n, i64 4, ptr @leaf_cmp)
  %m = call ptr @bsearch(ptr %key, ptr %v, i64 %n, i64 4, ptr @moving_cmp)
  ret void
}

declare void @qsort(ptr, i64, i64, ptr)
declare void @qsort_r(ptr, i64, i64, ptr, ptr)
declare ptr @bsearch(ptr, ptr, i64, i64, ptr)
declare void @work()
