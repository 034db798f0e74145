; Calls that create a thread or a process, or wait for a signal, are
; preceded by a move home.

declare i32 @pthread_create(ptr, ptr, ptr, ptr)
declare i32 @fork()
declare i32 @puts(ptr)
declare i32 @sigsuspend(ptr)

; CHECK-LABEL: define i32 @spawn(
; CHECK: call i32 @popcorn_migrate(i32 0)
; CHECK-NEXT: call i32 @pthread_create(
; CHECK: call i32 @popcorn_migrate(i32 0)
; CHECK-NEXT: call i32 @fork()
; CHECK-NOT: popcorn_migrate
; CHECK: call i32 @puts(
; CHECK: call i32 @popcorn_migrate(i32 0)
; CHECK-NEXT: call i32 @sigsuspend(
define i32 @spawn(ptr %t, ptr %f) {
  %a = call i32 @pthread_create(ptr %t, ptr null, ptr %f, ptr null)
  %b = call i32 @fork()
  %c = call i32 @puts(ptr null)
  %d = call i32 @sigsuspend(ptr %t)
  %s = add i32 %a, %b
  ret i32 %s
}
