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

#include <algorithm>
#include <cstdio>
#include <cstring>
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

enum class Op { Read, Write, FetchAdd, Move, Unmap, Map, Protect };

struct Thread {
  int Node;
  bool Busy;
  Op Doing;
  int Page;
  uint64_t Value;  // Write's
  Protection To;   // Protect's
};

// A message as it comes off a link: header, then payload.
struct Wire {
  MessageHeader Header;
  std::vector<uint8_t> Payload;
};

template <typename T> Wire wire(MessageType Type, const T &Fixed, uint64_t Extra = 0) {
  Wire W{{Type, uint32_t(sizeof(T) + Extra)}, std::vector<uint8_t>(sizeof(T) + Extra)};
  std::memcpy(W.Payload.data(), &Fixed, sizeof(T));
  return W;
}

// The page's bytes after a message's fields: its value, then zeros.
Wire withValue(Wire W, size_t At, uint64_t Value) {
  std::memcpy(W.Payload.data() + At, &Value, sizeof(Value));
  return W;
}

uint64_t valueIn(const uint8_t *Bytes) {
  uint64_t Value;
  std::memcpy(&Value, Bytes, sizeof(Value));
  return Value;
}

const char *name(Op O) {
  static const char *const Names[] = {"read",  "write", "fetch-add", "move",
                                      "unmap", "map",   "protect"};
  return Names[int(O)];
}

// How often the runs took each of the protocol's paths: a path never
// taken is a path never checked.
struct Coverage {
  uint64_t GrantZero = 0, GrantFromHome = 0, Upgrade = 0, Downgrade = 0, RecallForWrite = 0,
           Invalidate = 0, Deny = 0, Unmap = 0, Map = 0, Protect = 0, QueuedBehind = 0, WaitedOnAsk = 0,
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
      Workers[T] = Thread{T % Nodes, false, Op::Read, 0, 0, Protection::ReadWrite};
    ActionList Out;
    EXPECT_EQ(Directory.map(pageAt(0), pageAt(Pages), Protection::ReadWrite, Out),
              DirectoryError::None);
    for (int P = 0; P < Pages; ++P)
      RefProt[P] = Protection::ReadWrite;
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
         : Kind < 18 ? Op::Move : Kind < 19 ? Op::Unmap : Op::Protect;
    if (P == CounterPage && O != Op::Read && O != Op::Move)
      O = Op::FetchAdd;
    if (O >= Op::Unmap && RefProt[P] == Protection::Unmapped)
      O = Op::Map;
    if (O >= Op::Unmap && Directory.rangeBusy())
      O = Op::Read;
    W = Thread{W.Node, true, O, P, Random(), Protection(1 + Random() % 3)};
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
    case Op::Protect: {
      ActionList Out;
      expectOk(Directory.protect(pageAt(P), pageAt(P + 1), W.To, Out), "protect");
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
      AskedFor[W.Node][W.Page] = A.Wanted;
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
    if (!allows(RefProt[P], W.Doing == Op::Read ? Access::Read : Access::Write))
      return fail("node " + std::to_string(W.Node) + " did a " + name(W.Doing) + " of " + page(P) +
                  ", which its protection forbids");
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

  static bool allows(Protection Prot, Access Wanted) {
    return Wanted == Access::Read ? Prot >= Protection::Read : Prot == Protection::ReadWrite;
  }

  // Threads of Node waiting on page P look again, or fault: all of them
  // if a read was denied, those that write if a write was.
  void wake(int Node, int P, bool Denied) {
    for (int T = 0; T < Threads && !failed(); ++T) {
      Thread &W = Workers[T];
      if (!W.Busy || W.Node != Node || W.Page != P || W.Doing >= Op::Move)
        continue;
      if (Denied && (AskedFor[Node][P] == Access::Read || W.Doing != Op::Read))
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
        if (allows(RefProt[P], AskedFor[A.Node][P]))
          fail("denied node " + std::to_string(A.Node) + " a " +
               (AskedFor[A.Node][P] == Access::Read ? "read" : "write") + " of " + page(P) +
               ", which its protection allows");
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
        (Workers[RangeThread].Doing == Op::Map     ? Taken.Map
         : Workers[RangeThread].Doing == Op::Unmap ? Taken.Unmap
                                                   : Taken.Protect)++;
      return;
    }
  }

  void rangeDone(int P) {
    if (RangeThread < 0 || !Workers[RangeThread].Busy || Workers[RangeThread].Page != P)
      return fail("a range operation ended that no thread waits for");
    Thread &W = Workers[RangeThread];
    if (W.Doing == Op::Protect) {
      RefProt[P] = W.To;
    } else {
      RefProt[P] = W.Doing == Op::Map ? Protection::ReadWrite : Protection::Unmapped;
      RefValue[P] = 0;
      if (W.Doing == Op::Map)
        HomeCopy[P] = 0; // home's fresh mapping
    }
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

  // Every message goes through its encoding and the receiver's checks.
  static Wire encodeForHome(const Message &M) {
    if (M.What == Message::Ask)
      return wire(MessageType::PageAsk, PageAskMessage{M.Page, uint32_t(M.Wanted), 0});
    if (M.What == Message::Invalidated)
      return wire(MessageType::PageInvalidated, PageAddressMessage{M.Page});
    return withValue(wire(MessageType::PageRecalled, PageAddressMessage{M.Page}, PageBytes),
                     sizeof(PageAddressMessage), M.Value);
  }

  static Wire encodeForNode(const Message &M) {
    switch (M.What) {
    case Message::Grant: {
      bool Bytes = M.Data == GrantData::FromHome;
      Wire W = wire(MessageType::PageGrant,
                    PageGrantMessage{M.Page, uint32_t(M.Wanted), uint32_t(M.Data)},
                    Bytes ? PageBytes : 0);
      return Bytes ? withValue(W, sizeof(PageGrantMessage), M.Value) : W;
    }
    case Message::Recall:
      return wire(MessageType::PageRecall, PageRecallMessage{M.Page, uint32_t(M.Mode), 0});
    default:
      return wire(M.What == Message::Deny ? MessageType::PageDenied : MessageType::PageInvalidate,
                  PageAddressMessage{M.Page});
    }
  }

  void atHome(int From, const Message &M) {
    Wire W = encodeForHome(M);
    NodeEvent E;
    if (MessageError Bad = decodeFromNode(W.Header, W.Payload.data(), From, Directory, E);
        Bad != MessageError::None)
      return fail("home refused node " + std::to_string(From) + "'s message: " + describe(Bad));
    if (E.What == NodeEvent::Ask) {
      const DirectoryEntry *Entry = Directory.entry(E.Page);
      if (Entry && Entry->Step != Phase::Idle)
        ++Taken.QueuedBehind;
    }
    if (E.What == NodeEvent::Recalled)
      HomeCopy[indexOf(E.Page)] = valueIn(E.Data); // the owner's data lands first
    ActionList Out;
    expectOk(apply(Directory, E, Out), "a node's message");
    perform(Out);
  }

  void atNode(int N, const Message &Sent) {
    Wire W = encodeForNode(Sent);
    HomeEvent M;
    if (MessageError Bad = decodeFromHome(W.Header, W.Payload.data(), M);
        Bad != MessageError::None)
      return fail("node " + std::to_string(N) + " refused home's message: " + describe(Bad));
    int P = indexOf(M.Page);
    NodePages &Mine = Local[N];
    switch (M.What) {
    case HomeEvent::Grant:
      expectOk(Mine.granted(M.Page, M.Granted, M.Data), N, "a grant");
      if (M.Data == GrantData::Zero)
        copy(N, P) = 0;
      if (M.Data == GrantData::FromHome)
        copy(N, P) = valueIn(M.Bytes);
      return wake(N, P, false);
    case HomeEvent::Denied:
      expectOk(Mine.denied(M.Page), N, "a denial");
      return wake(N, P, true);
    case HomeEvent::Invalidate:
      Mine.invalidate(M.Page);
      ToHome[N].push_back(Message{Message::Invalidated, M.Page, Access::Read, GrantData::Held,
                                  RecallMode::Downgrade, 0});
      return;
    case HomeEvent::Recall:
      expectOk(Mine.recall(M.Page, M.Mode), N, "a recall");
      ToHome[N].push_back(Message{Message::Recalled, M.Page, Access::Read, GrantData::Held,
                                  M.Mode, copy(N, P)});
      return;
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
        if (!allows(RefProt[P], H == Holding::Writable ? Access::Write : Access::Read))
          return fail("node " + std::to_string(N) + " holds " + page(P) +
                      (H == Holding::Writable ? " writable" : " read-only") +
                      ", which its protection forbids");
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
      if (RefProt[P] != Protection::Unmapped && (!E || E->Owner <= 0) && HomeCopy[P] != RefValue[P])
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
  Protection RefProt[Pages];
  Access AskedFor[Nodes][Pages] = {};
  uint64_t RefValue[Pages] = {};
  uint64_t HomeCopy[Pages] = {};
  uint64_t Copies[Nodes][Pages] = {};
};

TEST(Coherence, RandomRunsMatchSequentialConsistency) {
  uint64_t Steps = 0, Completed = 0;
  Coverage Taken;
  for (uint32_t Seed = 1; Seed <= 600; ++Seed) {
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
  EXPECT_GT(Taken.Protect, 0u);
  EXPECT_GT(Taken.QueuedBehind, 0u);
  EXPECT_GT(Taken.WaitedOnAsk, 0u);
  EXPECT_GT(Taken.ClearedAfterGrant, 0u);
  EXPECT_GT(Taken.Increments, 0u);
  std::printf("%llu steps, %llu operations; grants: %llu zero, %llu from home, %llu upgrades; "
              "recalls: %llu downgrade, %llu for a write; %llu invalidations, %llu denials, "
              "%llu unmaps (%llu after a grant), %llu maps, %llu protects; %llu requests queued behind a "
              "transaction, %llu faults waited on a request in flight\n",
              (unsigned long long)Steps, (unsigned long long)Completed,
              (unsigned long long)Taken.GrantZero, (unsigned long long)Taken.GrantFromHome,
              (unsigned long long)Taken.Upgrade, (unsigned long long)Taken.Downgrade,
              (unsigned long long)Taken.RecallForWrite, (unsigned long long)Taken.Invalidate,
              (unsigned long long)Taken.Deny, (unsigned long long)Taken.Unmap,
              (unsigned long long)Taken.ClearedAfterGrant, (unsigned long long)Taken.Map,
              (unsigned long long)Taken.Protect,
              (unsigned long long)Taken.QueuedBehind, (unsigned long long)Taken.WaitedOnAsk);
}

} // namespace

namespace {

// A directory with its own storage, for the tests below.
struct TestDirectory {
  explicit TestDirectory(int NodeCount, uint32_t Capacity = 64)
      : Slots(Capacity), Ring(Capacity),
        Directory(NodeCount, Slots.data(), Ring.data(), Capacity) {}
  std::vector<DirectoryEntry> Slots;
  std::vector<uint64_t> Ring;
  PageDirectory Directory;

  // Every action the event and the serving after it return.
  std::vector<Action> drain(ActionList &Out) {
    std::vector<Action> All(Out.Items, Out.Items + Out.Count);
    for (Out.clear(); Directory.serveNext(Out); Out.clear())
      All.insert(All.end(), Out.Items, Out.Items + Out.Count);
    return All;
  }
};

TEST(CoherenceDirectory, ProtectRecallsWritersAndDeniesWhatItForbids) {
  TestDirectory T(3);
  PageDirectory &D = T.Directory;
  ActionList Out;
  uint64_t Page = pageAt(1);
  ASSERT_EQ(D.map(pageAt(0), pageAt(4), Protection::ReadWrite, Out), DirectoryError::None);
  Out.clear();
  ASSERT_EQ(D.request(1, Page, Access::Write, Out), DirectoryError::None);
  std::vector<Action> A = T.drain(Out);
  ASSERT_EQ(A.size(), 1u);
  EXPECT_EQ(A[0].What, Action::Grant);
  EXPECT_EQ(A[0].Data, GrantData::Zero);

  // Read-only: the writer sends its page home and keeps it to read.
  Out.clear();
  ASSERT_EQ(D.protect(pageAt(0), pageAt(4), Protection::Read, Out), DirectoryError::None);
  A = T.drain(Out);
  ASSERT_EQ(A.size(), 1u);
  EXPECT_EQ(A[0].What, Action::Recall);
  EXPECT_EQ(A[0].Node, 1);
  EXPECT_EQ(A[0].Mode, RecallMode::Downgrade);
  Out.clear();
  ASSERT_EQ(D.request(2, Page, Access::Write, Out), DirectoryError::None);
  EXPECT_EQ(T.drain(Out).size(), 0u) << "a request answered before the mapping call ended";
  Out.clear();
  ASSERT_EQ(D.recalled(1, Page, Out), DirectoryError::None);
  A = T.drain(Out);
  ASSERT_EQ(A.size(), 2u);
  EXPECT_EQ(A[0].What, Action::RangeDone);
  EXPECT_EQ(A[1].What, Action::Deny) << "a write to a read-only page";
  EXPECT_EQ(D.entry(Page)->Sharers, nodeBit(1));

  // No access: readers drop theirs; home keeps the bytes for later.
  Out.clear();
  ASSERT_EQ(D.protect(pageAt(0), pageAt(4), Protection::None, Out), DirectoryError::None);
  A = T.drain(Out);
  ASSERT_EQ(A.size(), 1u);
  EXPECT_EQ(A[0].What, Action::Invalidate);
  Out.clear();
  ASSERT_EQ(D.invalidated(1, Page, Out), DirectoryError::None);
  A = T.drain(Out);
  ASSERT_EQ(A.size(), 1u);
  EXPECT_EQ(A[0].What, Action::RangeDone);
  Out.clear();
  ASSERT_EQ(D.request(2, Page, Access::Read, Out), DirectoryError::None);
  A = T.drain(Out);
  ASSERT_EQ(A.size(), 1u);
  EXPECT_EQ(A[0].What, Action::Deny);

  Out.clear();
  ASSERT_EQ(D.protect(pageAt(0), pageAt(4), Protection::ReadWrite, Out), DirectoryError::None);
  Out.clear();
  ASSERT_EQ(D.request(2, Page, Access::Read, Out), DirectoryError::None);
  A = T.drain(Out);
  ASSERT_EQ(A.size(), 1u);
  EXPECT_EQ(A[0].Data, GrantData::FromHome) << "the written page came back as zeros";
  EXPECT_EQ(D.checkConsistency(), nullptr);
}

TEST(CoherenceDirectory, FullTableIsAnErrorAndChangesNothing) {
  TestDirectory T(2, 8); // room for 6 pages
  PageDirectory &D = T.Directory;
  ActionList Out;
  ASSERT_EQ(D.map(pageAt(0), pageAt(100), Protection::ReadWrite, Out), DirectoryError::None);
  for (int P = 0; P < 6; ++P) {
    Out.clear();
    ASSERT_EQ(D.request(1, pageAt(P), Access::Read, Out), DirectoryError::None);
    ASSERT_EQ(T.drain(Out).size(), 1u);
  }
  Out.clear();
  EXPECT_EQ(D.request(1, pageAt(6), Access::Read, Out), DirectoryError::Full);
  EXPECT_EQ(Out.Count, 0u);
  EXPECT_EQ(D.checkConsistency(), nullptr);
  // The pages it has still work.
  EXPECT_EQ(D.request(0, pageAt(5), Access::Write, Out), DirectoryError::None);
  std::vector<Action> A = T.drain(Out);
  ASSERT_EQ(A.size(), 1u);
  EXPECT_EQ(A[0].What, Action::Invalidate);
}

TEST(CoherenceDirectory, MisbehavingNodesAreRefused) {
  TestDirectory T(2);
  PageDirectory &D = T.Directory;
  ActionList Out;
  ASSERT_EQ(D.map(pageAt(0), pageAt(4), Protection::ReadWrite, Out), DirectoryError::None);
  Out.clear();
  EXPECT_EQ(D.request(2, pageAt(0), Access::Read, Out), DirectoryError::BadNode);
  EXPECT_EQ(D.invalidated(1, pageAt(0), Out), DirectoryError::Unexpected);
  EXPECT_EQ(D.recalled(1, pageAt(0), Out), DirectoryError::Unexpected);
  ASSERT_EQ(D.request(1, pageAt(0), Access::Read, Out), DirectoryError::None);
  EXPECT_EQ(D.request(1, pageAt(0), Access::Write, Out), DirectoryError::DuplicateRequest);
  T.drain(Out);
  Out.clear();
  EXPECT_EQ(D.request(1, pageAt(0), Access::Read, Out), DirectoryError::AlreadyHeld);
  EXPECT_EQ(D.unmap(pageAt(0) + 1, pageAt(1), Out), DirectoryError::BadRange);
  EXPECT_EQ(D.map(pageAt(2), pageAt(6), Protection::ReadWrite, Out), DirectoryError::BadRange)
      << "a map over a mapped page";
  EXPECT_EQ(D.protect(pageAt(3), pageAt(6), Protection::Read, Out), DirectoryError::BadRange)
      << "a protect of unmapped pages";
  ASSERT_EQ(D.unmap(pageAt(0), pageAt(1), Out), DirectoryError::None);
  EXPECT_EQ(D.unmap(pageAt(2), pageAt(3), Out), DirectoryError::RangeBusy);
  EXPECT_EQ(D.checkConsistency(), nullptr);
  for (DirectoryError E : {DirectoryError::BadNode, DirectoryError::Full,
                           DirectoryError::TooManyRanges, DirectoryError::RangeBusy,
                           DirectoryError::BadRange, DirectoryError::Unexpected,
                           DirectoryError::DuplicateRequest, DirectoryError::AlreadyHeld})
    EXPECT_STRNE(describe(E), describe(DirectoryError::None));
}

TEST(CoherenceNode, FaultsAskForWhatTheyNeedOnce) {
  std::vector<NodePageEntry> Slots(4); // room for 3 pages
  NodePages Node(Slots.data(), 4);
  uint64_t Page = pageAt(0);
  FaultAnswer A = Node.fault(Page, FaultKind::Read);
  EXPECT_EQ(A.Step, FaultStep::Ask);
  EXPECT_EQ(A.Wanted, Access::Read);
  EXPECT_EQ(Node.fault(Page, FaultKind::Atomic).Step, FaultStep::Wait) << "a second request";
  EXPECT_EQ(Node.granted(Page, Access::Write, GrantData::Zero), NodeError::NotAsked);
  ASSERT_EQ(Node.granted(Page, Access::Read, GrantData::Zero), NodeError::None);
  EXPECT_EQ(Node.fault(Page, FaultKind::Read).Step, FaultStep::Proceed);
  // An atomic update needs the only copy, as a write does.
  A = Node.fault(Page, FaultKind::Atomic);
  EXPECT_EQ(A.Step, FaultStep::Ask);
  EXPECT_EQ(A.Wanted, Access::Write);
  EXPECT_EQ(Node.fault(Page, FaultKind::Read).Step, FaultStep::Proceed)
      << "the copy is still readable while the upgrade is asked for";
  ASSERT_EQ(Node.granted(Page, Access::Write, GrantData::Held), NodeError::None);
  EXPECT_EQ(Node.holding(Page), Holding::Writable);
  EXPECT_EQ(Node.recall(Page, RecallMode::Downgrade), NodeError::None);
  EXPECT_EQ(Node.holding(Page), Holding::ReadOnly);
  EXPECT_EQ(Node.recall(Page, RecallMode::Downgrade), NodeError::NotOwner);
  EXPECT_EQ(Node.invalidate(Page), Holding::ReadOnly);
  EXPECT_EQ(Node.holding(Page), Holding::Nothing);
  // An upgrade whose copy an Invalidate took cannot come without data.
  ASSERT_EQ(Node.fault(Page, FaultKind::Write).Step, FaultStep::Ask);
  EXPECT_EQ(Node.granted(Page, Access::Write, GrantData::Held), NodeError::NothingHeld);
  EXPECT_EQ(Node.denied(Page), NodeError::None);
  EXPECT_EQ(Node.denied(Page), NodeError::NotAsked);

  // Full: the fault says so, and the pages it has still work.
  for (int P = 1; P <= 3; ++P)
    ASSERT_EQ(Node.fault(pageAt(P), FaultKind::Read).Step, FaultStep::Ask);
  EXPECT_EQ(Node.fault(pageAt(4), FaultKind::Read).Step, FaultStep::Full);
  EXPECT_EQ(Node.granted(pageAt(3), Access::Read, GrantData::Zero), NodeError::None);
  EXPECT_EQ(Node.fault(pageAt(3), FaultKind::Read).Step, FaultStep::Proceed);
  for (NodeError E : {NodeError::Full, NodeError::NotAsked, NodeError::NothingHeld,
                      NodeError::NotOwner})
    EXPECT_STRNE(describe(E), describe(NodeError::None));
}

TEST(CoherenceRanges, AssignMatchesAPageModel) {
  std::mt19937 Random(7);
  MappedRanges Ranges;
  Protection Model[64] = {};
  for (int I = 0; I < 20000; ++I) {
    uint64_t Low = Random() % 64, High = Low + 1 + Random() % (64 - Low);
    auto Prot = Protection(Random() % 4);
    ASSERT_TRUE(Ranges.assign(pageAt(int(Low)), pageAt(int(High)), Prot));
    for (uint64_t P = Low; P < High; ++P)
      Model[P] = Prot;
    for (int P = 0; P < 64; ++P)
      ASSERT_EQ(Ranges.at(pageAt(P)), Model[P]) << "page " << P << " after " << I;
    uint64_t A = Random() % 64, B = A + 1 + Random() % (64 - A);
    bool Any = false, All = true;
    for (uint64_t P = A; P < B; ++P) {
      Any |= Model[P] != Protection::Unmapped;
      All &= Model[P] != Protection::Unmapped;
    }
    ASSERT_EQ(Ranges.anyMapped(pageAt(int(A)), pageAt(int(B))), Any);
    ASSERT_EQ(Ranges.allMapped(pageAt(int(A)), pageAt(int(B))), All);
  }
}

TEST(CoherenceRanges, FullIsAnErrorAndChangesNothing) {
  MappedRanges Ranges;
  int P = 0;
  while (Ranges.assign(pageAt(P), pageAt(P + 1), Protection(1 + P % 3)))
    ++P;
  EXPECT_GT(P, int(MappedRanges::Capacity) - 4);
  for (int Q = 0; Q < P; ++Q)
    ASSERT_EQ(Ranges.at(pageAt(Q)), Protection(1 + Q % 3));
  EXPECT_EQ(Ranges.at(pageAt(P)), Protection::Unmapped);
}

TEST(CoherenceTable, InsertFindRemoveMatchASet) {
  struct Entry {
    uint64_t Page;
    uint64_t Value;
  };
  std::vector<Entry> Slots(256);
  PageTable<Entry> Table(Slots.data(), 256);
  std::set<uint64_t> Model;
  std::mt19937 Random(3);
  for (int I = 0; I < 200000; ++I) {
    // Clustered addresses, as a program's are.
    uint64_t Page = ArenaBase + (Random() % 400) * PageBytes;
    if (Random() % 2) {
      Entry *E = Table.insert(Page);
      ASSERT_EQ(E == nullptr, !Model.count(Page) && Model.size() >= Table.limit());
      if (E) {
        E->Value = Page;
        Model.insert(Page);
      }
    } else if (Entry *E = Table.find(Page)) {
      Table.remove(E);
      Model.erase(Page);
    }
    ASSERT_EQ(Table.size(), Model.size());
    uint64_t Probe = ArenaBase + (Random() % 400) * PageBytes;
    Entry *Found = Table.find(Probe);
    ASSERT_EQ(Found != nullptr, Model.count(Probe) == 1) << "page " << Probe;
    if (Found)
      ASSERT_EQ(Found->Value, Probe);
  }
}

} // namespace

namespace {

MessageError decode(const Wire &W, int From, const PageDirectory &D, NodeEvent &Out) {
  return decodeFromNode(W.Header, W.Payload.data(), From, D, Out);
}

TEST(CoherenceMessages, EveryFieldIsChecked) {
  TestDirectory T(3);
  ActionList Out;
  ASSERT_EQ(T.Directory.map(pageAt(0), pageAt(4), Protection::ReadWrite, Out),
            DirectoryError::None);
  NodeEvent E;
  auto Ask = [](uint64_t Address, uint32_t Access, uint32_t Pad = 0) {
    return wire(MessageType::PageAsk, PageAskMessage{Address, Access, Pad});
  };
  EXPECT_EQ(decode(Ask(pageAt(1), PageAccessWrite), 2, T.Directory, E), MessageError::None);
  EXPECT_EQ(E.What, NodeEvent::Ask);
  EXPECT_EQ(E.Page, pageAt(1));
  EXPECT_EQ(E.Wanted, Access::Write);
  EXPECT_EQ(decode(Ask(pageAt(1), 0), 3, T.Directory, E), MessageError::BadNode);
  EXPECT_EQ(decode(Ask(pageAt(1), 0), -1, T.Directory, E), MessageError::BadNode);
  EXPECT_EQ(decode(Ask(pageAt(1), 2), 1, T.Directory, E), MessageError::BadField);
  EXPECT_EQ(decode(Ask(pageAt(1), 0, 1), 1, T.Directory, E), MessageError::BadField);
  EXPECT_EQ(decode(Ask(pageAt(1) + 8, 0), 1, T.Directory, E), MessageError::Unaligned);
  EXPECT_EQ(decode(Ask(0, 0), 1, T.Directory, E), MessageError::OutsideProgram);
  EXPECT_EQ(decode(Ask(UserSpaceEnd, 0), 1, T.Directory, E), MessageError::OutsideProgram);
  // A request may name an unmapped page: the answer is the program's fault.
  EXPECT_EQ(decode(Ask(pageAt(9), 0), 1, T.Directory, E), MessageError::None);
  Wire Short = Ask(pageAt(1), 0);
  Short.Header.Bytes -= 1;
  EXPECT_EQ(decode(Short, 1, T.Directory, E), MessageError::BadSize);

  Wire Ack = wire(MessageType::PageInvalidated, PageAddressMessage{pageAt(2)});
  EXPECT_EQ(decode(Ack, 1, T.Directory, E), MessageError::None);
  EXPECT_EQ(E.What, NodeEvent::Invalidated);
  Ack = wire(MessageType::PageInvalidated, PageAddressMessage{pageAt(9)});
  EXPECT_EQ(decode(Ack, 1, T.Directory, E), MessageError::Unmapped);
  // An unmap under way still takes its pages' answers.
  ASSERT_EQ(T.Directory.unmap(pageAt(2), pageAt(3), Out), DirectoryError::None);
  Ack = wire(MessageType::PageInvalidated, PageAddressMessage{pageAt(2)});
  EXPECT_EQ(decode(Ack, 1, T.Directory, E), MessageError::None);
  Wire Data = wire(MessageType::PageRecalled, PageAddressMessage{pageAt(3)}, PageBytes);
  EXPECT_EQ(decode(Data, 1, T.Directory, E), MessageError::None);
  EXPECT_EQ(E.Data, Data.Payload.data() + sizeof(PageAddressMessage));
  Data = wire(MessageType::PageRecalled, PageAddressMessage{pageAt(3)}, PageBytes - 1);
  EXPECT_EQ(decode(Data, 1, T.Directory, E), MessageError::BadSize);
  Wire Other = wire(MessageType::Exit, ExitMessage{0});
  EXPECT_EQ(decode(Other, 1, T.Directory, E), MessageError::NotCoherence);
  Wire Grant = wire(MessageType::PageGrant, PageGrantMessage{pageAt(1), 0, GrantZero});
  EXPECT_EQ(decode(Grant, 1, T.Directory, E), MessageError::NotCoherence) << "home's message";

  HomeEvent H;
  EXPECT_EQ(decodeFromHome(Grant.Header, Grant.Payload.data(), H), MessageError::None);
  Grant = wire(MessageType::PageGrant, PageGrantMessage{pageAt(1), 0, GrantFromHome});
  EXPECT_EQ(decodeFromHome(Grant.Header, Grant.Payload.data(), H), MessageError::BadSize)
      << "a grant from home without its page";
  Grant = wire(MessageType::PageGrant, PageGrantMessage{pageAt(1), 0, 3});
  EXPECT_EQ(decodeFromHome(Grant.Header, Grant.Payload.data(), H), MessageError::BadField);
  Wire Recall = wire(MessageType::PageRecall, PageRecallMessage{pageAt(1), 2, 0});
  EXPECT_EQ(decodeFromHome(Recall.Header, Recall.Payload.data(), H), MessageError::BadField);
  for (MessageError M : {MessageError::BadNode, MessageError::NotCoherence, MessageError::BadSize,
                         MessageError::BadField, MessageError::Unaligned,
                         MessageError::OutsideProgram, MessageError::Unmapped})
    EXPECT_STRNE(describe(M), describe(MessageError::None));
}

// What a node could send home now: a request, or the answer the directory
// waits for, right or mutated; or bytes of any kind.
class NodeFuzzer {
public:
  NodeFuzzer(uint32_t Seed, const PageDirectory &D) : Random(Seed), Directory(D) {}

  Wire next(int &From) {
    From = int(Random() % 4);
    Wire W = pick(From);
    if (Random() % 3 == 0)
      mutate(W, From);
    return W;
  }

  std::mt19937 Random;

private:
  Wire pick(int &From) {
    unsigned Kind = Random() % 10;
    if (Kind < 4)
      return wire(MessageType::PageAsk,
                  PageAskMessage{pageAt(int(Random() % 12)), uint32_t(Random() % 2), 0});
    if (Kind < 8)
      return answer(From);
    Wire W{{MessageType(Random() % 40), uint32_t(Random() % 32)}, {}};
    W.Payload.resize(W.Header.Bytes);
    for (uint8_t &B : W.Payload)
      B = uint8_t(Random());
    return W;
  }

  // An answer the directory awaits, if any.
  Wire answer(int &From) {
    for (int P = 0; P < 12; ++P) {
      const DirectoryEntry *E = Directory.entry(pageAt(P));
      if (!E || !(E->AwaitAck | E->AwaitData))
        continue;
      for (From = 0; From < 4; ++From) {
        if (E->AwaitAck & nodeBit(From))
          return wire(MessageType::PageInvalidated, PageAddressMessage{pageAt(P)});
        if (E->AwaitData & nodeBit(From))
          return wire(MessageType::PageRecalled, PageAddressMessage{pageAt(P)}, PageBytes);
      }
    }
    From = int(Random() % 4);
    return wire(MessageType::PageInvalidated, PageAddressMessage{pageAt(int(Random() % 12))});
  }

  void mutate(Wire &W, int &From) {
    switch (Random() % 4) {
    case 0:
      From = int(Random() % 7) - 1;
      break;
    case 1:
      W.Header.Bytes = uint32_t(Random() % (W.Payload.size() + 2));
      W.Payload.resize(W.Header.Bytes);
      break;
    case 2:
      W.Header.Type = MessageType(uint32_t(W.Header.Type) ^ (1u << (Random() % 6)));
      break;
    default:
      if (!W.Payload.empty())
        W.Payload[Random() % std::min<size_t>(W.Payload.size(), 16)] ^= uint8_t(1u << (Random() % 8));
      break;
    }
  }

  const PageDirectory &Directory;
};

void expectWellFormed(const std::vector<Action> &Actions, int Nodes) {
  for (const Action &A : Actions) {
    ASSERT_LT(A.Node, Nodes);
    ASSERT_EQ(A.Page % PageBytes, 0u);
  }
}

TEST(CoherenceFuzz, NodeMessagesAreRejectedOrKeepTheDirectorySound) {
  uint64_t Applied = 0, Refused = 0, Rejected = 0;
  for (uint32_t Seed = 1; Seed <= 20; ++Seed) {
    TestDirectory T(4, 32);
    PageDirectory &D = T.Directory;
    NodeFuzzer Fuzz(Seed, D);
    ActionList Out;
    ASSERT_EQ(D.map(pageAt(0), pageAt(8), Protection::ReadWrite, Out), DirectoryError::None);
    for (int I = 0; I < 10000; ++I) {
      Out.clear();
      if (Fuzz.Random() % 50 == 0) {
        // A mapping call now and then, over part of the pages.
        uint64_t Low = pageAt(int(Fuzz.Random() % 10)), High = Low + PageBytes;
        unsigned Call = Fuzz.Random() % 3;
        if (Call == 0)
          D.unmap(Low, High, Out);
        else if (Call == 1)
          D.map(Low, High, Protection::ReadWrite, Out);
        else
          D.protect(Low, High, Protection(1 + Fuzz.Random() % 3), Out);
      } else {
        int From;
        Wire W = Fuzz.next(From);
        NodeEvent E;
        if (decode(W, From, D, E) != MessageError::None)
          ++Rejected;
        else if (apply(D, E, Out) != DirectoryError::None)
          ++Refused;
        else
          ++Applied;
      }
      std::vector<Action> Actions = T.drain(Out);
      expectWellFormed(Actions, 4);
      const char *Broken = D.checkConsistency();
      ASSERT_EQ(Broken, nullptr) << "seed " << Seed << ", message " << I << ": " << Broken;
    }
  }
  // Each outcome happened often: the fuzzing reached past the decoder.
  EXPECT_GT(Applied, 20000u);
  EXPECT_GT(Refused, 1000u);
  EXPECT_GT(Rejected, 20000u);
}

TEST(CoherenceFuzz, HomeMessagesAreRejectedOrKeepANodeSound) {
  std::mt19937 Random(11);
  std::vector<NodePageEntry> Slots(64);
  NodePages Node(Slots.data(), 64);
  uint64_t Applied = 0;
  for (int I = 0; I < 100000; ++I) {
    if (Random() % 2) {
      Node.fault(pageAt(int(Random() % 8)), FaultKind(Random() % 3));
      continue;
    }
    Wire W{{MessageType(uint32_t(MessageType::PageGrant) + Random() % 4), 0}, {}};
    W.Payload.resize(sizeof(PageGrantMessage) + (Random() % 4 == 0 ? PageBytes : 0));
    PageGrantMessage Fields{pageAt(int(Random() % 8)), uint32_t(Random() % 3),
                            uint32_t(Random() % 4)};
    std::memcpy(W.Payload.data(), &Fields, sizeof(Fields));
    W.Header.Bytes = uint32_t(Random() % 3 ? W.Payload.size() : Random() % 24);
    W.Payload.resize(std::max<size_t>(W.Payload.size(), W.Header.Bytes));
    HomeEvent E;
    if (decodeFromHome(W.Header, W.Payload.data(), E) != MessageError::None)
      continue;
    ++Applied;
    Holding Was = Node.holding(E.Page), Expected = Was;
    switch (E.What) {
    case HomeEvent::Grant:
      if (Node.granted(E.Page, E.Granted, E.Data) == NodeError::None)
        Expected = E.Granted == Access::Read ? Holding::ReadOnly : Holding::Writable;
      break;
    case HomeEvent::Denied:
      Node.denied(E.Page);
      break;
    case HomeEvent::Invalidate:
      EXPECT_EQ(Node.invalidate(E.Page), Was);
      Expected = Holding::Nothing;
      break;
    case HomeEvent::Recall:
      if (Node.recall(E.Page, E.Mode) == NodeError::None)
        Expected = E.Mode == RecallMode::Downgrade ? Holding::ReadOnly : Holding::Nothing;
      else
        EXPECT_NE(Was, Holding::Writable) << "a recall refused by the page's owner";
      break;
    }
    ASSERT_EQ(Node.holding(E.Page), Expected) << "message " << I;
    // A thread may go on exactly when the node holds enough.
    FaultKind Kind = FaultKind(Random() % 3);
    Holding Enough = Kind == FaultKind::Read ? Holding::ReadOnly : Holding::Writable;
    ASSERT_EQ(Node.fault(E.Page, Kind).Step == FaultStep::Proceed, Expected >= Enough);
  }
  EXPECT_GT(Applied, 2000u);
}

} // namespace
