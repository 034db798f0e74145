//===- CoherenceTest.cpp - The page coherence protocol on its own ---------===//
//
// Several simulated nodes, each running a few threads over a handful of
// pages, talk to the directory through FIFO queues, one per direction and
// node, delivered in random order.  Each page holds one value, and every
// step is checked against a sequentially consistent reference memory.
//
//===----------------------------------------------------------------------===//

#include "coherence/Messages.h"
#include "coherence/NodePages.h"
#include "coherence/PageDirectory.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <deque>
#include <random>
#include <set>
#include <string>
#include <vector>

using namespace popcorn;

namespace {

constexpr int Nodes = 4;
constexpr int Pages = 5;
constexpr int ThreadsPerNode = 2;
constexpr int Threads = Nodes * ThreadsPerNode;
constexpr int CounterPage = 0; // only fetch-added and read, never unmapped
constexpr uint32_t TableSlots = 16;

uint64_t pageAt(int Index) { return ArenaBase + uint64_t(Index) * PageBytes; }
int indexOf(uint64_t Page) { return int((Page - ArenaBase) / PageBytes); }

// A protocol message in flight; a page's bytes are its one value.
struct Message {
  enum Kind { Ask, Grant, Deny, Invalidate, Recall, Invalidated, Recalled } What;
  uint64_t Page;
  Access Wanted;
  GrantData Data;
  RecallMode Mode;
  uint64_t Value;
};

enum class Op { Read, Write, FetchAdd, Move, Unmap, Map };

struct Thread {
  int Node;
  bool Busy;
  Op Doing;
  int Page;
  uint64_t Value; // Write's
};

const char *name(Op O) {
  static const char *const Names[] = {"read", "write", "fetch-add", "move", "unmap", "map"};
  return Names[int(O)];
}

// How often the runs took each of the protocol's paths: a path never
// taken is a path never checked.
struct Coverage {
  uint64_t GrantZero = 0, GrantFromHome = 0, Upgrade = 0, Downgrade = 0, RecallForWrite = 0,
           Invalidate = 0, Deny = 0, Unmap = 0, Map = 0, QueuedBehind = 0, WaitedOnAsk = 0,
           ClearedAfterGrant = 0, Increments = 0;
  void add(const Coverage &O) {
    uint64_t *Mine = &GrantZero;
    const uint64_t *Theirs = &O.GrantZero;
    for (unsigned I = 0; I < sizeof(Coverage) / sizeof(uint64_t); ++I)
      Mine[I] += Theirs[I];
  }
};

class Simulation {
public:
  explicit Simulation(uint32_t Seed)
      : Random(Seed), Seed(Seed), DirectorySlots(TableSlots), Ring(TableSlots),
        Directory(Nodes, DirectorySlots.data(), Ring.data(), TableSlots) {
    for (int N = 0; N < Nodes; ++N) {
      NodeSlots[N].resize(TableSlots);
      Local.emplace_back(NodeSlots[N].data(), TableSlots);
    }
    for (int T = 0; T < Threads; ++T)
      Workers[T] = Thread{T % Nodes, false, Op::Read, 0, 0};
    ActionList Out;
    EXPECT_EQ(Directory.map(pageAt(0), pageAt(Pages), Protection::ReadWrite, Out),
              DirectoryError::None);
    for (int P = 0; P < Pages; ++P)
      RefMapped[P] = true;
  }

  bool failed() const { return !Failure.empty(); }
  const std::string &failure() const { return Failure; }
  uint64_t steps() const { return Steps; }
  uint64_t completed() const { return Completed; }
  const Coverage &coverage() const { return Taken; }

  /// One random step: a thread starts an operation, a message arrives, or
  /// home serves a waiting request.
  void step() {
    ++Steps;
    unsigned Choice = Random() % 10;
    if (Choice < 3)
      startOp(Random() % Threads);
    else if (Choice < 8)
      deliverAny();
    else
      serveOnce();
    checkInvariants();
  }

  /// Delivers and serves until nothing moves; every operation must then
  /// have completed.
  void drain() {
    for (uint64_t Rounds = 0; !failed(); ++Rounds) {
      if (Rounds > 100000)
        return fail("messages still flow after 100000 rounds of draining");
      bool Moved = deliverAny();
      Moved |= serveOnce();
      checkInvariants();
      if (!Moved)
        break;
    }
    for (int T = 0; T < Threads && !failed(); ++T)
      if (Workers[T].Busy)
        fail("starved: thread " + std::to_string(T) + " on node " +
             std::to_string(Workers[T].Node) + " never finished its " + name(Workers[T].Doing) +
             " of page " + std::to_string(Workers[T].Page));
  }

private:
  void fail(const std::string &What) {
    if (Failure.empty())
      Failure = "seed " + std::to_string(Seed) + ", step " + std::to_string(Steps) + ": " + What;
  }
  static std::string page(int P) { return "page " + std::to_string(P); }

  uint64_t &copy(int Node, int P) { return Node == 0 ? HomeCopy[P] : Copies[Node][P]; }

  void startOp(int T) {
    Thread &W = Workers[T];
    if (W.Busy)
      return;
    int P = int(Random() % Pages);
    unsigned Kind = Random() % 20;
    Op O = Kind < 7 ? Op::Read : Kind < 11 ? Op::Write : Kind < 16 ? Op::FetchAdd
         : Kind < 18 ? Op::Move : Op::Unmap;
    if (P == CounterPage && (O == Op::Write || O == Op::Unmap))
      O = Op::FetchAdd;
    if (O == Op::Unmap && !RefMapped[P])
      O = Op::Map;
    if ((O == Op::Unmap || O == Op::Map) && Directory.rangeBusy())
      O = Op::Read;
    W = Thread{W.Node, true, O, P, Random()};
    switch (O) {
    case Op::Move:
      W.Node = int(Random() % Nodes);
      W.Busy = false;
      ++Completed;
      return;
    case Op::Unmap: {
      ActionList Out;
      expectOk(Directory.unmap(pageAt(P), pageAt(P + 1), Out), "unmap");
      RangeThread = T;
      return perform(Out);
    }
    case Op::Map: {
      ActionList Out;
      expectOk(Directory.map(pageAt(P), pageAt(P + 1), Protection::ReadWrite, Out), "map");
      RangeThread = T;
      return perform(Out);
    }
    default:
      return attempt(T);
    }
  }

  // The thread's access, as the node's fault handler would take it.
  void attempt(int T) {
    Thread &W = Workers[T];
    FaultKind Kind = W.Doing == Op::Read    ? FaultKind::Read
                     : W.Doing == Op::Write ? FaultKind::Write
                                            : FaultKind::Atomic;
    FaultAnswer A = Local[W.Node].fault(pageAt(W.Page), Kind);
    if (A.Step == FaultStep::Full)
      return fail("node " + std::to_string(W.Node) + "'s page table is full");
    if (A.Step == FaultStep::Ask)
      ToHome[W.Node].push_back(Message{Message::Ask, pageAt(W.Page), A.Wanted, GrantData::Held,
                                       RecallMode::Downgrade, 0});
    if (A.Step == FaultStep::Wait)
      ++Taken.WaitedOnAsk;
    if (A.Step == FaultStep::Proceed)
      access(T);
  }

  void access(int T) {
    Thread &W = Workers[T];
    int P = W.Page;
    if (!RefMapped[P])
      return fail("node " + std::to_string(W.Node) + " accessed unmapped " + page(P));
    uint64_t &Mine = copy(W.Node, P);
    if (Mine != RefValue[P])
      return fail(std::string(name(W.Doing)) + " of " + page(P) + " on node " +
                  std::to_string(W.Node) + " saw " + std::to_string(Mine) + ", the reference " +
                  std::to_string(RefValue[P]) + (W.Doing == Op::FetchAdd ? " (a lost update)" : ""));
    if (W.Doing == Op::Write)
      Mine = RefValue[P] = W.Value;
    if (W.Doing == Op::FetchAdd) {
      Mine = ++RefValue[P];
      ++Taken.Increments;
    }
    finish(W);
  }

  void finish(Thread &W) {
    W.Busy = false;
    ++Completed;
  }

  // Threads of Node waiting on page P look again.
  void wake(int Node, int P, bool Denied) {
    for (int T = 0; T < Threads && !failed(); ++T) {
      Thread &W = Workers[T];
      if (!W.Busy || W.Node != Node || W.Page != P || W.Doing >= Op::Move)
        continue;
      if (Denied)
        finish(W); // the program's SIGSEGV
      else
        attempt(T);
    }
  }

  void expectOk(DirectoryError E, const char *What) {
    if (E != DirectoryError::None)
      fail(std::string("the directory refused ") + What + ": " + describe(E));
  }
  void expectOk(NodeError E, int Node, const char *What) {
    if (E != NodeError::None)
      fail("node " + std::to_string(Node) + " refused " + What + ": " + describe(E));
  }

  // Carries out the directory's actions, as home's runtime would.
  void perform(const ActionList &Out) {
    if (Out.Count > MaxActions)
      return fail("the directory returned more than MaxActions actions");
    for (unsigned I = 0; I < Out.Count; ++I) {
      const Action &A = Out.Items[I];
      int P = indexOf(A.Page);
      count(A, Out, I);
      switch (A.What) {
      case Action::Grant:
        ToNode[A.Node].push_back(Message{Message::Grant, A.Page, A.Granted, A.Data,
                                         RecallMode::Downgrade, HomeCopy[P]});
        break;
      case Action::Deny:
        // The fault takes effect here, where the directory decides.
        if (RefMapped[P])
          fail("denied node " + std::to_string(A.Node) + " mapped " + page(P));
        ToNode[A.Node].push_back(Message{Message::Deny, A.Page, Access::Read, GrantData::Held,
                                         RecallMode::Downgrade, 0});
        break;
      case Action::Invalidate:
      case Action::Recall:
        ToNode[A.Node].push_back(Message{A.What == Action::Recall ? Message::Recall
                                                                  : Message::Invalidate,
                                         A.Page, Access::Read, GrantData::Held, A.Mode, 0});
        break;
      case Action::RangeDone:
        rangeDone(P);
        break;
      }
    }
  }

  void count(const Action &A, const ActionList &Out, unsigned I) {
    switch (A.What) {
    case Action::Grant:
      (A.Data == GrantData::Zero       ? Taken.GrantZero
       : A.Data == GrantData::FromHome ? Taken.GrantFromHome
                                       : Taken.Upgrade)++;
      return;
    case Action::Recall:
      (A.Mode == RecallMode::Downgrade ? Taken.Downgrade : Taken.RecallForWrite)++;
      return;
    case Action::Invalidate:
      ++Taken.Invalidate;
      // An unmap that waited for the transaction whose grant went first.
      if (I > 0 && Out.Items[0].What == Action::Grant && Out.Items[0].Page == A.Page &&
          RangeThread >= 0)
        ++Taken.ClearedAfterGrant;
      return;
    case Action::Deny:
      ++Taken.Deny;
      return;
    case Action::RangeDone:
      if (RangeThread >= 0)
        (Workers[RangeThread].Doing == Op::Map ? Taken.Map : Taken.Unmap)++;
      return;
    }
  }

  void rangeDone(int P) {
    if (RangeThread < 0 || !Workers[RangeThread].Busy || Workers[RangeThread].Page != P)
      return fail("a range operation ended that no thread waits for");
    Thread &W = Workers[RangeThread];
    RefMapped[P] = W.Doing == Op::Map;
    RefValue[P] = 0;
    if (W.Doing == Op::Map)
      HomeCopy[P] = 0; // home's fresh mapping
    RangeThread = -1;
    finish(W);
  }

  bool serveOnce() {
    ActionList Out;
    bool Served = Directory.serveNext(Out);
    perform(Out);
    return Served;
  }

  bool deliverAny() {
    int Start = int(Random() % (2 * Nodes));
    for (int I = 0; I < 2 * Nodes; ++I) {
      int Q = (Start + I) % (2 * Nodes);
      std::deque<Message> &Link = Q < Nodes ? ToHome[Q] : ToNode[Q - Nodes];
      if (Link.empty())
        continue;
      Message M = Link.front();
      Link.pop_front();
      if (Q < Nodes)
        atHome(Q, M);
      else
        atNode(Q - Nodes, M);
      return true;
    }
    return false;
  }

  void atHome(int From, const Message &M) {
    ActionList Out;
    if (M.What == Message::Ask) {
      const DirectoryEntry *E = Directory.entry(M.Page);
      if (E && E->Step != Phase::Idle)
        ++Taken.QueuedBehind;
      expectOk(Directory.request(From, M.Page, M.Wanted, Out), "a request");
    } else if (M.What == Message::Invalidated) {
      expectOk(Directory.invalidated(From, M.Page, Out), "an acknowledgement");
    } else {
      HomeCopy[indexOf(M.Page)] = M.Value; // the owner's data lands first
      expectOk(Directory.recalled(From, M.Page, Out), "recalled data");
    }
    perform(Out);
  }

  void atNode(int N, const Message &M) {
    int P = indexOf(M.Page);
    NodePages &Mine = Local[N];
    switch (M.What) {
    case Message::Grant:
      expectOk(Mine.granted(M.Page, M.Wanted, M.Data), N, "a grant");
      if (M.Data == GrantData::Zero)
        copy(N, P) = 0;
      if (M.Data == GrantData::FromHome)
        copy(N, P) = M.Value;
      return wake(N, P, false);
    case Message::Deny:
      expectOk(Mine.denied(M.Page), N, "a denial");
      return wake(N, P, true);
    case Message::Invalidate:
      Mine.invalidate(M.Page);
      ToHome[N].push_back(Message{Message::Invalidated, M.Page, Access::Read, GrantData::Held,
                                  RecallMode::Downgrade, 0});
      return;
    case Message::Recall:
      expectOk(Mine.recall(M.Page, M.Mode), N, "a recall");
      ToHome[N].push_back(Message{Message::Recalled, M.Page, Access::Read, GrantData::Held,
                                  M.Mode, copy(N, P)});
      return;
    default:
      return fail("a node got a message meant for home");
    }
  }

  void checkInvariants() {
    if (const char *Broken = Directory.checkConsistency())
      return fail(std::string("directory: ") + Broken);
    for (int P = 0; P < Pages; ++P) {
      int Writers = 0, Readers = 0;
      for (int N = 0; N < Nodes; ++N) {
        Holding H = Local[N].holding(pageAt(P));
        if (H == Holding::Nothing)
          continue;
        (H == Holding::Writable ? Writers : Readers)++;
        if (!RefMapped[P])
          return fail("node " + std::to_string(N) + " holds unmapped " + page(P));
        if (copy(N, P) != RefValue[P])
          return fail("node " + std::to_string(N) + "'s copy of " + page(P) + " is " +
                      std::to_string(copy(N, P)) + ", the reference " +
                      std::to_string(RefValue[P]));
      }
      if (Writers > 1 || (Writers && Readers))
        return fail(page(P) + " is writable on " + std::to_string(Writers) +
                    " nodes and read-only on " + std::to_string(Readers));
      // No remote owner: home serves the page from its copy.
      const DirectoryEntry *E = Directory.entry(pageAt(P));
      if (RefMapped[P] && (!E || E->Owner <= 0) && HomeCopy[P] != RefValue[P])
        return fail("home's copy of " + page(P) + " is stale with no node owning it");
    }
  }

  std::mt19937 Random;
  uint32_t Seed;
  uint64_t Steps = 0, Completed = 0;
  Coverage Taken;
  std::string Failure;
  std::vector<DirectoryEntry> DirectorySlots;
  std::vector<uint64_t> Ring;
  PageDirectory Directory;
  std::vector<NodePageEntry> NodeSlots[Nodes];
  std::vector<NodePages> Local;
  std::deque<Message> ToHome[Nodes], ToNode[Nodes];
  Thread Workers[Threads];
  int RangeThread = -1;
  bool RefMapped[Pages];
  uint64_t RefValue[Pages] = {};
  uint64_t HomeCopy[Pages] = {};
  uint64_t Copies[Nodes][Pages] = {};
};

TEST(Coherence, RandomRunsMatchSequentialConsistency) {
  uint64_t Steps = 0, Completed = 0;
  Coverage Taken;
  for (uint32_t Seed = 1; Seed <= 400; ++Seed) {
    Simulation S(Seed);
    for (int Round = 0; Round < 4 && !S.failed(); ++Round) {
      for (int I = 0; I < 2500 && !S.failed(); ++I)
        S.step();
      S.drain();
    }
    ASSERT_FALSE(S.failed()) << S.failure();
    Steps += S.steps();
    Completed += S.completed();
    Taken.add(S.coverage());
  }
  EXPECT_GT(Completed, Steps / 10);
  EXPECT_GT(Taken.GrantZero, 0u);
  EXPECT_GT(Taken.GrantFromHome, 0u);
  EXPECT_GT(Taken.Upgrade, 0u);
  EXPECT_GT(Taken.Downgrade, 0u);
  EXPECT_GT(Taken.RecallForWrite, 0u);
  EXPECT_GT(Taken.Invalidate, 0u);
  EXPECT_GT(Taken.Deny, 0u);
  EXPECT_GT(Taken.Unmap, 0u);
  EXPECT_GT(Taken.Map, 0u);
  EXPECT_GT(Taken.QueuedBehind, 0u);
  EXPECT_GT(Taken.WaitedOnAsk, 0u);
  EXPECT_GT(Taken.ClearedAfterGrant, 0u);
  EXPECT_GT(Taken.Increments, 0u);
  std::printf("%llu steps, %llu operations; grants: %llu zero, %llu from home, %llu upgrades; "
              "recalls: %llu downgrade, %llu for a write; %llu invalidations, %llu denials, "
              "%llu unmaps (%llu after a grant), %llu maps; %llu requests queued behind a "
              "transaction, %llu faults waited on a request in flight\n",
              (unsigned long long)Steps, (unsigned long long)Completed,
              (unsigned long long)Taken.GrantZero, (unsigned long long)Taken.GrantFromHome,
              (unsigned long long)Taken.Upgrade, (unsigned long long)Taken.Downgrade,
              (unsigned long long)Taken.RecallForWrite, (unsigned long long)Taken.Invalidate,
              (unsigned long long)Taken.Deny, (unsigned long long)Taken.Unmap,
              (unsigned long long)Taken.ClearedAfterGrant, (unsigned long long)Taken.Map,
              (unsigned long long)Taken.QueuedBehind, (unsigned long long)Taken.WaitedOnAsk);
}

} // namespace
