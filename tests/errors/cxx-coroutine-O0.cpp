// A C++20 coroutine built at -O0: LLVM 19's x86-64 unwind table puts the
// frame of its cleanup part in the wrong place after a block laid out past
// an epilogue, so a thread could not move from a call there.  popcorn-ld
// refuses the program, naming the function and what to do, instead of
// writing one that would crash when it moves.
// ARGS: -std=c++20 -O0 -lc++ -lc++abi -lunwind
// EXPECT: the frame of _Z5counti.cleanup at the call site
// EXPECT: build them with -O1 or more
#include <coroutine>
#include <cstdio>
struct Gen {
  struct promise_type {
    int value;
    Gen get_return_object() { return Gen{std::coroutine_handle<promise_type>::from_promise(*this)}; }
    std::suspend_always initial_suspend() { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    std::suspend_always yield_value(int v) { value = v; return {}; }
    void return_void() {}
    void unhandled_exception() {}
  };
  std::coroutine_handle<promise_type> h;
  ~Gen() { if (h) h.destroy(); }
};
Gen count(int n) { for (int i = 0; i < n; i++) co_yield i; }
int main() { Gen g = count(5); int sum = 0; while (!g.h.done()) { g.h.resume(); if (!g.h.done()) sum += g.h.promise().value; } printf("%d\n", sum); }
