; Constants lose unnamed_addr, and private ones become internal with a name
; unique to the module, so each has one address on every ISA.
target datalayout = "e-m:e-i8:8:32-i16:16:32-i64:64-i128:128-n32:64-S128-Fn32"
target triple = "aarch64-unknown-linux-musl"

; CHECK: @__popcorn_const.{{[0-9a-f]+}}.str = internal constant [6 x i8] c"hello\00"
@.str = private unnamed_addr constant [6 x i8] c"hello\00"
; CHECK: @table = internal constant [2 x i32] [i32 1, i32 2]
@table = internal local_unnamed_addr constant [2 x i32] [i32 1, i32 2]
; CHECK: @counter = internal unnamed_addr global i32 0
@counter = internal unnamed_addr global i32 0

define ptr @get() {
  ret ptr @.str
}
