; Calls that may reach a migration point get a deopt bundle: a header, then
; the stack slots through which the values live across the call cross it,
; with their sizes, and a statepoint-id.  Intrinsics get none.
target datalayout = "e-m:e-i8:8:32-i16:16:32-i64:64-i128:128-n32:64-S128-Fn32"
target triple = "aarch64-unknown-linux-musl"

declare i32 @callee(i32)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)

; CHECK-LABEL: define i32 @caller(
define i32 @caller(i32 %n, ptr %p, double %d) {
entry:
  %buf = alloca [16 x i8]
; Live after the call: %n (i32), %p (ptr), %d (double).  Each crosses it in a
; slot of its own: stored just before, reloaded just after, and the record
; names the slots: kind word alloca | size << 8 (2 | 4 << 8 = 1026,
; 2 | 8 << 8 = 2050).  %buf is not recorded: the program's stack objects
; live on the object stack (ObjectStack.cpp), the same on every ISA.  Each
; slot's lifetime is its store to its reload, so the back end may give the
; slots of different calls the same bytes.
; CHECK: call void @llvm.lifetime.start.p0(i64 4, ptr %n.across)
; CHECK-NEXT: store i32 %n, ptr %n.across
; CHECK-NEXT: call void @llvm.lifetime.start.p0(i64 8, ptr %p.across)
; CHECK-NEXT: store ptr %p, ptr %p.across
; CHECK-NEXT: call void @llvm.lifetime.start.p0(i64 8, ptr %d.across)
; CHECK-NEXT: store double %d, ptr %d.across
; CHECK-NEXT: %r = call i32 @callee(i32 %n) #[[ID:[0-9]+]] [ "deopt"(i64 1, i64 1026, ptr %n.across, i64 2050, ptr %p.across, i64 2050, ptr %d.across) ]
; The call ends its block, so instruction selection merges nothing across it.
; CHECK-NEXT: br label %[[AFTER:.*]]
; CHECK: [[AFTER]]:
; CHECK-NEXT: %n.reload = load i32, ptr %n.across
; CHECK-NEXT: call void @llvm.lifetime.end.p0(i64 4, ptr %n.across)
; CHECK-NEXT: %p.reload = load ptr, ptr %p.across
; CHECK-NEXT: call void @llvm.lifetime.end.p0(i64 8, ptr %p.across)
; CHECK-NEXT: %d.reload = load double, ptr %d.across
; CHECK-NEXT: call void @llvm.lifetime.end.p0(i64 8, ptr %d.across)
  %r = call i32 @callee(i32 %n)
; CHECK: call void @llvm.memset.p0.i64(
; CHECK-NOT: "deopt"
; CHECK: %q = load i32, ptr %p.reload
; CHECK: %t = add i32 %s, %n.reload
  call void @llvm.memset.p0.i64(ptr %buf, i8 0, i64 16, i1 false)
  %q = load i32, ptr %p
  %s = add i32 %r, %q
  %t = add i32 %s, %n
  %f = fptosi double %d to i32
  %u = add i32 %t, %f
; The last call: nothing of this function is live after it.
; CHECK: %last = call i32 @callee(i32 %u) #[[ID2:[0-9]+]] [ "deopt"(i64 1) ]
  %last = call i32 @callee(i32 %u)
  ret i32 %last
}

; Six integers live across a call: six slots, and every use after the call
; reads a reload.
; CHECK-LABEL: define i64 @many_live(
; CHECK: call i32 @callee(i32 0) #{{[0-9]+}} [ "deopt"(i64 1, i64 2050, ptr %a.across, i64 2050, ptr %b.across, i64 2050, ptr %c.across, i64 2050, ptr %d.across, i64 2050, ptr %e.across, i64 2050, ptr %f.across) ]
; CHECK: %s1 = add i64 %a.reload, %b.reload
; CHECK: %s5 = add i64 %s4, %f.reload
define i64 @many_live(i64 %x) {
  %a = add i64 %x, 1
  %b = add i64 %x, 2
  %c = add i64 %x, 3
  %d = add i64 %x, 4
  %e = add i64 %x, 5
  %f = add i64 %x, 6
  call i32 @callee(i32 0)
  %s1 = add i64 %a, %b
  %s2 = add i64 %s1, %c
  %s3 = add i64 %s2, %d
  %s4 = add i64 %s3, %e
  %s5 = add i64 %s4, %f
  %s6 = mul i64 %s5, %a
  %s7 = mul i64 %s6, %b
  %s8 = mul i64 %s7, %c
  %s9 = mul i64 %s8, %d
  ret i64 %s9
}

; In a loop whose call is taken only sometimes, the code that does not pass
; the call keeps using the value itself: the loop merges it with the reload
; of the iterations that called.  %k, %a, %b, %c and %n are defined outside
; the loop: each has one slot, written once where it is defined, and only
; reloaded in the loop.  %i and %t change in the loop: stored before the call.
; CHECK-LABEL: define i64 @crowded_in_loop(
; CHECK: %k = mul i64 %n, 3
; CHECK-NEXT: store i64 %k, ptr %k.home
; CHECK: loop:
; CHECK: %k{{[0-9]+}} = phi i64 [ %k, %entry ], [ %k{{[0-9]+}}, %next ]
; CHECK: call:
; CHECK-NOT: store i64 %k
; CHECK: store i64 %t, ptr %t.across
; CHECK-NEXT: call i32 @callee(i32 2) {{.*}}ptr %k.home, {{.*}}ptr %t.across) ]
; CHECK: %k.reload = load i64, ptr %k.home
; CHECK: next:
; CHECK: %k{{[0-9]+}} = phi i64 [ %k.reload, %call.split ], [ %k{{[0-9]+}}, %loop ]
; CHECK: exit:
; CHECK-NEXT: %r = add i64 %s.next, %k{{[0-9]+}}
define i64 @crowded_in_loop(i64 %n, i64 %a, i64 %b, i64 %c) {
entry:
  %k = mul i64 %n, 3
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %next ]
  %s = phi i64 [ 0, %entry ], [ %s.next, %next ]
  %t = add i64 %s, %a
  %odd = and i64 %i, 7
  %rare = icmp eq i64 %odd, 0
  br i1 %rare, label %call, label %next
call:
  call i32 @callee(i32 2)
  br label %next
next:
  %u = add i64 %t, %b
  %v = add i64 %u, %c
  %s.next = add i64 %v, %i
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  %r = add i64 %s.next, %k
  %r2 = add i64 %r, %a
  %r3 = add i64 %r2, %b
  %r4 = add i64 %r3, %c
  ret i64 %r4
}

; Pointers a constant offset away from another value cross no slot of their
; own: only that value does (here it is not used after the call itself), and
; they are computed again from its reload.
; CHECK-LABEL: define i32 @derived_pointers(
; CHECK: call i32 @callee(i32 3) #{{[0-9]+}} [ "deopt"(i64 1, i64 2050, ptr %base.across) ]
; CHECK-NEXT: br label
; CHECK: %base.reload = load ptr, ptr %base.across
; CHECK: %f1.again = getelementptr i8, ptr %base.reload, i64 4
; CHECK-NEXT: %f2.again = getelementptr i8, ptr %base.reload, i64 8
; CHECK: %a = load i32, ptr %f1.again
; CHECK: %b = load i32, ptr %f2.again
define i32 @derived_pointers(ptr %base) {
  %f1 = getelementptr inbounds i8, ptr %base, i64 4
  %f2 = getelementptr inbounds i8, ptr %base, i64 8
  call i32 @callee(i32 3)
  %a = load i32, ptr %f1
  %b = load i32, ptr %f2
  %s = add i32 %a, %b
  ret i32 %s
}

; A call in tail position gets no record: the back end makes it a jump, and
; no frame of this function is left to rewrite.  Not in tail position (a
; use follows), it is recorded.
; CHECK-LABEL: define i32 @tail_position(
; CHECK: %r = tail call i32 @callee(i32 %x){{$}}
; CHECK-NEXT: ret i32 %r
; CHECK-LABEL: define i32 @not_tail_position(
; CHECK: %r = tail call i32 @callee(i32 %x) #{{[0-9]+}} [ "deopt"(i64 1) ]
define i32 @tail_position(i32 %x) {
  %r = tail call i32 @callee(i32 %x)
  ret i32 %r
}
define i32 @not_tail_position(i32 %x) {
  %r = tail call i32 @callee(i32 %x)
  %s = add i32 %r, 1
  ret i32 %s
}

; A first-class aggregate has no stack-map location: it crosses the call on
; the stack and the record stays complete (header 1).
; CHECK-LABEL: define i32 @aggregate_live(
; CHECK: %pair.across = alloca { i32, i32 }
; CHECK: call i32 @callee(i32 1) #{{[0-9]+}} [ "deopt"(i64 1, i64 2050, ptr %pair.across) ]
; CHECK-NEXT: br label
; CHECK: %pair.reload = load { i32, i32 }, ptr %pair.across
define i32 @aggregate_live(i32 %v) {
  %p0 = insertvalue { i32, i32 } undef, i32 %v, 0
  %pair = insertvalue { i32, i32 } %p0, i32 %v, 1
  call i32 @callee(i32 1)
  %r = extractvalue { i32, i32 } %pair, 1
  ret i32 %r
}

; CHECK: attributes #[[ID]] = { "statepoint-id"="{{[0-9]+}}" }
