//===- FutexQueuesTest.cpp - Home's futex table against a plain list -------===//
//
// The table (runtime/coherence/FutexQueues.h) is driven by random waits,
// wakes with bitsets, requeues, cancels and moves of waiting threads, from
// several nodes, and checked after every step against a reference that
// keeps every waiter in one list, scanned from the front.
//
//===----------------------------------------------------------------------===//
#include "coherence/FutexQueues.h"
#include "gtest/gtest.h"
#include <array>
#include <chrono>
#include <random>
#include <sstream>
#include <vector>

namespace popcorn {
// Names in failure reports rather than bytes.
void PrintTo(FutexError E, std::ostream *OS) { *OS << describe(E); }
void PrintTo(FutexLeave L, std::ostream *OS) {
  *OS << (L == FutexLeave::Left ? "left" : L == FutexLeave::NotWaiting ? "not waiting" : "refused");
}
} // namespace popcorn

using namespace popcorn;

namespace {

using Groups = std::array<std::vector<uint64_t>, MaxNodes>;

// The reference: every waiter of every word in one line, first come
// first, and every operation a scan of it.
struct Model {
  struct Waiter {
    uint64_t Key, Token;
    uint32_t Thread, Bits;
    uint8_t Node;
  };
  std::vector<Waiter> Line;

  int find(uint32_t Thread) const {
    for (size_t I = 0; I < Line.size(); I++)
      if (Line[I].Thread == Thread)
        return int(I);
    return -1;
  }

  void wait(uint64_t Key, uint32_t Thread, uint8_t Node, uint64_t Token, uint32_t Bits) {
    Line.push_back({Key, Token, Thread, Bits, Node});
  }

  Groups wake(uint64_t Key, uint32_t Count, uint32_t Bits) {
    Groups Woken;
    std::vector<Waiter> Kept;
    uint32_t Taken = 0;
    for (const Waiter &W : Line)
      if (W.Key == Key && (W.Bits & Bits) && Taken < Count) {
        Woken[W.Node].push_back(W.Token);
        Taken++;
      } else {
        Kept.push_back(W);
      }
    Line = Kept;
    return Woken;
  }

  Groups requeue(uint64_t Key, uint32_t Count, uint64_t Target, uint32_t Moves,
                 uint32_t &Moved) {
    Groups Woken;
    std::vector<Waiter> Kept, ToTarget;
    uint32_t Taken = 0;
    Moved = 0;
    for (const Waiter &W : Line) {
      if (W.Key != Key) {
        Kept.push_back(W);
      } else if (Taken < Count) {
        Woken[W.Node].push_back(W.Token);
        Taken++;
      } else if (Moved < Moves) {
        Moved++;
        (Target == Key ? Kept : ToTarget).push_back(W);
        (Target == Key ? Kept : ToTarget).back().Key = Target;
      } else {
        Kept.push_back(W);
      }
    }
    Kept.insert(Kept.end(), ToTarget.begin(), ToTarget.end());
    Line = Kept;
    return Woken;
  }

  FutexLeave cancel(uint32_t Thread, uint64_t Token) {
    int I = find(Thread);
    if (I < 0 || Line[I].Token != Token)
      return FutexLeave::NotWaiting;
    Line.erase(Line.begin() + I);
    return FutexLeave::Left;
  }

  FutexLeave move(uint32_t Thread, uint64_t Token, uint8_t Node) {
    int I = find(Thread);
    if (I < 0 || Line[I].Token != Token)
      return FutexLeave::NotWaiting;
    Line[I].Node = Node;
    return FutexLeave::Left;
  }
};

Groups groupsOf(const FutexWoken &W) {
  Groups G;
  for (int N = 0; N < MaxNodes; N++)
    G[N].assign(W.tokensOn(N), W.tokensOn(N) + W.countOn(N));
  return G;
}

std::string show(const Groups &G) {
  std::ostringstream S;
  for (int N = 0; N < MaxNodes; N++)
    if (!G[N].empty()) {
      S << " node " << N << ":";
      for (uint64_t T : G[N])
        S << " " << T;
    }
  return S.str().empty() ? " none" : S.str();
}

// A table with its storage, of Threads threads.
struct Table {
  std::vector<FutexWaiter> Waiters;
  std::vector<FutexBucket> Buckets;
  std::vector<uint64_t> Tokens;
  FutexQueues Q;
  FutexWoken Woken;
  explicit Table(uint32_t Threads)
      : Waiters(Threads), Buckets(futexBucketsFor(Threads)), Tokens(Threads),
        Q(Waiters.data(), Buckets.data(), Threads), Woken(Tokens.data()) {}
};

struct Config {
  uint32_t Threads;
  int Nodes, Words;
  uint64_t Steps;
  uint64_t Seed;
};

// What a run did, so that a run that never reaches a case cannot pass
// for one that checked it.
struct Coverage {
  uint64_t Woken = 0, SeveralNodes = 0, Requeued = 0, Cancelled = 0, Moved = 0, Refused = 0;
};

// Runs Config's random steps on a table and the model side by side; the
// first difference, described, or "".
std::string compareRandomSteps(const Config &C, Coverage &Did) {
  Table T(C.Threads);
  Model M;
  std::mt19937_64 Random(C.Seed);
  auto pick = [&](uint64_t N) { return Random() % N; };
  const uint32_t BitChoices[] = {1, 2, 4, 3, 6, FutexAnyBits, FutexAnyBits};
  const uint32_t CountChoices[] = {0, 1, 1, 2, 3, C.Threads, ~0u};
  std::vector<uint64_t> LastToken(C.Threads + 1, 0);
  uint64_t NextToken = 1;
  // Words a few bytes apart, private or shared: more than the buckets
  // when the table is small, so words share buckets.
  auto word = [&] { return FutexWord{0x10000 + 4 * pick(C.Words), bool(pick(2))}; };
  auto pickOf = [&](const auto &Choices) {
    return Choices[pick(sizeof Choices / sizeof Choices[0])];
  };
  for (uint64_t Step = 0; Step < C.Steps; Step++) {
    std::ostringstream Where;
    Where << "seed " << C.Seed << " step " << Step << ": ";
    // One past the last thread now and then: the table must refuse it.
    uint32_t Thread = uint32_t(pick(C.Threads + 1));
    uint8_t Node = uint8_t(pick(C.Nodes));
    switch (pick(6)) {
    case 0:
    case 1: {
      FutexWord W = word();
      uint32_t Bits = pickOf(BitChoices);
      uint64_t Token = NextToken++;
      FutexError Want = Thread >= C.Threads   ? FutexError::ThreadOutOfRange
                        : M.find(Thread) >= 0 ? FutexError::AlreadyWaiting
                                              : FutexError::None;
      FutexError Got = T.Q.wait(W, Thread, Node, Token, Bits);
      if (Got != Want)
        return Where.str() + "wait of thread " + std::to_string(Thread) + " gave " +
               describe(Got) + ", expected " + describe(Want);
      Did.Refused += Got != FutexError::None;
      if (Want == FutexError::None) {
        M.wait(W.key(), Thread, Node, Token, Bits);
        LastToken[Thread] = Token;
      }
      break;
    }
    case 2: {
      FutexWord W = word();
      uint32_t Count = pickOf(CountChoices), Bits = pickOf(BitChoices);
      Groups Want = M.wake(W.key(), Count, Bits);
      if (T.Q.wake(W, Count, Bits, T.Woken) != FutexError::None)
        return Where.str() + "wake refused";
      Groups Got = groupsOf(T.Woken);
      if (Got != Want)
        return Where.str() + "wake of " + std::to_string(Count) + " woke" + show(Got) +
               ", expected" + show(Want);
      Did.Woken += T.Woken.count();
      int Groups = 0;
      for (int N = 0; N < MaxNodes; N++)
        Groups += T.Woken.countOn(N) > 0;
      Did.SeveralNodes += Groups > 1;
      break;
    }
    case 3: {
      FutexWord From = word(), To = word();
      To.Shared = From.Shared; // one flag names both words
      uint32_t Count = pickOf(CountChoices), Moves = pickOf(CountChoices);
      uint32_t WantMoved;
      Groups Want = M.requeue(From.key(), Count, To.key(), Moves, WantMoved);
      if (T.Q.requeue(From, Count, To, Moves, T.Woken) != FutexError::None)
        return Where.str() + "requeue refused";
      Groups Got = groupsOf(T.Woken);
      if (Got != Want || T.Woken.Requeued != WantMoved)
        return Where.str() + "requeue woke" + show(Got) + " and moved " +
               std::to_string(T.Woken.Requeued) + ", expected" + show(Want) + " and " +
               std::to_string(WantMoved);
      Did.Requeued += WantMoved;
      break;
    }
    case 4:
    case 5: {
      // Mostly the thread's own last wait; now and then a stale token.
      uint64_t Token = pick(8) ? LastToken[Thread] : NextToken - 1 - pick(3);
      bool Cancel = pick(2);
      FutexLeave Want = Thread >= C.Threads ? FutexLeave::Refused
                        : Cancel            ? M.cancel(Thread, Token)
                                            : M.move(Thread, Token, Node);
      FutexLeave Got =
          Cancel ? T.Q.cancel(Thread, Token) : T.Q.move(Thread, Token, Node);
      if (Got != Want)
        return Where.str() + (Cancel ? "cancel" : "move") + " of thread " +
               std::to_string(Thread) + " gave " + testing::PrintToString(Got) + ", expected " +
               testing::PrintToString(Want);
      (Cancel ? Did.Cancelled : Did.Moved) += Got == FutexLeave::Left;
      break;
    }
    }
    for (uint32_t Th = 0; Th < C.Threads; Th++)
      if (T.Q.waiting(Th) != (M.find(Th) >= 0))
        return Where.str() + "thread " + std::to_string(Th) + " waiting in one, not the other";
    if (!T.Q.consistent())
      return Where.str() + "table inconsistent";
  }
  return "";
}

TEST(FutexQueues, RandomStepsMatchAPlainList) {
  auto Start = std::chrono::steady_clock::now();
  // A table smaller than its words (buckets shared, lines long), one about
  // their size, and one larger than MaxNodes' worth of threads; 2 million
  // steps in all.
  const Config Configs[] = {
      {4, 3, 12, 500000, 1},
      {16, 8, 10, 500000, 2},
      {64, 8, 24, 500000, 3},
      {7, 5, 3, 500000, 4},
  };
  for (const Config &C : Configs) {
    Coverage Did;
    ASSERT_EQ(compareRandomSteps(C, Did), "");
    for (uint64_t Count : {Did.Woken, Did.SeveralNodes, Did.Requeued, Did.Cancelled, Did.Moved,
                           Did.Refused})
      EXPECT_GT(Count, C.Steps / 10000) << "seed " << C.Seed;
  }
  double Seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
  RecordProperty("seconds", std::to_string(Seconds));
}

TEST(FutexQueues, WakeOfManyIsOneGroupPerNode) {
  Table T(32);
  FutexWord W{0x2000, false};
  // Nodes 3, 0, 5, 3, 0, 5, ...: 12 waiters over three nodes, interleaved.
  const uint8_t Nodes[] = {3, 0, 5};
  for (uint32_t Th = 0; Th < 12; Th++)
    ASSERT_EQ(T.Q.wait(W, Th, Nodes[Th % 3], 100 + Th, FutexAnyBits), FutexError::None);
  ASSERT_EQ(T.Q.wake(W, ~0u, FutexAnyBits, T.Woken), FutexError::None);
  EXPECT_EQ(T.Woken.count(), 12u);
  int Groups = 0;
  for (int N = 0; N < MaxNodes; N++)
    Groups += T.Woken.countOn(N) > 0;
  EXPECT_EQ(Groups, 3);
  for (int I = 0; I < 3; I++) {
    ASSERT_EQ(T.Woken.countOn(Nodes[I]), 4u);
    for (uint32_t J = 0; J < 4; J++) // each node's in the order they came
      EXPECT_EQ(T.Woken.tokensOn(Nodes[I])[J], 100 + I + 3 * J);
  }
  EXPECT_TRUE(T.Q.consistent());
}

TEST(FutexQueues, BeyondCapacityIsRefusedAndChangesNothing) {
  FutexStorage<4> Storage;
  FutexQueues Q(Storage);
  FutexWord W{0x3000, false};
  for (uint32_t Th = 0; Th < 4; Th++)
    ASSERT_EQ(Q.wait(W, Th, 1, Th, FutexAnyBits), FutexError::None);
  EXPECT_EQ(Q.wait(W, 4, 1, 4, FutexAnyBits), FutexError::ThreadOutOfRange);
  EXPECT_EQ(Q.wait(W, 0, 1, 9, FutexAnyBits), FutexError::AlreadyWaiting);
  EXPECT_STREQ(describe(FutexError::ThreadOutOfRange),
               "thread index beyond the futex table's capacity");
  EXPECT_EQ(Q.cancel(4, 4), FutexLeave::Refused);
  EXPECT_EQ(Q.move(0, 0, MaxNodes), FutexLeave::Refused);
  uint64_t Tokens[4];
  FutexWoken Woken(Tokens);
  ASSERT_EQ(Q.wake(W, ~0u, FutexAnyBits, Woken), FutexError::None);
  EXPECT_EQ(Woken.count(), 4u);
  EXPECT_EQ(Woken.countOn(1), 4u);
  EXPECT_TRUE(Q.consistent());
}

// The race the kernel resolves too: a timeout that loses to a wake
// returns 0, and the wake's message to the node comes first.
TEST(FutexQueues, CancelAfterWakeSaysTheWakeWon) {
  Table T(4);
  FutexWord W{0x4000, false};
  ASSERT_EQ(T.Q.wait(W, 2, 1, 77, FutexAnyBits), FutexError::None);
  ASSERT_EQ(T.Q.wake(W, 1, FutexAnyBits, T.Woken), FutexError::None);
  EXPECT_EQ(T.Q.cancel(2, 77), FutexLeave::NotWaiting);
  ASSERT_EQ(T.Q.wait(W, 2, 1, 78, FutexAnyBits), FutexError::None);
  EXPECT_EQ(T.Q.cancel(2, 77), FutexLeave::NotWaiting); // the old wait's cancel
  EXPECT_EQ(T.Q.cancel(2, 78), FutexLeave::Left);
  EXPECT_FALSE(T.Q.waiting(2));
}

// musl's condition variable: FUTEX_REQUEUE of 0 woken, 1 moved to the
// mutex's word, which its unlock then wakes.
TEST(FutexQueues, RequeueMovesToTheEndOfTheTargetsLine) {
  Table T(8);
  FutexWord Cond{0x5000, false}, Lock{0x5004, false};
  ASSERT_EQ(T.Q.wait(Lock, 0, 0, 10, FutexAnyBits), FutexError::None);
  ASSERT_EQ(T.Q.wait(Cond, 1, 2, 11, FutexAnyBits), FutexError::None);
  ASSERT_EQ(T.Q.wait(Cond, 2, 1, 12, FutexAnyBits), FutexError::None);
  ASSERT_EQ(T.Q.requeue(Cond, 0, Lock, 1, T.Woken), FutexError::None);
  EXPECT_EQ(T.Woken.count(), 0u);
  EXPECT_EQ(T.Woken.Requeued, 1u);
  ASSERT_EQ(T.Q.wake(Lock, 2, FutexAnyBits, T.Woken), FutexError::None);
  EXPECT_EQ(groupsOf(T.Woken)[0], std::vector<uint64_t>{10});
  EXPECT_EQ(groupsOf(T.Woken)[2], std::vector<uint64_t>{11});
  EXPECT_TRUE(T.Q.waiting(2));
}

} // namespace
