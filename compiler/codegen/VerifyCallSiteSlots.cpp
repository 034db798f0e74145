//===- VerifyCallSiteSlots.cpp - No unrecorded stack slot lives across a call //
//
// The stack half of VerifyCallSiteRecords: at every recorded call, each
// stack slot that the code after the call reads before writing it must be
// one the record names.  A rewrite fills the recorded slots of the
// destination frame and nothing else; any other slot holds what happened
// to be there on the destination ISA, and the code reads it back as its own.
//
// The register allocator's spill slots are where this happens: at -O0 the
// fast allocator keeps every value live across a call in a slot of its own,
// and aarch64 kept the address of a native object there (x29-0x60, stored to
// [sp,#0x88] before the call and reloaded after it), which is a different
// address on x86-64.  Such values must be computed again after the call
// (RematerializeAcrossCalls.cpp) or carried in a recorded slot.
//
// Runs after register allocation and the statepoint fix-up, while slots are
// still frame indices: prologue insertion turns them into addresses.  An
// instruction that names a slot reads it, but for a store that overwrites
// the whole slot and the lifetime markers; taking a slot's address is a read.
// Calls whose records a rewrite never resumes (incomplete, or with a
// va_list live) are not checked: nothing is written into their frames.
//
//===----------------------------------------------------------------------===//
#include "CodegenPasses.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/CodeGen/MachineFrameInfo.h"
#include "llvm/CodeGen/MachineFunctionPass.h"
#include "llvm/CodeGen/StackMaps.h"
#include "popcorn/CallSiteRecord.h"
#include "llvm/Support/Debug.h"
#include <optional>

#define DEBUG_TYPE "popcorn-verify-call-site-slots"

using namespace llvm;

namespace popcorn {
namespace {

struct VerifyCallSiteSlots : MachineFunctionPass {
  static char ID;
  StringRef IsaName;
  explicit VerifyCallSiteSlots(StringRef IsaName) : MachineFunctionPass(ID), IsaName(IsaName) {}
  StringRef getPassName() const override { return "Popcorn verify call-site slots"; }
  void getAnalysisUsage(AnalysisUsage &AU) const override {
    AU.setPreservesAll();
    MachineFunctionPass::getAnalysisUsage(AU);
  }
  bool runOnMachineFunction(MachineFunction &MF) override;
};

char VerifyCallSiteSlots::ID = 0;

// The function's frame objects, fixed ones (negative indices) included, as
// bits of a vector.
struct SlotNumbering {
  int Begin;
  unsigned Count;
  explicit SlotNumbering(const MachineFrameInfo &MFI)
      : Begin(MFI.getObjectIndexBegin()), Count(MFI.getObjectIndexEnd() - Begin) {}
  unsigned bit(int FrameIndex) const { return FrameIndex - Begin; }
  int slot(unsigned Bit) const { return int(Bit) + Begin; }
};

} // namespace

// The program's own stack objects (allocas) are the IR's business: every
// record of a function names those left on the native stack, and a value
// carried across a call in one is named by that call's record
// (RecordCallSites.cpp).  The back end's own slots are checked here: spill
// slots, temporaries (x87 conversions, by-value copies) and the fixed
// objects of incoming arguments.
static bool isBackEndSlot(const MachineFrameInfo &MFI, int FrameIndex) {
  return MFI.isSpillSlotObjectIndex(FrameIndex) || !MFI.getObjectAllocation(FrameIndex);
}

// The slot a store begins a value in, if MI is one: a store, and nothing
// else, through its one slot operand, filling the slot or spilling a value
// into it (of any width: spill slot colouring gives one slot to values of
// several sizes).
static std::optional<int> overwrittenSlot(const MachineInstr &MI, const MachineFrameInfo &MFI) {
  if (!MI.mayStore() || MI.mayLoad() || !MI.hasOneMemOperand())
    return std::nullopt;
  std::optional<int> Slot;
  for (const MachineOperand &MO : MI.operands())
    if (MO.isFI()) {
      if (Slot)
        return std::nullopt;
      Slot = MO.getIndex();
    }
  if (!Slot || MFI.isSpillSlotObjectIndex(*Slot))
    return Slot;
  LocationSize Size = (*MI.memoperands_begin())->getSize();
  if (Size.hasValue() && !Size.isScalable() &&
      Size.getValue().getFixedValue() == uint64_t(MFI.getObjectSize(*Slot)))
    return Slot;
  return std::nullopt;
}

// Steps slot liveness back over MI.
static void stepBackward(const MachineInstr &MI, BitVector &Live, const SlotNumbering &Slots,
                         const MachineFrameInfo &MFI) {
  if (MI.isDebugInstr())
    return;
  if (MI.getOpcode() == TargetOpcode::LIFETIME_START ||
      MI.getOpcode() == TargetOpcode::LIFETIME_END) {
    Live.reset(Slots.bit(MI.getOperand(0).getIndex()));
    return;
  }
  std::optional<int> Overwritten = overwrittenSlot(MI, MFI);
  if (Overwritten)
    Live.reset(Slots.bit(*Overwritten));
  for (const MachineOperand &MO : MI.operands())
    if (MO.isFI() && MO.getIndex() != Overwritten)
      Live.set(Slots.bit(MO.getIndex()));
}

// Marks the slots MI may write: all it names but the ones it only loads
// from.  Taking an address counts, and so do lifetime markers (harmless:
// nothing is live across them).
static void stepForward(const MachineInstr &MI, BitVector &Written, const SlotNumbering &Slots) {
  if (MI.isDebugInstr() || (MI.mayLoad() && !MI.mayStore()))
    return;
  for (const MachineOperand &MO : MI.operands())
    if (MO.isFI())
      Written.set(Slots.bit(MO.getIndex()));
}

static bool isRecordedSlot(const MachineInstr &Call, int FrameIndex) {
  StatepointOpers Operands(&Call);
  for (unsigned I = Operands.getVarIdx(), E = Call.getNumOperands(); I != E; ++I) {
    const MachineOperand &MO = Call.getOperand(I);
    if (MO.isFI() && MO.getIndex() == FrameIndex)
      return true;
  }
  return false;
}

// Whether a rewrite may resume Call: its record is complete and no va_list
// (which points into the native frame) may be live there.
static bool isResumable(const MachineInstr &Call) {
  StatepointOpers Operands(&Call);
  unsigned HeaderIdx = Operands.getNumDeoptArgsIdx() + 2; // after ConstantOp
  if (Operands.getNumDeoptArgs() == 0 || !Call.getOperand(HeaderIdx).isImm())
    return false;
  uint64_t Header = Call.getOperand(HeaderIdx).getImm();
  return (Header & CSR_COMPLETE) && !(Header & CSR_VA_LIST);
}

static std::string describeSlot(const MachineFrameInfo &MFI, int FrameIndex) {
  std::string Kind = MFI.isFixedObjectIndex(FrameIndex) ? "fixed stack slot"
                     : MFI.isSpillSlotObjectIndex(FrameIndex) ? "spill slot"
                                                              : "stack slot";
  return Kind + " " + std::to_string(FrameIndex) + " (" +
         std::to_string(MFI.getObjectSize(FrameIndex)) + " bytes)";
}

bool VerifyCallSiteSlots::runOnMachineFunction(MachineFunction &MF) {
  if (llvm::none_of(MF, [](const MachineBasicBlock &B) {
        return llvm::any_of(B, [](const MachineInstr &MI) { return isRecordedCall(MI); });
      }))
    return false;
  const MachineFrameInfo &MFI = MF.getFrameInfo();
  SlotNumbering Slots(MFI);
  ReversePostOrderTraversal<MachineFunction *> RPO(&MF);
  SmallVector<MachineBasicBlock *, 32> Order(RPO.begin(), RPO.end());

  // Backward liveness, as VerifyCallSiteRecords computes it for registers,
  // and forward the slots every path has written.  A slot some path reaches
  // the call without writing holds, on the paths that read it after the
  // call, a value the IR leaves undefined: a phi's undef input (a loop's
  // value on its first iteration, and again each time an outer loop enters
  // it: sqlite3.c's fts3FilterMethod), which the register coalescer gave
  // the same slot as the defined inputs.  A value the code needs is
  // defined before every use, and a value the back end computes once (the
  // -O0 frame base) is written on every path.  Incoming arguments are
  // written by the caller.
  DenseMap<const MachineBasicBlock *, BitVector> LiveIn, WrittenOut;
  auto liveOut = [&](const MachineBasicBlock &Block) {
    BitVector Live(Slots.Count);
    for (const MachineBasicBlock *Succ : Block.successors())
      if (auto It = LiveIn.find(Succ); It != LiveIn.end())
        Live |= It->second;
    return Live;
  };
  // Blocks not yet visited count as having written everything (the
  // greatest fixed point of the intersection).
  auto writtenIn = [&](const MachineBasicBlock &Block) {
    BitVector Written(Slots.Count, !Block.pred_empty());
    if (Block.pred_empty())
      for (int I = MFI.getObjectIndexBegin(); I < 0; ++I)
        Written.set(Slots.bit(I));
    for (const MachineBasicBlock *Pred : Block.predecessors())
      if (auto It = WrittenOut.find(Pred); It != WrittenOut.end())
        Written &= It->second;
    return Written;
  };
  auto update = [](BitVector &Old, BitVector &&New) {
    if (Old == New)
      return false;
    Old = std::move(New);
    return true;
  };
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (MachineBasicBlock *Block : llvm::reverse(Order)) {
      BitVector Live = liveOut(*Block);
      for (const MachineInstr &MI : llvm::reverse(*Block))
        stepBackward(MI, Live, Slots, MFI);
      Changed |= update(LiveIn[Block], std::move(Live));
    }
  }
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (MachineBasicBlock *Block : Order) {
      BitVector Written = writtenIn(*Block);
      for (const MachineInstr &MI : *Block)
        stepForward(MI, Written, Slots);
      Changed |= update(WrittenOut[Block], std::move(Written));
    }
  }

  for (MachineBasicBlock *Block : Order) {
    // The slots live after each instruction, then a forward walk with the
    // slots written before it.
    SmallVector<BitVector, 16> LiveAfter;
    BitVector Live = liveOut(*Block);
    for (const MachineInstr &MI : llvm::reverse(*Block)) {
      if (isRecordedCall(MI))
        LiveAfter.push_back(Live);
      stepBackward(MI, Live, Slots, MFI);
    }
    BitVector Written = writtenIn(*Block);
    for (const MachineInstr &MI : *Block) {
      if (isRecordedCall(MI)) {
        BitVector Carried = LiveAfter.pop_back_val();
        Carried &= Written;
        for (unsigned Bit : Carried.set_bits()) {
          int FrameIndex = Slots.slot(Bit);
          if (isBackEndSlot(MFI, FrameIndex) && !MFI.isDeadObjectIndex(FrameIndex) &&
              !isRecordedSlot(MI, FrameIndex) && isResumable(MI))
            reportUnrecorded(MI, describeSlot(MFI, FrameIndex), IsaName);
        }
      }
      stepForward(MI, Written, Slots);
    }
  }
  LLVM_DEBUG(dbgs() << "popcorn: " << MF.getName() << ": no unrecorded slot across a call\n");
  return false;
}

MachineFunctionPass *createVerifyCallSiteSlotsPass(StringRef IsaName) {
  return new VerifyCallSiteSlots(IsaName);
}

} // namespace popcorn
