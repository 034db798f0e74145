; popcorn-llc extends the 16-bit integer arguments of the libc functions
; that x86-64 musl, compiled by clang, may read as extended to 32 bits by
; the caller (LIBC_EXTEND in compiler/llc/LibcCallRules.def).  aarch64 IR
; asks for no extension (AAPCS64 leaves the high bits to the callee), and
; without the rule the x86-64 back end passes the caller's register as it
; is, high bits and all.  The musl of this build happens to extend again in
; the callee, so no program run shows it; this checks the calls themselves.

target datalayout = "e-m:e-i8:8:32-i16:16:32-i64:64-i128:128-n32:64-S128-Fn32"
target triple = "aarch64-unknown-linux-musl"

declare i16 @htons(i16)
declare i16 @ntohs(i16)
declare i64 @c16rtomb(ptr, i16, ptr)
declare i32 @posix_spawnattr_setflags(ptr, i16)

; CHECK-LABEL: <to_network>:
; CHECK: movzwl %di, %edi
; CHECK-NEXT: call{{.*}}
; CHECK-NEXT: R_X86_64_PLT32 htons-0x4
define i16 @to_network(i32 %x) {
  %t = trunc i32 %x to i16
  %r = call i16 @htons(i16 %t)
  ret i16 %r
}

; CHECK-LABEL: <to_host>:
; CHECK: movzwl %di, %edi
; CHECK-NEXT: call{{.*}}
; CHECK-NEXT: R_X86_64_PLT32 ntohs-0x4
define i16 @to_host(i32 %x) {
  %t = trunc i32 %x to i16
  %r = call i16 @ntohs(i16 %t)
  ret i16 %r
}

; CHECK-LABEL: <encode>:
; CHECK: movzwl %si, %esi
; CHECK-NEXT: call{{.*}}
; CHECK-NEXT: R_X86_64_PLT32 c16rtomb-0x4
define i64 @encode(ptr %s, i32 %c, ptr %st) {
  %t = trunc i32 %c to i16
  %r = call i64 @c16rtomb(ptr %s, i16 %t, ptr %st)
  ret i64 %r
}

; short: sign-extended.
; CHECK-LABEL: <set_flags>:
; CHECK: movswl %si, %esi
; CHECK-NEXT: call{{.*}}
; CHECK-NEXT: R_X86_64_PLT32 posix_spawnattr_setflags-0x4
define i32 @set_flags(ptr %a, i32 %f) {
  %t = trunc i32 %f to i16
  %r = call i32 @posix_spawnattr_setflags(ptr %a, i16 %t)
  ret i32 %r
}
