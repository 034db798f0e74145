//===- VerifyCallSiteRecords.cpp - Nothing unrecorded lives across a call -===//
//
// The last check before the object is written: at every recorded call, each
// register live across it must be one of the locations its record names.
// Anything else is a value the back end keeps for itself, which a rewrite
// would lose; the program would run on with a wrong value after migrating.
// A compile error here is a bug in popcorn-llc (a back-end transformation
// RecordSafeCodegen.h or RematerializeAcrossCalls.cpp does not yet cover),
// and the message says where.
//
// Runs after prologue/epilogue insertion and the late copy propagation, so
// it sees the registers the code really uses.  Liveness is computed here,
// over the CFG: after prologue insertion, blocks' live-in lists also name
// the callee-saved registers the prologue saves.  A landing pad's
// exception pointer and selector registers are not live on the edge from
// the call to it: the unwinder sets them on the way in.  (aarch64 passes
// them in X0 and X1, and a call whose first argument is 'returned', a C++
// operator= returning *this, keeps X0 as it was: without this, X0 would
// seem to hold a value across the call for the landing pad.)
//
//===----------------------------------------------------------------------===//
#include "CodegenPasses.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/CodeGen/LivePhysRegs.h"
#include "llvm/CodeGen/MachineFunctionPass.h"
#include "llvm/CodeGen/MachineRegisterInfo.h"
#include "llvm/CodeGen/StackMaps.h"
#include "llvm/CodeGen/TargetLowering.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/WithColor.h"
#include <cstdlib>

using namespace llvm;

namespace popcorn {
namespace {

struct VerifyCallSiteRecords : MachineFunctionPass {
  static char ID;
  StringRef IsaName;
  explicit VerifyCallSiteRecords(StringRef IsaName)
      : MachineFunctionPass(ID), IsaName(IsaName) {}
  StringRef getPassName() const override { return "Popcorn verify call-site records"; }
  void getAnalysisUsage(AnalysisUsage &AU) const override {
    AU.setPreservesAll();
    MachineFunctionPass::getAnalysisUsage(AU);
  }
  bool runOnMachineFunction(MachineFunction &MF) override;
};

char VerifyCallSiteRecords::ID = 0;

} // namespace

static bool isRecordedLocation(const MachineInstr &Call, MCPhysReg Reg,
                               const TargetRegisterInfo &TRI) {
  StatepointOpers Operands(&Call);
  for (unsigned I = Operands.getVarIdx(), E = Call.getNumOperands(); I != E; ++I) {
    const MachineOperand &MO = Call.getOperand(I);
    if (MO.isReg() && MO.getReg() && TRI.regsOverlap(MO.getReg(), Reg))
      return true;
  }
  return false;
}

void reportUnrecorded(const MachineInstr &Call, const Twine &Place, StringRef IsaName) {
  const Function &F = Call.getMF()->getFunction();
  std::string Where = F.getParent()->getSourceFileName();
  if (const DebugLoc &Loc = Call.getDebugLoc())
    Where += ":" + std::to_string(Loc.getLine());
  WithColor::error(errs(), "popcorn-llc")
      << Where << ": in function '" << F.getName() << "', the " << IsaName
      << " back end keeps a value of its own in " << Place
      << " across the call with record " << format_hex(StatepointOpers(&Call).getID(), 18)
      << "; no record describes it, so a migration would lose it.  This is a "
         "popcorn-llc bug: please report it with this file.\n";
  // The other ISA's back end runs on another thread: end the process at
  // once, as popcorn-llc's own errors do, without running destructors
  // under it.
  errs().flush();
  std::_Exit(1);
}

bool VerifyCallSiteRecords::runOnMachineFunction(MachineFunction &MF) {
  const TargetRegisterInfo &TRI = *MF.getSubtarget().getRegisterInfo();
  const MachineRegisterInfo &MRI = MF.getRegInfo();
  if (llvm::none_of(MF, [](const MachineBasicBlock &B) {
        return llvm::any_of(B, [](const MachineInstr &MI) { return isRecordedCall(MI); });
      }))
    return false;

  // What the unwinder sets on entering a landing pad.
  SmallVector<MCPhysReg, 2> SetByUnwinder;
  if (const Function &F = MF.getFunction(); F.hasPersonalityFn()) {
    const TargetLowering &TLI = *MF.getSubtarget().getTargetLowering();
    const Constant *Personality = F.getPersonalityFn();
    for (Register Reg : {TLI.getExceptionPointerRegister(Personality),
                         TLI.getExceptionSelectorRegister(Personality)})
      if (Reg.isPhysical())
        SetByUnwinder.push_back(Reg);
  }

  // Backward liveness to a fixed point; a return's own uses seed it.
  DenseMap<const MachineBasicBlock *, BitVector> LiveIn;
  ReversePostOrderTraversal<MachineFunction *> RPO(&MF);
  SmallVector<MachineBasicBlock *, 32> PostOrder(RPO.begin(), RPO.end());
  std::reverse(PostOrder.begin(), PostOrder.end());
  auto liveOut = [&](const MachineBasicBlock &Block, LivePhysRegs &Live) {
    Live.init(TRI);
    for (const MachineBasicBlock *Succ : Block.successors())
      if (auto It = LiveIn.find(Succ); It != LiveIn.end())
        for (unsigned Reg : It->second.set_bits())
          if (!Succ->isEHPad() || llvm::none_of(SetByUnwinder, [&](MCPhysReg Set) {
                return TRI.regsOverlap(Reg, Set);
              }))
            Live.addReg(Reg);
  };
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (MachineBasicBlock *Block : PostOrder) {
      LivePhysRegs Live;
      liveOut(*Block, Live);
      for (const MachineInstr &MI : reverse(*Block))
        Live.stepBackward(MI);
      BitVector In(TRI.getNumRegs());
      for (MCPhysReg Reg : Live)
        In.set(Reg);
      BitVector &Old = LiveIn[Block];
      if (Old != In) {
        Old = std::move(In);
        Changed = true;
      }
    }
  }

  for (MachineBasicBlock *Block : PostOrder) {
    LivePhysRegs Live;
    liveOut(*Block, Live);
    for (const MachineInstr &MI : reverse(*Block)) {
      if (isRecordedCall(MI))
        for (MCPhysReg Reg : Live)
          if (!MRI.isReserved(Reg) && !MI.modifiesRegister(Reg, &TRI) &&
              !isRecordedLocation(MI, Reg, TRI))
            reportUnrecorded(MI, TRI.getName(Reg), IsaName);
      Live.stepBackward(MI);
    }
  }
  return false;
}

MachineFunctionPass *createVerifyCallSiteRecordsPass(llvm::StringRef IsaName) {
  return new VerifyCallSiteRecords(IsaName);
}

} // namespace popcorn
