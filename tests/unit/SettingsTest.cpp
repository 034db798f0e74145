//===- SettingsTest.cpp - POPCORN_NODES and POPCORN_MIGRATE, read ---------===//
#include "state/NodeList.h"
#include "state/ScheduleSettings.h"
#include <gtest/gtest.h>
#include <string>

using namespace popcorn;

namespace {

struct NodesRead {
  bool Ok;
  NodePlace Nodes[MaxNodes];
  int Count;
  std::string Why;
};

NodesRead readNodes(const char *List) {
  NodesRead R;
  char Text[300];
  TextBuffer Why(Text, sizeof Text);
  R.Ok = readNodeList(List, EmX86_64, R.Nodes, R.Count, Why);
  R.Why = Text;
  return R;
}

// The list is refused, its message quoting Entry alone and saying Reason.
void expectRefused(const char *List, const char *Entry, const char *Reason) {
  NodesRead R = readNodes(List);
  EXPECT_FALSE(R.Ok) << List;
  EXPECT_EQ(R.Why.find(std::string("'") + Entry + "': "), 0u) << List << ": " << R.Why;
  EXPECT_NE(R.Why.find(Reason), std::string::npos) << List << ": " << R.Why;
  EXPECT_EQ(R.Why.find('\n'), std::string::npos);
}

TEST(NodeList, ReplacesTheDefaultsWhole) {
  NodesRead R = readNodes("0:x86_64:native,2:aarch64:qemu");
  ASSERT_TRUE(R.Ok) << R.Why;
  EXPECT_EQ(R.Count, 3);
  EXPECT_EQ(R.Nodes[0].Machine, EmX86_64);
  EXPECT_EQ(R.Nodes[1].Machine, 0) << "node 1 is not in the list";
  EXPECT_EQ(R.Nodes[2].Machine, EmAArch64);
  EXPECT_EQ(R.Nodes[2].How, Launcher::Qemu);
}

TEST(NodeList, RefusesADuplicateId) {
  expectRefused("0:x86_64:native,1:aarch64:qemu,1:x86_64:native", "1:x86_64:native",
                "node 1 is listed twice");
}

TEST(NodeList, QuotesTheBadEntryAlone) {
  expectRefused("0:x86_64:native,1:sparc:qemu,2:x86_64:native", "1:sparc:qemu",
                "ISA must be x86_64 or aarch64");
  expectRefused("0:x86_64:native,1:aarch64,2:x86_64:native", "1:aarch64", "no LAUNCHER");
  expectRefused("0:x86_64:native,x,2:x86_64:native", "x", "not ID:ISA:LAUNCHER");
  expectRefused("0:x86_64:native,9:x86_64:native", "9:x86_64:native", "from 0 to 7");
  expectRefused("0:x86_64:native,,1:x86_64:native", "", "empty entry");
  expectRefused("0:x86_64:native,1:aarch64:rsh", "1:aarch64:rsh",
                "LAUNCHER must be native, qemu, tcp:HOST:PORT or ssh:[USER@]HOST");
}

TEST(NodeList, SaysWhyNativeCannotRunAnotherIsa) {
  expectRefused("0:x86_64:native,1:aarch64:native", "1:aarch64:native",
                "native runs this machine's ISA (x86_64) only; aarch64 needs qemu");
}

TEST(NodeList, SaysWhyQemuCannotRunThisIsa) {
  expectRefused("0:x86_64:native,1:x86_64:qemu", "1:x86_64:qemu",
                "qemu runs another ISA than this machine's; x86_64 runs native here");
}

TEST(NodeList, TakesIpv6InBrackets) {
  NodesRead R = readNodes("0:x86_64:native,1:aarch64:tcp:[::1]:7448");
  ASSERT_TRUE(R.Ok) << R.Why;
  EXPECT_EQ(R.Nodes[1].How, Launcher::Tcp);
  EXPECT_STREQ(R.Nodes[1].Host, "::1");
  EXPECT_EQ(R.Nodes[1].Port, 7448);
}

TEST(NodeList, TakesIpv6WithoutBracketsUpToTheLastColon) {
  NodesRead R = readNodes("0:x86_64:native,1:aarch64:tcp:::1:7448");
  ASSERT_TRUE(R.Ok) << R.Why;
  EXPECT_STREQ(R.Nodes[1].Host, "::1");
  EXPECT_EQ(R.Nodes[1].Port, 7448);
  R = readNodes("0:x86_64:native, 1:aarch64:tcp:192.0.2.7:7447 ");
  ASSERT_TRUE(R.Ok) << R.Why;
  EXPECT_STREQ(R.Nodes[1].Host, "192.0.2.7");
}

TEST(NodeList, RefusesMalformedAddresses) {
  expectRefused("0:x86_64:native,1:aarch64:tcp:[::1:7448", "1:aarch64:tcp:[::1:7448",
                "needs its ']'");
  expectRefused("0:x86_64:native,1:aarch64:tcp:[::1]7448", "1:aarch64:tcp:[::1]7448",
                "tcp needs HOST:PORT");
  expectRefused("0:x86_64:native,1:aarch64:tcp:[127.0.0.1]:7448",
                "1:aarch64:tcp:[127.0.0.1]:7448", "brackets hold an IPv6 address");
  expectRefused("0:x86_64:native,1:aarch64:tcp:example.com:7448",
                "1:aarch64:tcp:example.com:7448", "names are not resolved");
  expectRefused("0:x86_64:native,1:aarch64:tcp:192.0.2.7", "1:aarch64:tcp:192.0.2.7",
                "tcp needs HOST:PORT");
  expectRefused("0:x86_64:native,1:aarch64:tcp:192.0.2.7:70000",
                "1:aarch64:tcp:192.0.2.7:70000", "PORT must be a number from 1 to 65535");
  expectRefused("0:x86_64:native,1:aarch64:tcp:192.0.2.7:0", "1:aarch64:tcp:192.0.2.7:0",
                "PORT must be a number");
  expectRefused("0:x86_64:native,1:aarch64:tcp:7447", "1:aarch64:tcp:7447", "tcp needs HOST:PORT");
}

TEST(NodeList, TakesAnSshTargetWithOrWithoutUser) {
  NodesRead R = readNodes("0:x86_64:native,1:aarch64:ssh:alice@node7,2:x86_64:ssh:node8.lab");
  ASSERT_TRUE(R.Ok) << R.Why;
  EXPECT_EQ(R.Nodes[1].How, Launcher::Ssh);
  EXPECT_STREQ(R.Nodes[1].Host, "alice@node7");
  EXPECT_EQ(R.Nodes[2].How, Launcher::Ssh);
  EXPECT_STREQ(R.Nodes[2].Host, "node8.lab");
  // A user name may hold '@' (a domain's): the last one ends it, as for ssh.
  R = readNodes("0:x86_64:native,1:aarch64:ssh:alice@corp@node7");
  ASSERT_TRUE(R.Ok) << R.Why;
  EXPECT_STREQ(R.Nodes[1].Host, "alice@corp@node7");
}

TEST(NodeList, RefusesSshTargetsThatAreNotOneArgument) {
  expectRefused("0:x86_64:native,1:aarch64:ssh:", "1:aarch64:ssh:", "ssh needs [USER@]HOST");
  expectRefused("0:x86_64:native,1:aarch64:ssh", "1:aarch64:ssh", "ssh needs [USER@]HOST");
  // An option, not a host: ssh would run what -oProxyCommand says.
  expectRefused("0:x86_64:native,1:aarch64:ssh:-oProxyCommand=x",
                "1:aarch64:ssh:-oProxyCommand=x", "may not begin with '-'");
  expectRefused("0:x86_64:native,1:aarch64:ssh:a b", "1:aarch64:ssh:a b", "may not hold spaces");
  // Each part named, at start rather than at the first move.
  expectRefused("0:x86_64:native,1:aarch64:ssh:@127.0.0.1", "1:aarch64:ssh:@127.0.0.1",
                "USER before '@' is empty");
  expectRefused("0:x86_64:native,1:aarch64:ssh:alice@", "1:aarch64:ssh:alice@",
                "HOST after '@' is empty");
  expectRefused("0:x86_64:native,1:aarch64:ssh:-x@host", "1:aarch64:ssh:-x@host",
                "USER may not begin with '-'");
  expectRefused("0:x86_64:native,1:aarch64:ssh:alice@-oProxyCommand=x",
                "1:aarch64:ssh:alice@-oProxyCommand=x", "HOST may not begin with '-'");
  std::string Long = "0:x86_64:native,1:aarch64:ssh:" + std::string(64, 'h');
  expectRefused(Long.c_str(), Long.c_str() + 16, "longer than 63 characters");
}

TEST(NodeList, NodeZeroIsThisProcess) {
  NodesRead R = readNodes("1:aarch64:qemu");
  EXPECT_FALSE(R.Ok);
  EXPECT_EQ(R.Why, "node 0 must be this process (x86_64:native)");
  R = readNodes("");
  EXPECT_FALSE(R.Ok);
  EXPECT_NE(R.Why.find("empty"), std::string::npos) << R.Why;
}

constexpr uint32_t ThreeNodes = 0b111;

struct ScheduleRead {
  bool Ok;
  ScheduleSettings S;
  std::string Why;
};

ScheduleRead readSchedule(const char *Text, uint32_t Nodes = ThreeNodes) {
  ScheduleRead R;
  char Why[300];
  TextBuffer Buffer(Why, sizeof Why);
  R.Ok = popcorn::readSchedule(Text, Nodes, R.S, Buffer);
  R.Why = Why;
  return R;
}

void expectScheduleRefused(const char *Text, const char *Setting, const char *Reason) {
  ScheduleRead R = readSchedule(Text);
  EXPECT_FALSE(R.Ok) << Text;
  EXPECT_EQ(R.Why.find(std::string("'") + Setting + "': "), 0u) << Text << ": " << R.Why;
  EXPECT_NE(R.Why.find(Reason), std::string::npos) << Text << ": " << R.Why;
}

TEST(Schedule, AllowsSpaces) {
  ScheduleRead R = readSchedule("every=1; nodes=2");
  ASSERT_TRUE(R.Ok) << R.Why;
  EXPECT_EQ(R.S.Every, 1u);
  ASSERT_EQ(R.S.CycleLength, 1u);
  EXPECT_EQ(R.S.Cycle[0], 2);
  R = readSchedule(" random = 0.5 ; seed = 7 ; nodes = 2 , 0 ;");
  ASSERT_TRUE(R.Ok) << R.Why;
  EXPECT_EQ(R.S.Seed, 7u);
  ASSERT_EQ(R.S.CycleLength, 2u);
  EXPECT_EQ(R.S.Cycle[1], 0);
}

TEST(Schedule, RefusesAMalformedSeed) {
  expectScheduleRefused("random=0.5;seed=x", "seed=x", "seed= needs a whole number");
  expectScheduleRefused("random=0.5;seed=7x", "seed=7x", "seed= needs a whole number");
  expectScheduleRefused("every=3;seed=7", "seed=7", "seed= goes with random= only");
}

TEST(Schedule, RefusesARepeatedKey) {
  expectScheduleRefused("every=3;nodes=1;every=5", "every=5", "every= is given twice");
  expectScheduleRefused("nodes=1;nodes=2;after=1ms", "nodes=2", "nodes= is given twice");
}

TEST(Schedule, RefusesUnknownKeysAndBadValues) {
  expectScheduleRefused("every=3;node=1", "node=1", "no such setting");
  expectScheduleRefused("every", "every", "not KEY=VALUE");
  expectScheduleRefused("every=5x", "every=5x", "positive whole number");
  expectScheduleRefused("every=0", "every=0", "positive whole number");
  expectScheduleRefused("random=1.5", "random=1.5", "probability in (0, 1]");
  expectScheduleRefused("after=20", "after=20", "duration");
  expectScheduleRefused("period=100us", "period=100us", "1ms or more");
  expectScheduleRefused("at=", "at=", "function name");
  expectScheduleRefused("every=3;nodes=1,x", "nodes=1,x", "node numbers");
  expectScheduleRefused("every=3;nodes=1,", "nodes=1,", "node numbers");
}

TEST(Schedule, RefusesNodesPopcornNodesDoesNotName) {
  ScheduleRead R = readSchedule("every=3;nodes=1,0", 0b101);
  EXPECT_FALSE(R.Ok);
  EXPECT_EQ(R.Why, "'nodes=1,0': node 1 is not in POPCORN_NODES");
  EXPECT_TRUE(readSchedule("every=3;nodes=2,0", 0b101).Ok);
}

TEST(Schedule, ReadsWhichThreadsMove) {
  EXPECT_TRUE(readSchedule("every=3;threads=main").S.MainOnly);
  ScheduleRead All = readSchedule("every=3;threads=all");
  ASSERT_TRUE(All.Ok) << All.Why;
  EXPECT_FALSE(All.S.MainOnly);
  EXPECT_FALSE(readSchedule("every=3").S.MainOnly);
  expectScheduleRefused("every=3;threads=2", "threads=2", "threads= is main");
  expectScheduleRefused("every=3;threads=main;threads=all", "threads=all", "given twice");
}

TEST(Schedule, RefusesTwoTriggers) {
  expectScheduleRefused("every=3;random=0.5", "random=0.5",
                        "a schedule has one trigger, and every= is one");
  expectScheduleRefused("after=1ms;period=2ms", "period=2ms", "after= is one");
}

TEST(Schedule, ReadsEachTrigger) {
  EXPECT_EQ(readSchedule("after=1.5ms").S.AfterNs, 1500000u);
  EXPECT_EQ(readSchedule("period=2s").S.PeriodNs, 2000000000u);
  EXPECT_STREQ(readSchedule("at=solve").S.At, "solve");
  EXPECT_EQ(readSchedule("random=1").S.RandomBelow, ~uint64_t(0));
  EXPECT_EQ(readSchedule("random=0.5").S.RandomBelow, uint64_t(1) << 63);
  ScheduleRead Empty = readSchedule("");
  EXPECT_TRUE(Empty.Ok);
  EXPECT_EQ(Empty.S.Every + Empty.S.CycleLength, 0u);
  EXPECT_EQ(Empty.S.Seed, 1u);
}

// POPCORN_TIMEOUT's message offers 1ms to 1h: each unit up to hours is read.
TEST(Duration, ReadsEveryUnitUpToHours) {
  EXPECT_EQ(durationOf("500ns"), 500u);
  EXPECT_EQ(durationOf("2us"), 2000u);
  EXPECT_EQ(durationOf("1ms"), 1000000u);
  EXPECT_EQ(durationOf("10s"), 10000000000u);
  EXPECT_EQ(durationOf("59m"), 59 * 60 * 1000000000ull);
  EXPECT_EQ(durationOf("60m"), 3600 * 1000000000ull);
  EXPECT_EQ(durationOf("1h"), 3600 * 1000000000ull);
  EXPECT_EQ(durationOf("0.5h"), 1800 * 1000000000ull);
}

TEST(Duration, RefusesUnknownUnitsAndOverflow) {
  EXPECT_EQ(durationOf("1d"), 0u);
  EXPECT_EQ(durationOf("1min"), 0u);
  EXPECT_EQ(durationOf("10"), 0u);
  EXPECT_EQ(durationOf("6000000h"), 0u) << "past 2^64 ns, not wrapped";
}

} // namespace
