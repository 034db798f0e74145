//===- LibcCallLowering.cpp - Calls into x86-64 musl, its way -------------===//
//
// A program's IR passes arguments as clang's front end lowered them for
// aarch64.  The x86-64 back end places each IR argument by the x86-64
// convention, which gives the place x86-64 musl reads for most signatures,
// but not for all (LibcCallRules.def lists them, with why).  For those, the
// call is rebuilt as clang would have lowered it for x86-64.
//
// Only direct calls are rewritten: an indirect call does not name its
// callee.
//
//===----------------------------------------------------------------------===//
#include "LibcCallLowering.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace popcorn {
namespace {

enum class RuleKind { Extend, Byval, Complex };

struct LibcCallRule {
  const char *Function;
  RuleKind Kind;
  unsigned Arg = 0;                                // Extend, Byval
  Attribute::AttrKind Extension = Attribute::None; // Extend
  uint64_t Size = 0, Alignment = 0;                // Byval
};

const LibcCallRule Rules[] = {
#define LIBC_EXTEND(F, A, E) {#F, RuleKind::Extend, A, Attribute::E},
#define LIBC_BYVAL(F, A, S, AL) {#F, RuleKind::Byval, A, Attribute::None, S, AL},
#define LIBC_COMPLEX(F) {#F, RuleKind::Complex},
#include "LibcCallRules.def"
};

// The direct calls to F (a use as an argument, a stored address, is none).
SmallVector<CallInst *, 4> directCalls(Function &F) {
  SmallVector<CallInst *, 4> Calls;
  for (User *U : F.users())
    if (auto *Call = dyn_cast<CallInst>(U); Call && Call->getCalledOperand() == &F)
      Calls.push_back(Call);
  return Calls;
}

// The x86-64 back end extends the argument only if the call says so.
void extendArgument(CallInst &Call, const LibcCallRule &Rule) {
  Call.addParamAttr(Rule.Arg, Rule.Extension);
}

// The argument already points to a copy the caller made; byval makes the
// back end copy it onto the stack, where x86-64 reads it.
void passByValue(CallInst &Call, const LibcCallRule &Rule) {
  LLVMContext &Context = Call.getContext();
  Type *Bytes = ArrayType::get(Type::getInt8Ty(Context), Rule.Size);
  Call.addParamAttr(Rule.Arg, Attribute::getWithByValType(Context, Bytes));
  Call.removeParamAttr(Rule.Arg, Attribute::Alignment);
  Call.addParamAttr(Rule.Arg, Attribute::getWithAlignment(Context, Align(Rule.Alignment)));
}

// A complex value's IR type: {T, T} or [2 x T] with T float or fp128.
bool isComplexOf(Type *Ty, Type *Element) {
  if (auto *Array = dyn_cast<ArrayType>(Ty))
    return Array->getNumElements() == 2 && Array->getElementType() == Element;
  auto *Struct = dyn_cast<StructType>(Ty);
  return Struct && Struct->getNumElements() == 2 && Struct->getElementType(0) == Element &&
         Struct->getElementType(1) == Element;
}

// Rebuilds one call to a complex function; the arguments and the result of
// other types keep their places.
class ComplexCall {
public:
  explicit ComplexCall(CallInst &Call)
      : Call(Call), B(&Call), Float(B.getFloatTy()), Quad(Type::getFP128Ty(Call.getContext())),
        QuadPair(StructType::get(Quad, Quad)), QuadAlign(16) {}

  void rewrite() {
    Type *Result = Call.getType();
    Value *ResultSlot = nullptr;
    if (isComplexOf(Result, Quad)) {
      ResultSlot = addQuadPairSlot();
      addSlotArgument(ResultSlot, Attribute::getWithStructRetType(Call.getContext(), QuadPair));
      Result = B.getVoidTy();
    } else if (isComplexOf(Result, Float)) {
      Result = floatPairVector();
    }
    for (Use &Arg : Call.args())
      lowerArgument(Arg.get(), Call.getAttributes().getParamAttrs(Arg.getOperandNo()));
    replaceCall(Result, ResultSlot);
  }

private:
  CallInst &Call;
  IRBuilder<> B;
  Type *Float, *Quad;
  StructType *QuadPair;
  Align QuadAlign;
  SmallVector<Value *, 4> Args;
  SmallVector<Type *, 4> Params;
  SmallVector<AttributeSet, 4> ArgAttributes;

  Type *floatPairVector() { return FixedVectorType::get(Float, 2); }

  void addArgument(Value *V, AttributeSet Attributes) {
    Args.push_back(V);
    Params.push_back(V->getType());
    ArgAttributes.push_back(Attributes);
  }
  // A complex long double slot, passed as sret or byval.
  void addSlotArgument(Value *Slot, Attribute How) {
    LLVMContext &Context = Call.getContext();
    addArgument(Slot,
                AttributeSet::get(Context, {How, Attribute::getWithAlignment(Context, QuadAlign)}));
  }

  void lowerArgument(Value *Arg, AttributeSet Attributes) {
    if (isComplexOf(Arg->getType(), Float))
      return addArgument(packFloatPair(Arg), AttributeSet());
    if (isComplexOf(Arg->getType(), Quad))
      return addSlotArgument(storeQuadPair(Arg),
                             Attribute::getWithByValType(Call.getContext(), QuadPair));
    addArgument(Arg, Attributes);
  }

  // One vector in one SSE register, as x86-64 passes two floats of a struct.
  Value *packFloatPair(Value *Pair) {
    Value *Vector = PoisonValue::get(floatPairVector());
    for (unsigned I = 0; I != 2; ++I)
      Vector = B.CreateInsertElement(Vector, B.CreateExtractValue(Pair, I), I);
    return Vector;
  }

  // A native stack slot, live only around the call: libc neither keeps its
  // address nor calls back, so no migration can see it.
  Value *addQuadPairSlot() {
    Function &Caller = *Call.getFunction();
    IRBuilder<> Entry(&Caller.getEntryBlock(), Caller.getEntryBlock().getFirstInsertionPt());
    AllocaInst *Slot = Entry.CreateAlloca(QuadPair);
    Slot->setAlignment(QuadAlign);
    B.CreateLifetimeStart(Slot);
    IRBuilder<>(Call.getNextNode()).CreateLifetimeEnd(Slot);
    return Slot;
  }

  Value *storeQuadPair(Value *Pair) {
    Value *Slot = addQuadPairSlot();
    for (unsigned I = 0; I != 2; ++I)
      B.CreateAlignedStore(B.CreateExtractValue(Pair, I), B.CreateStructGEP(QuadPair, Slot, I),
                           QuadAlign);
    return Slot;
  }

  void replaceCall(Type *Result, Value *ResultSlot) {
    SmallVector<OperandBundleDef, 1> Bundles;
    Call.getOperandBundlesAsDefs(Bundles);
    CallInst *New = B.CreateCall(FunctionType::get(Result, Params, false), Call.getCalledOperand(),
                                 Args, Bundles);
    AttributeList Old = Call.getAttributes();
    New->setAttributes(AttributeList::get(
        Call.getContext(), Old.getFnAttrs(),
        Result == Call.getType() ? Old.getRetAttrs() : AttributeSet(), ArgAttributes));
    // The call now reads and writes memory through the slots.
    if (ResultSlot || New->hasByValArgument())
      New->removeFnAttr(Attribute::Memory);
    New->setCallingConv(Call.getCallingConv());
    New->setDebugLoc(Call.getDebugLoc());
    Call.replaceAllUsesWith(resultOf(New, ResultSlot));
    Call.eraseFromParent();
  }

  // The result as the program's IR has it: {T, T}.
  Value *resultOf(CallInst *New, Value *ResultSlot) {
    Type *Pair = Call.getType();
    if (Pair == New->getType())
      return New;
    IRBuilder<> After(Call.getNextNode());
    Value *Result = PoisonValue::get(Pair);
    for (unsigned I = 0; I != 2; ++I) {
      Value *Part =
          ResultSlot ? After.CreateAlignedLoad(Quad, After.CreateStructGEP(QuadPair, ResultSlot, I),
                                               QuadAlign)
                     : After.CreateExtractElement(New, I);
      Result = After.CreateInsertValue(Result, Part, I);
    }
    return Result;
  }
};

void applyRule(CallInst &Call, const LibcCallRule &Rule) {
  switch (Rule.Kind) {
  case RuleKind::Extend:
    return extendArgument(Call, Rule);
  case RuleKind::Byval:
    return passByValue(Call, Rule);
  case RuleKind::Complex:
    return ComplexCall(Call).rewrite();
  }
}

} // namespace

void lowerLibcCallsForX86(Module &M) {
  for (const LibcCallRule &Rule : Rules) {
    Function *F = M.getFunction(Rule.Function);
    // A definition in the program is the program's own function.
    if (!F || !F->isDeclaration())
      continue;
    for (CallInst *Call : directCalls(*F))
      applyRule(*Call, Rule);
  }
}

} // namespace popcorn
