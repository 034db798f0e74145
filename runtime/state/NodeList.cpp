//===- NodeList.cpp - POPCORN_NODES, read ---------------------------------===//
//
// Home reads the list before libc has set up the thread pointer: nothing
// here may touch errno (Text.h).  inet_pton does not, for AF_INET and
// AF_INET6.
//
//===----------------------------------------------------------------------===//
#include "state/NodeList.h"
#include "support/Text.h"
#include <arpa/inet.h>
#include <string.h>

namespace popcorn {
namespace {

const struct {
  const char *Name;
  uint16_t Machine;
} Isas[] = {{"x86_64", EmX86_64}, {"aarch64", EmAArch64}};

// The characters [Begin, End) of the list.
struct Span {
  const char *Begin, *End;
  size_t length() const { return size_t(End - Begin); }
  bool is(const char *Text) const {
    return length() == strlen(Text) && !strncmp(Begin, Text, length());
  }
  // The span up to the first C after Begin (all of it without one).
  Span upTo(char C) const {
    const char *P = Begin;
    while (P < End && *P != C)
      P++;
    return {Begin, P};
  }
};

Span trimmed(Span S) {
  while (S.Begin < S.End && (*S.Begin == ' ' || *S.Begin == '\t'))
    S.Begin++;
  while (S.End > S.Begin && (S.End[-1] == ' ' || S.End[-1] == '\t'))
    S.End--;
  return S;
}

uint16_t machineOf(Span Isa) {
  for (const auto &I : Isas)
    if (Isa.is(I.Name))
      return I.Machine;
  return 0;
}

// Writes "'ENTRY': " and the reason into Why; false.
template <class... Parts> bool refuse(TextBuffer &Why, Span Entry, const Parts &...Reason) {
  Why << "'";
  Why.write(Entry.Begin, Entry.length());
  Why << "': ";
  (Why << ... << Reason);
  return false;
}

// "HOST:PORT" or "[IPV6]:PORT" of a tcp launcher into Node.
bool readAddress(Span Entry, Span Address, NodePlace &Node, TextBuffer &Why) {
  Span Host;
  const char *Colon;
  if (Address.Begin < Address.End && *Address.Begin == '[') {
    Host = Span{Address.Begin + 1, Address.End}.upTo(']');
    if (Host.End == Address.End)
      return refuse(Why, Entry, "an IPv6 address in brackets needs its ']'");
    Colon = Host.End + 1;
    if (Colon == Address.End || *Colon != ':')
      return refuse(Why, Entry, "tcp needs HOST:PORT, e.g. tcp:[::1]:7447");
  } else {
    // An IPv6 address without brackets has colons of its own: the port
    // is after the last.
    Colon = Address.End;
    while (Colon > Address.Begin && Colon[-1] != ':')
      Colon--;
    if (Colon == Address.Begin)
      return refuse(Why, Entry, "tcp needs HOST:PORT, e.g. tcp:192.0.2.7:7447");
    Host = {Address.Begin, --Colon};
  }
  if (!Host.length())
    return refuse(Why, Entry, "tcp needs HOST:PORT, e.g. tcp:192.0.2.7:7447");
  if (Host.length() >= sizeof Node.Host)
    return refuse(Why, Entry, "HOST is longer than an IP address");
  memcpy(Node.Host, Host.Begin, Host.length());
  Node.Host[Host.length()] = 0;
  uint8_t Binary[16];
  bool Bracketed = Host.Begin != Address.Begin;
  if (inet_pton(AF_INET6, Node.Host, Binary) != 1 &&
      (Bracketed || inet_pton(AF_INET, Node.Host, Binary) != 1))
    return refuse(Why, Entry,
                  Bracketed ? "brackets hold an IPv6 address"
                            : "HOST must be an IPv4 or IPv6 address (names are not resolved)");
  const char *Digits = Colon + 1;
  uint64_t Port;
  if (!readUnsigned(Digits, 65535, Port) || Digits != Address.End || !Port)
    return refuse(Why, Entry, "PORT must be a number from 1 to 65535");
  Node.Port = uint16_t(Port);
  Node.How = Launcher::Tcp;
  return true;
}

// USER and HOST of "[USER@]HOST" are both named: refused here, an empty
// one would fail only when the thread first moves, far from the typo.
// Neither may look like an option.  The last '@' ends USER, as for ssh.
bool checkUserAndHost(Span Entry, Span Target, TextBuffer &Why) {
  const char *HostBegin = Target.End;
  while (HostBegin > Target.Begin && HostBegin[-1] != '@')
    HostBegin--;
  Span Host = {HostBegin, Target.End};
  if (HostBegin > Target.Begin) {
    Span User = {Target.Begin, HostBegin - 1};
    if (!User.length())
      return refuse(Why, Entry, "USER before '@' is empty (ssh:[USER@]HOST, e.g. ssh:alice@node7)");
    if (*User.Begin == '-')
      return refuse(Why, Entry, "USER may not begin with '-'");
  }
  if (!Host.length())
    return refuse(Why, Entry, "HOST after '@' is empty (ssh:[USER@]HOST, e.g. ssh:alice@node7)");
  if (*Host.Begin == '-')
    return refuse(Why, Entry, "HOST may not begin with '-'");
  return true;
}

// "[USER@]HOST" of an ssh launcher into Node.  It becomes one argument of
// the launcher's command line: no word of its own, and no option.
bool readSshTarget(Span Entry, Span Target, NodePlace &Node, TextBuffer &Why) {
  if (!Target.length())
    return refuse(Why, Entry, "ssh needs [USER@]HOST, e.g. ssh:alice@node7");
  if (!checkUserAndHost(Entry, Target, Why))
    return false;
  if (Target.length() >= sizeof Node.Host)
    return refuse(Why, Entry, "[USER@]HOST is longer than ", sizeof Node.Host - 1,
                  " characters");
  for (const char *P = Target.Begin; P < Target.End; P++)
    if (*P <= ' ' || *P == '\'' || *P == '"' || *P == '\\' || *P == 127)
      return refuse(Why, Entry, "[USER@]HOST may not hold spaces, quotes or control characters");
  memcpy(Node.Host, Target.Begin, Target.length());
  Node.Host[Target.length()] = 0;
  Node.How = Launcher::Ssh;
  return true;
}

bool readLauncher(Span Entry, Span How, uint16_t Here, NodePlace &Node, TextBuffer &Why) {
  if (How.is("native")) {
    if (Node.Machine != Here)
      return refuse(Why, Entry, "native runs this machine's ISA (", isaName(Here), ") only; ",
                    isaName(Node.Machine), " needs qemu, tcp:HOST:PORT or ssh:[USER@]HOST");
    Node.How = Launcher::Native;
    return true;
  }
  if (How.is("qemu")) {
    // The node runs this ISA's image natively; qemu-user emulates another.
    if (Node.Machine == Here)
      return refuse(Why, Entry, "qemu runs another ISA than this machine's; ", isaName(Here),
                    " runs native here");
    Node.How = Launcher::Qemu;
    return true;
  }
  Span Kind = How.upTo(':');
  Span Rest = {Kind.End == How.End ? Kind.End : Kind.End + 1, How.End};
  if (Kind.is("tcp"))
    return readAddress(Entry, Rest, Node, Why);
  if (Kind.is("ssh"))
    return readSshTarget(Entry, Rest, Node, Why);
  return refuse(Why, Entry, "LAUNCHER must be native, qemu, tcp:HOST:PORT or ssh:[USER@]HOST");
}

bool readEntry(Span Entry, uint16_t Here, NodePlace (&Nodes)[MaxNodes], int &Count,
               TextBuffer &Why) {
  if (!Entry.length())
    return refuse(Why, Entry, "an empty entry (a ',' too many)");
  const char *After = Entry.Begin;
  uint64_t Id;
  bool Number = readUnsigned(After, uint64_t(1) << 32, Id);
  if (After == Entry.Begin || (Number && (After == Entry.End || *After != ':')))
    return refuse(Why, Entry,
                  "not ID:ISA:LAUNCHER (ISA x86_64 or aarch64, LAUNCHER native, qemu, "
                  "tcp:HOST:PORT or ssh:[USER@]HOST)");
  if (!Number || Id >= uint64_t(MaxNodes))
    return refuse(Why, Entry, "node numbers go from 0 to ", MaxNodes - 1);
  if (Nodes[Id].Machine)
    return refuse(Why, Entry, "node ", Id, " is listed twice");
  Span Isa = Span{After + 1, Entry.End}.upTo(':');
  NodePlace Node = {};
  Node.Machine = machineOf(Isa);
  if (!Node.Machine)
    return refuse(Why, Entry, "ISA must be x86_64 or aarch64");
  if (Isa.End == Entry.End)
    return refuse(Why, Entry, "no LAUNCHER (native, qemu, tcp:HOST:PORT or ssh:[USER@]HOST)");
  if (!readLauncher(Entry, {Isa.End + 1, Entry.End}, Here, Node, Why))
    return false;
  Nodes[Id] = Node;
  if (int(Id) >= Count)
    Count = int(Id + 1);
  return true;
}

} // namespace

const char *isaName(uint16_t Machine) {
  for (const auto &I : Isas)
    if (I.Machine == Machine)
      return I.Name;
  return nullptr;
}

bool readNodeList(const char *List, uint16_t Here, NodePlace (&Nodes)[MaxNodes], int &Count,
                  TextBuffer &Why) {
  for (NodePlace &Node : Nodes)
    Node = {};
  Count = 0;
  Span Rest = {List, List + strlen(List)};
  if (!trimmed(Rest).length()) {
    Why << "the list is empty; node 0 must be this process (" << isaName(Here) << ":native)";
    return false;
  }
  for (;;) {
    Span Entry = Rest.upTo(',');
    if (!readEntry(trimmed(Entry), Here, Nodes, Count, Why))
      return false;
    if (Entry.End == Rest.End)
      break;
    Rest.Begin = Entry.End + 1;
  }
  if (Nodes[0].Machine != Here || Nodes[0].How != Launcher::Native) {
    Why << "node 0 must be this process (" << isaName(Here) << ":native)";
    return false;
  }
  return true;
}

} // namespace popcorn
