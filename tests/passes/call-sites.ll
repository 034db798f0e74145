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
; slot of its own, its home: stored once where the value is defined (here on
; entry), reloaded after the call, and the record names the homes: kind word
; alloca | size << 8 (2 | 4 << 8 = 1026, 2 | 8 << 8 = 2050).  %buf, an
; object left on the native stack (ObjectStack.cpp keeps there the small
; ones whose address stays in the function), comes first, with its 16 bytes
; (2 | 16 << 8 = 4098): every record carries it.  A home lives as long as its
; value (lifetime markers), so the back end may give the homes of values not
; live together the same bytes.
; CHECK: call void @llvm.lifetime.start.p0(i64 8, ptr %d.home)
; CHECK-NEXT: store double %d, ptr %d.home
; CHECK-NEXT: call void @llvm.lifetime.start.p0(i64 8, ptr %p.home)
; CHECK-NEXT: store ptr %p, ptr %p.home
; CHECK-NEXT: call void @llvm.lifetime.start.p0(i64 4, ptr %n.home)
; CHECK-NEXT: store i32 %n, ptr %n.home
; CHECK-NEXT: %r = call i32 @callee(i32 %n) #[[ID:[0-9]+]] [ "deopt"(i64 1, i64 4098, ptr %buf, i64 1026, ptr %n.home, i64 2050, ptr %p.home, i64 2050, ptr %d.home) ]
; The call ends its block, so instruction selection merges nothing across it.
; CHECK-NEXT: br label %[[AFTER:.*]]
; CHECK: [[AFTER]]:
; CHECK-NEXT: %n.reload = load i32, ptr %n.home
; CHECK-NEXT: %p.reload = load ptr, ptr %p.home
; CHECK-NEXT: %d.reload = load double, ptr %d.home
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
; The last call: no value of this function is live after it, and the homes'
; lifetimes end before it.  (The native object is carried all the same.)
; CHECK: call void @llvm.lifetime.end.p0(i64 4, ptr %n.home)
; CHECK-NEXT: call void @llvm.lifetime.end.p0(i64 8, ptr %p.home)
; CHECK-NEXT: call void @llvm.lifetime.end.p0(i64 8, ptr %d.home)
; CHECK-NEXT: %last = call i32 @callee(i32 %u) #[[ID2:[0-9]+]] [ "deopt"(i64 1, i64 4098, ptr %buf) ]
  %last = call i32 @callee(i32 %u)
  ret i32 %last
}

; Six integers live across a call: six homes, and every use after the call
; reads one.  Four are reloaded just after the call, to stay in registers;
; the others are read where they are used.
; CHECK-LABEL: define i64 @many_live(
; CHECK: call i32 @callee(i32 0) #{{[0-9]+}} [ "deopt"(i64 1, i64 2050, ptr %a.home, i64 2050, ptr %b.home, i64 2050, ptr %c.home, i64 2050, ptr %d.home, i64 2050, ptr %e.home, i64 2050, ptr %f.home) ]
; CHECK-NEXT: br label
; CHECK: %a.reload = load i64, ptr %a.home
; CHECK-NEXT: %b.reload = load i64, ptr %b.home
; CHECK-NEXT: %c.reload = load i64, ptr %c.home
; CHECK-NEXT: %d.reload = load i64, ptr %d.home
; CHECK-NEXT: %s1 = add i64 %a.reload, %b.reload
; CHECK: %e.reload = load i64, ptr %e.home
; CHECK-NEXT: %s4 = add i64 %s3, %e.reload
; CHECK-NEXT: %f.reload = load i64, ptr %f.home
; CHECK-NEXT: %s5 = add i64 %s4, %f.reload
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
; the loop: each has one slot, its home, written once where it is defined.
; The four used most in the loop (%a, %b, %c, %n) are reloaded after the
; call and stay in registers between calls; %k, used only after the loop, is
; read from its home there, and nowhere else.  %i and %t change in the
; loop: stored before the call.
; CHECK-LABEL: define i64 @crowded_in_loop(
; CHECK: %k = mul i64 %n, 3
; CHECK-NEXT: call void @llvm.lifetime.start.p0(i64 8, ptr %k.home)
; CHECK-NEXT: store i64 %k, ptr %k.home
; CHECK: loop:
; CHECK: %a{{[0-9]+}} = phi i64 [ %a, %entry ], [ %a{{[0-9]+}}, %next ]
; CHECK-NOT: %k
; CHECK: call:
; CHECK-NOT: store i64 %k
; CHECK-NOT: store i64 %a
; CHECK: store i64 %t, ptr %t.across
; CHECK-NEXT: call i32 @callee(i32 2) {{.*}}ptr %k.home, {{.*}}ptr %t.across) ]
; CHECK-NOT: %k
; CHECK: %a.reload = load i64, ptr %a.home
; CHECK-NOT: %k
; CHECK: next:
; CHECK: %a{{[0-9]+}} = phi i64 [ %a.reload, %call.split ], [ %a{{[0-9]+}}, %loop ]
; CHECK-NOT: %k
; CHECK: exit:
; CHECK-NEXT: call void @llvm.lifetime.end.p0(i64 8, ptr %n.home)
; CHECK-NEXT: %k.reload = load i64, ptr %k.home
; CHECK-NEXT: %r = add i64 %s.next, %k.reload
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

; More values cross the loop's call than stay in registers: the ones used
; least in loops are read from their homes where they are used, not after
; the call.  Of the five used in the inner loop, which makes no call, %x5 is
; read from its home once, before that loop.  %e5 is used only on the path
; without the call: it is read there all the same (a call of an earlier
; iteration reaches it).
; CHECK-LABEL: define i64 @read_where_used(
; CHECK: call:
; CHECK: call i32 @callee(i32 4)
; CHECK-NEXT: br label %[[SPLIT:.*]]
; CHECK: [[SPLIT]]:
; CHECK-NOT: %x5.reload
; CHECK-NOT: %e5.reload
; CHECK: br label %inner.pre
; CHECK: inner.pre:
; CHECK-NEXT: %x5.reload = load i64, ptr %x5.home
; CHECK-NEXT: br label %inner
; CHECK: inner:
; CHECK: %a5 = add i64 %a4, %x5.reload
; CHECK: skip:
; CHECK-NEXT: %e5.reload = load i64, ptr %e5.home
define i64 @read_where_used(i64 %n) {
entry:
  %x1 = add i64 %n, 1
  %x2 = add i64 %n, 2
  %x3 = add i64 %n, 3
  %x4 = add i64 %n, 4
  %x5 = add i64 %n, 5
  %e5 = mul i64 %n, 5
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %latch ]
  %s = phi i64 [ 0, %entry ], [ %s.next, %latch ]
  %odd = and i64 %i, 1
  %c = icmp eq i64 %odd, 0
  br i1 %c, label %call, label %skip
call:
  call i32 @callee(i32 4)
  br label %inner.pre
inner.pre:
  br label %inner
inner:
  %j = phi i64 [ 0, %inner.pre ], [ %j.next, %inner ]
  %acc = phi i64 [ %s, %inner.pre ], [ %a5, %inner ]
  %a1 = add i64 %acc, %x1
  %a2 = add i64 %a1, %x2
  %a3 = add i64 %a2, %x3
  %a4 = add i64 %a3, %x4
  %a5 = add i64 %a4, %x5
  %j.next = add i64 %j, 1
  %inner.done = icmp eq i64 %j.next, 8
  br i1 %inner.done, label %latch, label %inner
skip:
  %u = add i64 %s, %e5
  br label %latch
latch:
  %s.next = phi i64 [ %a5, %inner ], [ %u, %skip ]
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret i64 %s.next
}

; A value that changes in the loop crosses its calls in slots stored before
; them; across a second call with nothing changing it since the first, it
; stays in the first call's slot: no store, no second slot, and the slot
; lives as long as the function (no lifetime markers).
; CHECK-LABEL: define i64 @chained_calls(
; The reload after the first call, which nothing reads, is gone.
; CHECK: store i64 %v, ptr %v.across
; CHECK-NEXT: call i32 @callee(i32 5) {{.*}}ptr %v.across) ]
; CHECK-NEXT: br label
; CHECK-NOT: store i64 %v
; CHECK-NOT: lifetime
; CHECK-NOT: load
; CHECK: call i32 @callee(i32 6) {{.*}}ptr %v.across) ]
; CHECK: %v.reload{{[0-9]+}} = load i64, ptr %v.across
define i64 @chained_calls(i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %v = mul i64 %i, 7
  call i32 @callee(i32 5)
  call i32 @callee(i32 6)
  %w = add i64 %v, 1
  %i.next = add i64 %i, %w
  %done = icmp ugt i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret i64 %i.next
}

; A home is written where the paths to the calls it crosses meet, not where
; its value is defined: the base case returns without a store.
; CHECK-LABEL: define i64 @base_case(
; CHECK: entry:
; CHECK-NOT: store
; CHECK: br i1 %small
; CHECK: recurse:
; CHECK-NEXT: call void @llvm.lifetime.start.p0(i64 8, ptr %n.home)
; CHECK-NEXT: store i64 %n, ptr %n.home
; CHECK: call i64 @base_case(i64 %m) {{.*}}ptr %n.home) ]
define i64 @base_case(i64 %n) {
entry:
  %small = icmp ult i64 %n, 2
  br i1 %small, label %base, label %recurse
base:
  ret i64 %n
recurse:
  %m = sub i64 %n, 1
  %a = call i64 @base_case(i64 %m)
  %s = add i64 %a, %n
  ret i64 %s
}

; A home read where the value is used is written where the paths to the
; call and to the reads meet: %e is read in %join, which the path that
; skips the call also reaches, so %e's home is written on entry, not only
; before the call (a miscompilation, once: popcorn-ctl's test program read
; its argv from a home written only on the migration point's slow path).
; CHECK-LABEL: define i64 @read_beside_the_call(
; CHECK: entry:
; CHECK: store i64 %e, ptr %e.home
; CHECK: br i1 %c, label %call, label %join
; CHECK: join:
; CHECK: %e.reload = load i64, ptr %e.home
define i64 @read_beside_the_call(i64 %a, i64 %b, i64 %c4, i64 %d, i64 %e, i1 %c) {
entry:
  br i1 %c, label %call, label %join
call:
  call i32 @callee(i32 7)
  br label %join
join:
  %s1 = add i64 %a, %b
  %s2 = add i64 %s1, %c4
  %s3 = add i64 %s2, %d
  %s4 = add i64 %s3, %e
  ret i64 %s4
}

; Pointers a constant offset away from another value cross no slot of their
; own: only that value does (here it is not used after the call itself), and
; they are computed again from its reload where they are used.
; CHECK-LABEL: define i32 @derived_pointers(
; CHECK: call i32 @callee(i32 3) #{{[0-9]+}} [ "deopt"(i64 1, i64 2050, ptr %base.home) ]
; CHECK-NEXT: br label
; CHECK: %base.reload = load ptr, ptr %base.home
; CHECK: %f1.again = getelementptr i8, ptr %base.reload, i64 4
; CHECK-NEXT: %a = load i32, ptr %f1.again
; CHECK-NEXT: %f2.again = getelementptr i8, ptr %base.reload, i64 8
; CHECK-NEXT: %b = load i32, ptr %f2.again
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
; CHECK: %pair.home = alloca { i32, i32 }
; CHECK: call i32 @callee(i32 1) #{{[0-9]+}} [ "deopt"(i64 1, i64 2050, ptr %pair.home) ]
; CHECK-NEXT: br label
; CHECK: %pair.reload = load { i32, i32 }, ptr %pair.home
define i32 @aggregate_live(i32 %v) {
  %p0 = insertvalue { i32, i32 } undef, i32 %v, 0
  %pair = insertvalue { i32, i32 } %p0, i32 %v, 1
  call i32 @callee(i32 1)
  %r = extractvalue { i32, i32 } %pair, 1
  ret i32 %r
}

; A <4 x i64> is aligned to 32, more than the native stack's 16: a frame
; holding one is realigned at run time, and a rewrite could not lay it out.
; Its home is aligned to 16, and so are its store and reload.
; CHECK-LABEL: define i64 @overaligned_live(
; CHECK: %wide.home = alloca <4 x i64>, align 16
; CHECK: store <4 x i64> %wide, ptr %wide.home, align 16
; CHECK: call i32 @callee(i32 1) #{{[0-9]+}} [ "deopt"(i64 1, i64 8194, ptr %wide.home) ]
; CHECK: load <4 x i64>, ptr %wide.home, align 16
define i64 @overaligned_live(i64 %x) {
  %v = insertelement <4 x i64> zeroinitializer, i64 %x, i32 0
  %wide = shufflevector <4 x i64> %v, <4 x i64> poison, <4 x i32> zeroinitializer
  call i32 @callee(i32 1)
  %r = extractelement <4 x i64> %wide, i32 3
  ret i64 %r
}

; CHECK: attributes #[[ID]] = { "statepoint-id"="{{[0-9]+}}" }
