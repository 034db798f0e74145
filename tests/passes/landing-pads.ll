; A landing pad puts the object-stack pointer back where it was at its
; invoke (ObjectStack.cpp): the frames the exception left never returned to
; do it.  In a function whose frame never grows after entry that value is
; the frame's base, the same at every invoke, so the pads store the base,
; and RecordCallSites keeps it for them in one slot, written once where the
; paths to the invokes meet, outside their loops; every invoke's record
; names that slot.  Nothing is stored before each invoke, and a pad puts
; back what it reads from the slot.
target datalayout = "e-m:e-i8:8:32-i16:16:32-i64:64-i128:128-n32:64-S128-Fn32"
target triple = "aarch64-unknown-linux-musl"

declare void @use(ptr)
declare void @may_throw(i32)
declare void @cleanup()
declare i32 @__gxx_personality_v0(...)

; A loop of invokes (shapes' virtual calls) with an object whose address
; escapes: the slot is written once, before the loop.
; CHECK-LABEL: define void @invokes_in_loop(
; CHECK-NOT: popcorn.at.invoke
; CHECK: call void @llvm.lifetime.start.p0(i64 8, ptr %popcorn.frame.old.pads)
; CHECK-NEXT: store ptr %{{.*}}, ptr %popcorn.frame.old.pads
; CHECK-NEXT: br label %loop
; CHECK: loop:
; CHECK-NOT: {{store ptr|load ptr}}
; CHECK: invoke void @may_throw(i32 %i) {{.*}}[ "deopt"({{.*}}ptr %popcorn.frame.old.pads
; CHECK: mid:
; CHECK-NOT: store ptr
; CHECK: invoke void @may_throw({{.*}}[ "deopt"({{.*}}ptr %popcorn.frame.old.pads
; The pads read it back and put the pointer back at the base.
; CHECK: pad.own:
; CHECK-NEXT: landingpad
; CHECK-NOT: store
; CHECK: [[FIRST:%[^ ]+]] = load ptr, ptr %popcorn.frame.old.pads
; CHECK: pad.own7:
; CHECK-NEXT: landingpad
; CHECK-NOT: store
; CHECK: [[SECOND:%[^ ]+]] = load ptr, ptr %popcorn.frame.old.pads
; CHECK: pad:
; CHECK-NEXT: [[READ:%[^ ]+]] = phi ptr [ [[FIRST]], %pad.own ], [ [[SECOND]], %pad.own7 ]
; CHECK: [[BASE:%[^ ]+]] = getelementptr i8, ptr [[READ]], i64 -32
; CHECK-NEXT: store ptr [[BASE]], ptr %popcorn.slot
; CHECK: resume
define void @invokes_in_loop(i32 %n) personality ptr @__gxx_personality_v0 {
entry:
  %obj = alloca [4 x i64], align 8
  call void @use(ptr %obj)
  br label %loop
loop:
  %i = phi i32 [0, %entry], [%i1, %next]
  invoke void @may_throw(i32 %i) to label %mid unwind label %pad
mid:
  invoke void @may_throw(i32 %i) to label %next unwind label %pad
next:
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
pad:
  %lp = landingpad { ptr, i32 } cleanup
  call void @use(ptr %obj)
  resume { ptr, i32 } %lp
}

; Only one path invokes: only that path writes the slot.
; CHECK-LABEL: define void @invoke_on_one_path(
; CHECK: entry.split:
; CHECK-NOT: .pads
; CHECK: br i1 %rare
; CHECK: throwing:
; CHECK-NEXT: call void @llvm.lifetime.start.p0(i64 8, ptr %popcorn.frame.old.pads)
; CHECK-NEXT: store ptr %{{.*}}, ptr %popcorn.frame.old.pads
; CHECK-NEXT: invoke void @may_throw(i32 0) {{.*}}[ "deopt"({{.*}}ptr %popcorn.frame.old.pads
define void @invoke_on_one_path(i1 %rare) personality ptr @__gxx_personality_v0 {
entry:
  %obj = alloca [4 x i64], align 8
  call void @use(ptr %obj)
  br i1 %rare, label %throwing, label %done
throwing:
  invoke void @may_throw(i32 0) to label %done unwind label %pad
done:
  ret void
pad:
  %lp = landingpad { ptr, i32 } cleanup
  call void @use(ptr %obj)
  resume { ptr, i32 } %lp
}

; Without a frame the pads put back the pointer's value at entry, which is
; the value after every call too.
; CHECK-LABEL: define void @no_frame(
; CHECK: %popcorn.at.entry = load ptr, ptr %popcorn.slot{{.*}}, !popcorn.object.frame ![[ABOVE0:[0-9]+]]
; CHECK-NEXT: call void @llvm.lifetime.start.p0(i64 8, ptr %popcorn.at.entry.pads)
; CHECK-NEXT: store ptr %popcorn.at.entry, ptr %popcorn.at.entry.pads
; CHECK-NEXT: invoke void @may_throw(i32 1) {{.*}}[ "deopt"({{.*}}ptr %popcorn.at.entry.pads) ]
; CHECK: a:
; CHECK-NEXT: invoke void @may_throw(i32 2) {{.*}}[ "deopt"({{.*}}ptr %popcorn.at.entry.pads) ]
; CHECK: pad.own:
; CHECK-NEXT: landingpad
; CHECK: [[FIRST:%[^ ]+]] = load ptr, ptr %popcorn.at.entry.pads
; CHECK: pad.own2:
; CHECK-NEXT: landingpad
; CHECK: [[SECOND:%[^ ]+]] = load ptr, ptr %popcorn.at.entry.pads
; CHECK: pad:
; CHECK-NEXT: [[READ:%[^ ]+]] = phi ptr [ [[FIRST]], %pad.own ], [ [[SECOND]], %pad.own2 ]
; CHECK: store ptr [[READ]], ptr %popcorn.slot
; CHECK: call void @cleanup()
define void @no_frame() personality ptr @__gxx_personality_v0 {
entry:
  invoke void @may_throw(i32 1) to label %a unwind label %pad
a:
  invoke void @may_throw(i32 2) to label %b unwind label %pad
b:
  ret void
pad:
  %lp = landingpad { ptr, i32 } cleanup
  call void @cleanup()
  resume { ptr, i32 } %lp
}

; A frame that grows after entry (a variable-sized object) leaves the
; pointer elsewhere at each invoke: each loads it before.
; CHECK-LABEL: define void @variable_sized(
; CHECK: %popcorn.at.invoke = load ptr
; CHECK: invoke void @use(
; CHECK: %popcorn.at.invoke{{[0-9]+}} = load ptr
; CHECK: invoke void @may_throw(
; CHECK: %popcorn.at.invokes = phi ptr
; CHECK: store ptr %popcorn.at.invokes, ptr %popcorn.slot
define void @variable_sized(i64 %n) personality ptr @__gxx_personality_v0 {
entry:
  %v = alloca i32, i64 %n, align 4
  invoke void @use(ptr %v) to label %a unwind label %pad
a:
  invoke void @may_throw(i32 2) to label %b unwind label %pad
b:
  ret void
pad:
  %lp = landingpad { ptr, i32 } cleanup
  call void @cleanup()
  resume { ptr, i32 } %lp
}

; CHECK: ![[ABOVE0]] = !{i64 0}
