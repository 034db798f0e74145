//===- Messages.cpp - The protocol's messages, checked --------------------===//

#include "coherence/Messages.h"

namespace popcorn {

const char *describe(MessageError E) {
  switch (E) {
  case MessageError::None:
    return "no error";
  case MessageError::BadNode:
    return "from a node the program does not have";
  case MessageError::NotCoherence:
    return "not a coherence message for this end";
  case MessageError::BadSize:
    return "payload of the wrong size";
  case MessageError::BadField:
    return "a field out of range";
  case MessageError::Unaligned:
    return "an address not on a page boundary";
  case MessageError::OutsideProgram:
    return "an address outside the program";
  case MessageError::Unmapped:
    return "an answer about an unmapped page";
  }
  return "?";
}

// Payloads come straight from a receive buffer: copied out, never cast.
template <typename T> static T load(const uint8_t *Payload) {
  T Value;
  __builtin_memcpy(&Value, Payload, sizeof(T));
  return Value;
}

static MessageError checkPage(uint64_t Address) {
  if (Address % PageBytes)
    return MessageError::Unaligned;
  if (Address == 0 || Address >= UserSpaceEnd)
    return MessageError::OutsideProgram;
  return MessageError::None;
}

static MessageError decodeAsk(const MessageHeader &Header, const uint8_t *Payload,
                              NodeEvent &Out) {
  if (Header.Bytes != sizeof(PageAskMessage))
    return MessageError::BadSize;
  auto Ask = load<PageAskMessage>(Payload);
  if (Ask.Pad || (Ask.Access != PageAccessRead && Ask.Access != PageAccessWrite))
    return MessageError::BadField;
  Out.What = NodeEvent::Ask;
  Out.Wanted = Access(Ask.Access);
  Out.Page = Ask.Address;
  return checkPage(Ask.Address);
}

static MessageError decodeAnswer(const MessageHeader &Header, const uint8_t *Payload,
                                 const PageDirectory &Directory, NodeEvent &Out) {
  bool Recalled = Header.Type == MessageType::PageRecalled;
  uint64_t Expected = sizeof(PageAddressMessage) + (Recalled ? PageBytes : 0);
  if (Header.Bytes != Expected)
    return MessageError::BadSize;
  Out.What = Recalled ? NodeEvent::Recalled : NodeEvent::Invalidated;
  Out.Page = load<PageAddressMessage>(Payload).Address;
  Out.Data = Recalled ? Payload + sizeof(PageAddressMessage) : nullptr;
  if (MessageError E = checkPage(Out.Page); E != MessageError::None)
    return E;
  if (!Directory.answerable(Out.Page))
    return MessageError::Unmapped;
  return MessageError::None;
}

MessageError decodeFromNode(const MessageHeader &Header, const uint8_t *Payload, int From,
                            const PageDirectory &Directory, NodeEvent &Out) {
  if (From < 0 || From >= Directory.nodeCount())
    return MessageError::BadNode;
  Out = NodeEvent{NodeEvent::Ask, From, Access::Read, 0, nullptr};
  switch (Header.Type) {
  case MessageType::PageAsk:
    return decodeAsk(Header, Payload, Out);
  case MessageType::PageInvalidated:
  case MessageType::PageRecalled:
    return decodeAnswer(Header, Payload, Directory, Out);
  default:
    return MessageError::NotCoherence;
  }
}

DirectoryError apply(PageDirectory &Directory, const NodeEvent &Event, ActionList &Out) {
  switch (Event.What) {
  case NodeEvent::Ask:
    return Directory.request(Event.From, Event.Page, Event.Wanted, Out);
  case NodeEvent::Invalidated:
    return Directory.invalidated(Event.From, Event.Page, Out);
  case NodeEvent::Recalled:
    return Directory.recalled(Event.From, Event.Page, Out);
  }
  return DirectoryError::Unexpected;
}

static MessageError decodeGrant(const MessageHeader &Header, const uint8_t *Payload,
                                HomeEvent &Out) {
  if (Header.Bytes < sizeof(PageGrantMessage))
    return MessageError::BadSize;
  auto Grant = load<PageGrantMessage>(Payload);
  if ((Grant.Access != PageAccessRead && Grant.Access != PageAccessWrite) ||
      Grant.Data > GrantFromHome)
    return MessageError::BadField;
  uint64_t Expected = sizeof(Grant) + (Grant.Data == GrantFromHome ? PageBytes : 0);
  if (Header.Bytes != Expected)
    return MessageError::BadSize;
  Out.What = HomeEvent::Grant;
  Out.Granted = Access(Grant.Access);
  Out.Data = GrantData(Grant.Data);
  Out.Page = Grant.Address;
  Out.Bytes = Grant.Data == GrantFromHome ? Payload + sizeof(Grant) : nullptr;
  return checkPage(Grant.Address);
}

static MessageError decodeRecall(const MessageHeader &Header, const uint8_t *Payload,
                                 HomeEvent &Out) {
  if (Header.Bytes != sizeof(PageRecallMessage))
    return MessageError::BadSize;
  auto Recall = load<PageRecallMessage>(Payload);
  if (Recall.Pad || Recall.Mode > RecallInvalidate)
    return MessageError::BadField;
  Out.What = HomeEvent::Recall;
  Out.Mode = RecallMode(Recall.Mode);
  Out.Page = Recall.Address;
  return checkPage(Recall.Address);
}

MessageError decodeFromHome(const MessageHeader &Header, const uint8_t *Payload,
                            HomeEvent &Out) {
  Out = HomeEvent{HomeEvent::Denied, Access::Read, GrantData::Held, RecallMode::Downgrade, 0,
                  nullptr};
  switch (Header.Type) {
  case MessageType::PageGrant:
    return decodeGrant(Header, Payload, Out);
  case MessageType::PageRecall:
    return decodeRecall(Header, Payload, Out);
  case MessageType::PageDenied:
  case MessageType::PageInvalidate:
    if (Header.Bytes != sizeof(PageAddressMessage))
      return MessageError::BadSize;
    Out.What = Header.Type == MessageType::PageDenied ? HomeEvent::Denied : HomeEvent::Invalidate;
    Out.Page = load<PageAddressMessage>(Payload).Address;
    return checkPage(Out.Page);
  default:
    return MessageError::NotCoherence;
  }
}

} // namespace popcorn
