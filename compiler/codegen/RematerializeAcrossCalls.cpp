//===- RematerializeAcrossCalls.cpp - No back-end constant crosses a record ===//
//
// A rewrite writes the values a call-site record names and nothing else.  The
// back end also keeps values of its own across calls: instruction selection
// merges equal constants and global addresses within a block, and aarch64's
// local stack slot allocation computes a frame base once at entry for slots
// beyond an instruction's reach.  After a rewrite, the register that held
// such a value holds whatever the destination ISA put there.
//
// These values are cheap to compute again (from constants, frame indices and
// reserved registers).  Every
// use that a recorded call separates from its definition gets its own copy of
// the definition, placed after that call: no such value is live across one.
// Runs on SSA machine code, before register allocation.
//
//===----------------------------------------------------------------------===//
#include "CodegenPasses.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/CodeGen/MachineFunctionPass.h"
#include "llvm/CodeGen/MachineRegisterInfo.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "popcorn-remat-across-calls"

using namespace llvm;

namespace popcorn {

bool isRecordedCall(const MachineInstr &MI) {
  return MI.getOpcode() == TargetOpcode::STATEPOINT;
}

namespace {

// A stretch of a block between two recorded calls: a value defined in one
// segment and used in another has crossed a call.
struct Segment {
  MachineBasicBlock *Block;
  unsigned Index; // recorded calls before it in the block
  bool operator==(const Segment &O) const { return Block == O.Block && Index == O.Index; }
};

struct RematerializeAcrossCalls : MachineFunctionPass {
  static char ID;
  RematerializeAcrossCalls() : MachineFunctionPass(ID) {}
  StringRef getPassName() const override { return "Popcorn rematerialize across calls"; }
  bool runOnMachineFunction(MachineFunction &MF) override;
};

char RematerializeAcrossCalls::ID = 0;

} // namespace

// Values computed from nothing but constants, frame indices and reserved
// registers: rematerializable ones, the frame bases local stack slot
// allocation creates (an add to a frame index, which aarch64 does not mark
// rematerializable), and short chains of such adds (a native array's
// element address, which loop strength reduction's expansions hoist to the
// entry block and copy into a loop's induction variable: bzip2's
// BZ2_hbMakeCodeLengths kept `weight + 4` in x23 across a call).
constexpr unsigned MaxChain = 4;

static bool isRecomputable(const MachineInstr &MI, const MachineRegisterInfo &MRI,
                           const TargetInstrInfo &TII, unsigned Depth = 0) {
  if (Depth > MaxChain || MI.getNumExplicitDefs() != 1 || !MI.getOperand(0).isReg() ||
      !MI.getOperand(0).getReg().isVirtual() || MI.getOperand(0).getSubReg() ||
      !MRI.hasOneDef(MI.getOperand(0).getReg()))
    return false;
  if (TII.isTriviallyReMaterializable(MI))
    return true;
  if (MI.mayLoadOrStore() || MI.hasUnmodeledSideEffects() || MI.isCall() || MI.isPHI() ||
      (MI.isCopyLike() && !MI.isCopy()) || MI.getNumImplicitOperands() != 0)
    return false;
  bool UsesFrame = false;
  for (const MachineOperand &MO : llvm::drop_begin(MI.operands())) {
    if (MO.isFI()) {
      UsesFrame = true;
    } else if (MO.isReg() && MO.getReg().isVirtual()) {
      const MachineInstr *Def = MRI.getUniqueVRegDef(MO.getReg());
      if (MO.getSubReg() || !Def || !isRecomputable(*Def, MRI, TII, Depth + 1))
        return false;
      UsesFrame = true;
    } else if (MO.isReg() && !MRI.isReserved(MO.getReg())) {
      return false;
    }
  }
  return UsesFrame;
}

// Computes Def's value again into Reg before At, and the chain it reads.
static void recompute(MachineBasicBlock &Block, MachineBasicBlock::iterator At, Register Reg,
                      const MachineInstr &Def, const TargetInstrInfo &TII,
                      const TargetRegisterInfo &TRI) {
  if (TII.isTriviallyReMaterializable(Def)) {
    TII.reMaterialize(Block, At, Reg, 0, Def, TRI);
    return;
  }
  MachineRegisterInfo &MRI = Block.getParent()->getRegInfo();
  MachineInstr *Copy = Block.getParent()->CloneMachineInstr(&Def);
  Copy->getOperand(0).setReg(Reg);
  for (MachineOperand &MO : llvm::drop_begin(Copy->operands())) {
    if (!MO.isReg() || !MO.getReg().isVirtual())
      continue;
    Register Input = MRI.createVirtualRegister(MRI.getRegClass(MO.getReg()));
    recompute(Block, At, Input, *MRI.getUniqueVRegDef(MO.getReg()), TII, TRI);
    MO.setReg(Input);
    MO.setIsKill(false);
  }
  Block.insert(At, Copy);
}

// The first point of segment Index of Block: after its Index-th recorded call.
static MachineBasicBlock::iterator segmentStart(MachineBasicBlock &Block, unsigned Index) {
  if (Index == 0)
    return Block.SkipPHIsLabelsAndDebug(Block.begin());
  for (MachineInstr &MI : Block)
    if (isRecordedCall(MI) && --Index == 0)
      return std::next(MI.getIterator());
  llvm_unreachable("fewer recorded calls in the block than its segments");
}

bool RematerializeAcrossCalls::runOnMachineFunction(MachineFunction &MF) {
  DenseMap<const MachineInstr *, unsigned> SegmentOf;
  DenseMap<const MachineBasicBlock *, unsigned> CallsIn;
  bool HasRecordedCall = false;
  for (MachineBasicBlock &Block : MF) {
    unsigned Calls = 0;
    for (MachineInstr &MI : Block) {
      SegmentOf[&MI] = Calls;
      if (isRecordedCall(MI))
        ++Calls;
    }
    CallsIn[&Block] = Calls;
    HasRecordedCall |= Calls != 0;
  }
  if (!HasRecordedCall)
    return false;

  MachineRegisterInfo &MRI = MF.getRegInfo();
  const TargetInstrInfo &TII = *MF.getSubtarget().getInstrInfo();
  const TargetRegisterInfo &TRI = *MF.getSubtarget().getRegisterInfo();
  SmallVector<MachineInstr *, 32> Definitions;
  for (MachineBasicBlock &Block : MF)
    for (MachineInstr &MI : Block)
      if (isRecomputable(MI, MRI, TII))
        Definitions.push_back(&MI);

  bool Changed = false;
  for (MachineInstr *Def : Definitions) {
    Register Reg = Def->getOperand(0).getReg();
    Segment DefSegment{Def->getParent(), SegmentOf[Def]};
    SmallVector<std::pair<Segment, Register>, 4> Copies;
    for (MachineOperand &Use : make_early_inc_range(MRI.use_nodbg_operands(Reg))) {
      MachineInstr &User = *Use.getParent();
      // A phi reads its operand at the end of the incoming block.
      Segment UseSegment =
          User.isPHI()
              ? Segment{User.getOperand(User.getOperandNo(&Use) + 1).getMBB(), 0}
              : Segment{User.getParent(), SegmentOf[&User]};
      if (User.isPHI())
        UseSegment.Index = CallsIn[UseSegment.Block];
      if (UseSegment == DefSegment)
        continue;
      auto Known = llvm::find_if(Copies, [&](auto &C) { return C.first == UseSegment; });
      Register Copy;
      if (Known != Copies.end()) {
        Copy = Known->second;
      } else {
        Copy = MRI.createVirtualRegister(MRI.getRegClass(Reg));
        recompute(*UseSegment.Block, segmentStart(*UseSegment.Block, UseSegment.Index), Copy,
                  *Def, TII, TRI);
        Copies.push_back({UseSegment, Copy});
        LLVM_DEBUG(dbgs() << "popcorn: " << MF.getName() << ": " << printReg(Reg, &TRI)
                          << " computed again in " << printMBBReference(*UseSegment.Block)
                          << " after recorded call " << UseSegment.Index << "\n");
      }
      Use.setReg(Copy);
      Use.setIsKill(false);
      Changed = true;
    }
  }
  return Changed;
}

MachineFunctionPass *createRematerializeAcrossCallsPass() { return new RematerializeAcrossCalls(); }

} // namespace popcorn
