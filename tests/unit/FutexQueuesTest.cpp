//===- FutexQueuesTest.cpp - Home's futex table against a plain list -------===//
//
// The table (runtime/coherence/FutexQueues.h) is driven by random waits,
// wakes with bitsets, requeues, cancels and moves of waiting threads, from
// several nodes, and checked after every step against a reference that
// keeps every waiter in one list, scanned from the front.  The futex
// messages' decoder is fed random and mutated bytes: each message is
// refused, or applied to the table without breaking it.
//
//===----------------------------------------------------------------------===//
#include "coherence/FutexMessages.h"
#include "gtest/gtest.h"
#include <array>
#include <chrono>
#include <random>
#include <sstream>
#include <vector>

namespace popcorn {
// Names in failure reports rather than bytes.
void PrintTo(FutexFault F, std::ostream *OS) { *OS << describe(F); }
void PrintTo(FutexError E, std::ostream *OS) { *OS << describe(E); }
void PrintTo(FutexLeave L, std::ostream *OS) {
  *OS << (L == FutexLeave::WasQueued ? "was queued" : L == FutexLeave::NotWaiting ? "not waiting" : "refused");
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
    return FutexLeave::WasQueued;
  }

  FutexLeave move(uint32_t Thread, uint64_t Token, uint8_t Node) {
    int I = find(Thread);
    if (I < 0 || Line[I].Token != Token)
      return FutexLeave::NotWaiting;
    Line[I].Node = Node;
    return FutexLeave::WasQueued;
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
      (Cancel ? Did.Cancelled : Did.Moved) += Got == FutexLeave::WasQueued;
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
  EXPECT_EQ(T.Q.cancel(2, 78), FutexLeave::WasQueued);
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

// --- Messages ---

template <typename T> std::vector<uint8_t> bytesOf(const T &M) {
  std::vector<uint8_t> B(sizeof M);
  memcpy(B.data(), &M, sizeof M);
  return B;
}

constexpr int Nodes = 3;
constexpr uint32_t Threads = 16;

FutexFault decode(MessageType Type, const std::vector<uint8_t> &B, int From = 1) {
  FutexRequest R;
  return decodeFutexRequest(Type, B.data(), uint32_t(B.size()), From, Nodes, Threads, R);
}

FutexWaitMessage goodWait() { return {0x7000, 5, 3, 0, FutexAnyBits, 0}; }
FutexWakeMessage goodWake() { return {0x7000, 6, 1, FutexAnyBits, FutexShared, 0}; }
FutexRequeueMessage goodRequeue() { return {0x7000, 0x7004, 7, 0, 1, 9, FutexCompare}; }
FutexCancelMessage goodCancel() { return {5, 3, 0}; }

TEST(FutexMessages, EveryFieldIsChecked) {
  using T = MessageType;
  EXPECT_EQ(decode(T::FutexWait, bytesOf(goodWait())), FutexFault::None);
  EXPECT_EQ(decode(T::FutexWake, bytesOf(goodWake())), FutexFault::None);
  EXPECT_EQ(decode(T::FutexRequeue, bytesOf(goodRequeue())), FutexFault::None);
  EXPECT_EQ(decode(T::FutexCancel, bytesOf(goodCancel())), FutexFault::None);

  EXPECT_EQ(decode(T::FutexWait, bytesOf(goodWait()), Nodes), FutexFault::BadNode);
  EXPECT_EQ(decode(T::FutexWait, bytesOf(goodWait()), -1), FutexFault::BadNode);
  EXPECT_EQ(decode(T::Exit, bytesOf(goodWait())), FutexFault::NotFutex);
  std::vector<uint8_t> Short = bytesOf(goodWait());
  Short.pop_back();
  EXPECT_EQ(decode(T::FutexWait, Short), FutexFault::WrongSize);
  std::vector<uint8_t> Long = bytesOf(goodCancel());
  Long.push_back(0);
  EXPECT_EQ(decode(T::FutexCancel, Long), FutexFault::WrongSize);

  auto wait = [](auto Edit) {
    FutexWaitMessage M = goodWait();
    Edit(M);
    return decode(MessageType::FutexWait, bytesOf(M));
  };
  EXPECT_EQ(wait([](auto &M) { M.Address = 0x7002; }), FutexFault::Misaligned);
  EXPECT_EQ(wait([](auto &M) { M.Address = 0; }), FutexFault::AddressOutOfRange);
  EXPECT_EQ(wait([](auto &M) { M.Address = uint64_t(1) << 48; }), FutexFault::AddressOutOfRange);
  EXPECT_EQ(wait([](auto &M) { M.Flags = 4; }), FutexFault::UnknownFlags);
  EXPECT_EQ(wait([](auto &M) { M.Flags = FutexCompare; }), FutexFault::UnknownFlags);
  EXPECT_EQ(wait([](auto &M) { M.Bits = 0; }), FutexFault::NoBits);
  EXPECT_EQ(wait([](auto &M) { M.Thread = Threads; }), FutexFault::ThreadOutOfRange);

  auto wake = [](auto Edit) {
    FutexWakeMessage M = goodWake();
    Edit(M);
    return decode(MessageType::FutexWake, bytesOf(M));
  };
  EXPECT_EQ(wake([](auto &M) { M.Address = 0x7001; }), FutexFault::Misaligned);
  EXPECT_EQ(wake([](auto &M) { M.Pad = 1; }), FutexFault::NonzeroPad);
  EXPECT_EQ(wake([](auto &M) { M.Bits = 0; }), FutexFault::NoBits);
  EXPECT_EQ(wake([](auto &M) { M.Count = 0x80000000u; }), FutexFault::CountOutOfRange);
  EXPECT_EQ(wake([](auto &M) { M.Flags = 2; }), FutexFault::UnknownFlags);

  auto requeue = [](auto Edit) {
    FutexRequeueMessage M = goodRequeue();
    Edit(M);
    return decode(MessageType::FutexRequeue, bytesOf(M));
  };
  EXPECT_EQ(requeue([](auto &M) { M.Target = 0x7006; }), FutexFault::Misaligned);
  EXPECT_EQ(requeue([](auto &M) { M.Target = 0; }), FutexFault::AddressOutOfRange);
  EXPECT_EQ(requeue([](auto &M) { M.Moves = ~0u; }), FutexFault::CountOutOfRange);
  EXPECT_EQ(requeue([](auto &M) { M.Count = ~0u; }), FutexFault::CountOutOfRange);
  EXPECT_EQ(requeue([](auto &M) { M.Flags = 8; }), FutexFault::UnknownFlags);

  FutexCancelMessage C = goodCancel();
  C.Pad = 1;
  EXPECT_EQ(decode(T::FutexCancel, bytesOf(C)), FutexFault::NonzeroPad);
  C = goodCancel();
  C.Thread = Threads;
  EXPECT_EQ(decode(T::FutexCancel, bytesOf(C)), FutexFault::ThreadOutOfRange);
  EXPECT_STREQ(describe(FutexFault::Misaligned), "futex word not 4-byte aligned");
}

std::vector<uint8_t> wokenBytes(uint32_t Count, uint32_t Tokens, uint32_t Pad = 0) {
  std::vector<uint8_t> B = bytesOf(FutexWokenMessage{Count, Pad});
  for (uint64_t T = 0; T < Tokens; T++) {
    std::vector<uint8_t> Token = bytesOf(T + 40);
    B.insert(B.end(), Token.begin(), Token.end());
  }
  return B;
}

FutexFault decodeAnswer(MessageType Type, const std::vector<uint8_t> &B, FutexAnswer &A) {
  return decodeFutexAnswer(Type, B.data(), uint32_t(B.size()), Threads, A);
}

TEST(FutexMessages, AnswersAreChecked) {
  FutexAnswer A;
  ASSERT_EQ(decodeAnswer(MessageType::FutexWoken, wokenBytes(3, 3), A), FutexFault::None);
  ASSERT_EQ(A.Count, 3u);
  EXPECT_EQ(A.tokenAt(2), 42u);
  EXPECT_EQ(decodeAnswer(MessageType::FutexWoken, wokenBytes(3, 2), A), FutexFault::WrongSize);
  EXPECT_EQ(decodeAnswer(MessageType::FutexWoken, wokenBytes(0, 0), A),
            FutexFault::CountOutOfRange);
  EXPECT_EQ(decodeAnswer(MessageType::FutexWoken, wokenBytes(Threads + 1, Threads + 1), A),
            FutexFault::CountOutOfRange);
  EXPECT_EQ(decodeAnswer(MessageType::FutexWoken, wokenBytes(1, 1, 1), A),
            FutexFault::NonzeroPad);
  EXPECT_EQ(decodeAnswer(MessageType::FutexResult, bytesOf(FutexResultMessage{1, -11}), A),
            FutexFault::None);
  EXPECT_EQ(decodeAnswer(MessageType::FutexResult, bytesOf(FutexResultMessage{1, Threads + 1}), A),
            FutexFault::ResultOutOfRange);
  EXPECT_EQ(decodeAnswer(MessageType::FutexResult, bytesOf(FutexResultMessage{1, -5000}), A),
            FutexFault::ResultOutOfRange);
}

TEST(FutexMessages, ServedAsTheSystemCallWouldAnswer) {
  Table T(Threads);
  auto serve = [&](MessageType Type, const std::vector<uint8_t> &B, uint32_t Value, int From) {
    FutexRequest R;
    EXPECT_EQ(decodeFutexRequest(Type, B.data(), uint32_t(B.size()), From, Nodes, Threads, R),
              FutexFault::None);
    return serveFutex(T.Q, R, Value, T.Woken);
  };
  FutexWaitMessage W = goodWait(); // thread 3 waits for 0 at 0x7000, token 5
  FutexReply Stale = serve(MessageType::FutexWait, bytesOf(W), 1, 2);
  EXPECT_TRUE(Stale.Now);
  EXPECT_EQ(Stale.Result, -11); // EAGAIN: the word changed
  EXPECT_FALSE(serve(MessageType::FutexWait, bytesOf(W), 0, 2).Now);
  EXPECT_TRUE(T.Q.waiting(3));
  FutexRequeueMessage Q = goodRequeue(); // compare 9
  EXPECT_EQ(serve(MessageType::FutexRequeue, bytesOf(Q), 8, 1).Result, -11);
  FutexWakeMessage K = goodWake();
  K.Flags = 0; // private, as the waiter's
  FutexReply Woke = serve(MessageType::FutexWake, bytesOf(K), 0, 1);
  EXPECT_EQ(Woke.Result, 1);
  EXPECT_EQ(groupsOf(T.Woken)[2], std::vector<uint64_t>{5});
  EXPECT_EQ(serve(MessageType::FutexCancel, bytesOf(goodCancel()), 0, 2).Result,
            FutexCancelWoken);
}

// Random messages and valid ones with bytes changed, sizes changed or
// types swapped: each is refused, or applied and leaves the table whole.
TEST(FutexMessages, FuzzedBytesAreRefusedOrApplied) {
  Table T(Threads);
  std::mt19937_64 Random(40);
  auto pick = [&](uint64_t N) { return Random() % N; };
  const MessageType Types[] = {MessageType::FutexWait,   MessageType::FutexWake,
                               MessageType::FutexRequeue, MessageType::FutexCancel,
                               MessageType::FutexWoken,  MessageType::FutexResult,
                               MessageType::Exit};
  auto seed = [&](MessageType Type) {
    // Words near each other, so that applied messages meet in the table.
    uint64_t Address = 0x7000 + 4 * pick(4);
    uint32_t Thread = uint32_t(pick(Threads));
    switch (Type) {
    case MessageType::FutexWait:
      return bytesOf(FutexWaitMessage{Address, pick(4), Thread, 0, uint32_t(pick(8)),
                                      uint32_t(pick(2))});
    case MessageType::FutexWake:
      return bytesOf(FutexWakeMessage{Address, 1, uint32_t(pick(4)), FutexAnyBits,
                                      uint32_t(pick(2)), 0});
    case MessageType::FutexRequeue:
      return bytesOf(FutexRequeueMessage{Address, Address + 4, 1, uint32_t(pick(3)),
                                         uint32_t(pick(3)), 0, uint32_t(pick(4))});
    case MessageType::FutexCancel:
      return bytesOf(FutexCancelMessage{pick(4), Thread, 0});
    case MessageType::FutexWoken:
      return wokenBytes(uint32_t(pick(4)), uint32_t(pick(4)));
    default:
      return bytesOf(FutexResultMessage{pick(4), int64_t(pick(40)) - 20});
    }
  };
  uint64_t Applied = 0, Refused = 0, Queued = 0, Woken = 0;
  for (int Round = 0; Round < 200000; Round++) {
    MessageType Seed = Types[pick(sizeof Types / sizeof Types[0])];
    MessageType Type = pick(4) ? Seed : Types[pick(sizeof Types / sizeof Types[0])];
    std::vector<uint8_t> B;
    if (pick(8) == 0) {
      B.resize(pick(64));
      for (uint8_t &Byte : B)
        Byte = uint8_t(Random());
    } else {
      B = seed(Seed);
      for (uint64_t Changes = pick(3); Changes--;)
        if (!B.empty())
          B[pick(B.size())] ^= uint8_t(1u << pick(8));
      if (pick(8) == 0)
        B.resize(pick(B.size() + 9), uint8_t(Random()));
    }
    FutexRequest R;
    int From = int(pick(Nodes + 2)) - 1;
    if (decodeFutexRequest(Type, B.data(), uint32_t(B.size()), From, Nodes, Threads, R) ==
        FutexFault::None) {
      ASSERT_TRUE(R.From < Nodes && R.Word.Address % 4 == 0) << "round " << Round;
      FutexReply Reply = serveFutex(T.Q, R, uint32_t(pick(2)), T.Woken);
      Applied++;
      Queued += !Reply.Now;
      Woken += T.Woken.count();
    } else {
      Refused++;
    }
    FutexAnswer A;
    if (decodeFutexAnswer(Type, B.data(), uint32_t(B.size()), Threads, A) == FutexFault::None &&
        Type == MessageType::FutexWoken) {
      ASSERT_EQ(B.size(), sizeof(FutexWokenMessage) + A.Count * sizeof(uint64_t));
      for (uint32_t I = 0; I < A.Count; I++)
        (void)A.tokenAt(I);
    }
    ASSERT_TRUE(T.Q.consistent()) << "round " << Round;
  }
  EXPECT_GT(Applied, 10000u);
  EXPECT_GT(Refused, 10000u);
  EXPECT_GT(Queued, 500u); // applied messages met in the table
  EXPECT_GT(Woken, 500u);
}

} // namespace
