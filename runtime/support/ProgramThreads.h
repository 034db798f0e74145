//===- ProgramThreads.h - musl's list of the program's threads --*- C++ -*-===//
//
// musl's list of threads holds the program's and no others: not the
// runtime's control thread (a raw clone), nor qemu-user's own, which
// /proc/self/task lists with the program's when home runs emulated.  A
// thread on its way out holds the list's lock until the kernel has ended
// it (musl gives clone the lock as the word to clear at exit), so under
// the lock the list is exact.
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_RUNTIME_PROGRAMTHREADS_H
#define POPCORN_RUNTIME_PROGRAMTHREADS_H

#include <pthread.h>

extern "C" {
void __tl_lock(void); // musl's lock of its list of threads
void __tl_unlock(void);
}

namespace popcorn {

// The first words of musl's struct pthread, the same on both ISAs
// (libc-patches/common/0003-one-pthread-layout.patch keeps them in place).
struct ListedThread {
  ListedThread *Self;
  void *Dtv;
  ListedThread *Prev, *Next;
  void *Sysinfo, *Canary, *ObjectSp, *Runtime;
  int Tid;
};

/// Calls F(Tid) for every thread of the program but the caller, under
/// the list's lock (F must not take it).
template <typename Fn> void forEachOtherThread(Fn F) {
  auto *Self = reinterpret_cast<ListedThread *>(pthread_self());
  __tl_lock();
  for (ListedThread *T = Self->Next; T != Self; T = T->Next)
    F(T->Tid);
  __tl_unlock();
}

} // namespace popcorn

#endif
