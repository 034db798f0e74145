; Label addresses become their numbers in the function, computed gotos
; switches on those numbers; a table of labels holds the same words on
; every ISA.

; CHECK: @tab = internal constant [3 x ptr] [ptr inttoptr (i64 1 to ptr), ptr inttoptr (i64 2 to ptr), ptr inttoptr (i64 3 to ptr)]
@tab = internal constant [3 x ptr] [ptr blockaddress(@run, %inc), ptr blockaddress(@run, %dbl), ptr blockaddress(@run, %end)]
; The difference of two labels folds to the difference of their numbers.
; CHECK: @offset = internal constant i64 2
@offset = internal constant i64 sub (i64 ptrtoint (ptr blockaddress(@run, %end) to i64), i64 ptrtoint (ptr blockaddress(@run, %inc) to i64))

; CHECK-LABEL: define i32 @run(
; CHECK-NOT: indirectbr
; CHECK-NOT: blockaddress
; CHECK: [[N:%.*]] = ptrtoint ptr %target to i64
; CHECK-NEXT: switch i64 [[N]], label %invalid.label [
; CHECK-NEXT: i64 1, label %inc
; CHECK-NEXT: i64 2, label %dbl
; CHECK-NEXT: i64 3, label %end
; CHECK-NEXT: ]
; CHECK: invalid.label:
; CHECK-NEXT: unreachable
define i32 @run(ptr %code) {
entry:
  br label %dispatch
inc:
  %a1 = add i32 %acc, 1
  br label %dispatch
dbl:
  %a2 = shl i32 %acc, 1
  br label %dispatch
dispatch:
  %pc = phi ptr [ %code, %entry ], [ %next, %inc ], [ %next, %dbl ]
  %acc = phi i32 [ 0, %entry ], [ %a1, %inc ], [ %a2, %dbl ]
  %op = load i8, ptr %pc
  %next = getelementptr i8, ptr %pc, i64 1
  %idx = zext i8 %op to i64
  %slot = getelementptr [3 x ptr], ptr @tab, i64 0, i64 %idx
  %target = load ptr, ptr %slot
  indirectbr ptr %target, [label %inc, label %dbl, label %end, label %inc]
end:
  ret i32 %acc
}
