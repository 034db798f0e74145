//===- popcorn-llc.cpp - One optimized IR module to one object per ISA ----===//
//
// The back-end half of popcorn-clang (docs/architecture.md).  Reads the module
// the front end and middle end produced once for the canonical ISA, runs each
// ISA's back end on its own copy, and writes one multi-ISA object: the host
// ISA's object carrying every other ISA's object in a section.
//
// Because every ISA lowers the same optimized IR, call sites and the values
// live across them correspond one to one across ISAs.
//
// Each ISA reads the bitcode into a context of its own rather than cloning
// one module: the copies then share nothing, so the back ends run in
// parallel (a compile takes one back end's wall time, not the sum), and
// CloneModule is avoided, which leaves a blockaddress in a global's
// initializer (a computed-goto table) pointing into the original function.
//
//===----------------------------------------------------------------------===//
#include "RetargetModule.h"
#include "../codegen/CodegenPasses.h"
#include "../plugin/ObjectStackSlot.h"
#include "../plugin/RecordSafeCodegen.h"
#include "popcorn/Isa.h"
#include "popcorn/MultiIsaFile.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/CodeGen/MachineFunctionPass.h"
#include "llvm/CodeGen/MachineModuleInfo.h"
#include "llvm/CodeGen/Passes.h"
#include "llvm/CodeGen/TargetPassConfig.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/PrettyStackTrace.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/thread.h"
#include "llvm/Target/TargetMachine.h"
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <mutex>

using namespace llvm;
using namespace popcorn;

static cl::OptionCategory Category("popcorn-llc options");
static cl::opt<std::string> InputFile(cl::Positional, cl::desc("<input bitcode>"),
                                      cl::Required, cl::cat(Category));
static cl::opt<std::string> OutputFile("o", cl::desc("Output multi-ISA object"),
                                       cl::value_desc("file"), cl::Required,
                                       cl::cat(Category));
static cl::opt<char> OptLevel("O", cl::desc("Optimization level: 0, 1, 2, 3"),
                              cl::Prefix, cl::init('2'), cl::cat(Category));
static cl::opt<std::string>
    OnlyIsa("only-isa", cl::desc("Write a plain object of this ISA only"),
            cl::value_desc("isa"), cl::cat(Category));

static cl::opt<bool> StripDebug(
    "strip-debug",
    cl::desc("Drop debug information (the line tables popcorn-clang adds for call-site records)"),
    cl::cat(Category));

// Off only in the tests of the call-site checks: they must then find the
// values the pass would have computed again.
static cl::opt<bool> RematerializeAcrossCalls(
    "popcorn-remat-across-calls", cl::Hidden, cl::init(true),
    cl::desc("Compute frame addresses and constants again after recorded calls"),
    cl::cat(Category));

static const char *ToolName = "popcorn-llc";

// Back ends run on threads of their own, so the first failure ends the
// process at once, without running static destructors under the other.
[[noreturn]] static void fail(const Twine &Message) {
  static std::mutex OneMessage;
  OneMessage.lock();
  WithColor::error(errs(), ToolName) << Message << "\n";
  errs().flush();
  std::_Exit(1);
}

static CodeGenOptLevel codeGenOptLevel() {
  switch (OptLevel) {
  case '0': return CodeGenOptLevel::None;
  case '1': return CodeGenOptLevel::Less;
  case '2': return CodeGenOptLevel::Default;
  case '3': return CodeGenOptLevel::Aggressive;
  }
  fail("invalid optimization level -O" + Twine(OptLevel.getValue()));
}

static std::unique_ptr<TargetMachine> createTargetMachine(const IsaInfo &Info) {
  std::string Error;
  const Target *T = TargetRegistry::lookupTarget(std::string(Info.Triple), Error);
  if (!T)
    fail("no back end for " + Twine(Info.Name) + ": " + Error);
  TargetOptions Options;
  // Every function and global in its own section, so the linker tools can
  // give each one the same address on every ISA.
  Options.FunctionSections = true;
  Options.DataSections = true;
  // A __thread variable must live at an ordinary address that is the same on
  // every ISA; the runtime provides __emutls_get_address.
  Options.EmulatedTLS = true;
  // Constructors and destructors in .init_array/.fini_array, which musl runs
  // (clang's driver asks for this on Linux; TargetOptions' default is .ctors).
  Options.UseInitArray = true;
  std::unique_ptr<TargetMachine> TM(T->createTargetMachine(
      std::string(Info.Triple), std::string(Info.Cpu), "", Options, Reloc::Static,
      CodeModel::Small, codeGenOptLevel()));
  if (!TM)
    fail("cannot create the " + Twine(Info.Name) + " back end");
  // At -O0 aarch64 would pick GlobalISel, which drops deopt bundles.
  TM->setGlobalISel(false);
  TM->setFastISel(TM->getOptLevel() == CodeGenOptLevel::None &&
                  Info.Id == Isa::X86_64);
  return TM;
}

static std::unique_ptr<Module> readModule(MemoryBufferRef Bitcode, LLVMContext &Context) {
  Expected<std::unique_ptr<Module>> M = parseBitcodeFile(Bitcode, Context);
  if (!M)
    fail(InputFile + ": " + toString(M.takeError()));
  if (StripDebug)
    StripDebugInfo(**M);
  return std::move(*M);
}

static SmallVector<char, 0> compileForIsa(MemoryBufferRef Bitcode, const IsaInfo &Info) {
  // A crash's stack dump then says which ISA's back end failed, above the
  // pass and the function LLVM names.
  PrettyStackTraceFormat Compiling("Compiling %s for %.*s", InputFile.c_str(),
                                   static_cast<int>(Info.Name.size()), Info.Name.data());
  std::unique_ptr<TargetMachine> TM = createTargetMachine(Info);
  LLVMContext Context;
  std::unique_ptr<Module> M = readModule(Bitcode, Context);
  std::string NotCanonical = whyNotCanonicalIr(*M);
  if (!NotCanonical.empty())
    fail(InputFile + ": " + NotCanonical);
  retargetModule(*M, *TM);
  if (!lowerObjectStackSlots(*M))
    fail("no object-stack slot on " + Twine(Info.Name));
  if (verifyModule(*M, &errs()))
    fail("the " + Twine(Info.Name) + " module is not valid IR after retargeting");
  if (TM->getOptLevel() != CodeGenOptLevel::None)
    runCallFreeIRPasses(*M, *TM);

  // The target's own pipeline (what addPassesToEmitFile builds), with
  // popcorn's machine passes inserted into it.
  SmallVector<char, 0> Object;
  raw_svector_ostream OS(Object);
  legacy::PassManager PM;
  auto &LTM = static_cast<LLVMTargetMachine &>(*TM);
  auto *MMIWP = new MachineModuleInfoWrapperPass(&LTM);
  TargetPassConfig *Config = LTM.createPassConfig(PM);
  PM.add(Config);
  PM.add(MMIWP);
  // Last of the SSA passes: at -O0 the only one is local stack slot
  // allocation, whose frame bases must be computed again after calls too
  // (the fast register allocator would spill them, unrecorded).
  if (RematerializeAcrossCalls)
    Config->insertPass(TM->getOptLevel() == CodeGenOptLevel::None ? &LocalStackSlotAllocationID
                                                                   : &PeepholeOptimizerID,
                       createRematerializeAcrossCallsPass());
  // It would take those copies out again: a register known to hold the
  // same value after a call that preserves it is not set a second time.
  Config->disablePass(&MachineLateInstrsCleanupID);
  Config->insertPass(&FixupStatepointCallerSavedID, createVerifyCallSiteSlotsPass(Info.Name));
  Config->insertPass(&StackMapLivenessID, createVerifyCallSiteRecordsPass(Info.Name));
  if (Config->addISelPasses())
    fail("the " + Twine(Info.Name) + " back end cannot select instructions");
  Config->addMachinePasses();
  Config->setInitialized();
  if (LTM.addAsmPrinter(PM, OS, nullptr, CodeGenFileType::ObjectFile,
                        MMIWP->getMMI().getContext()))
    fail("the " + Twine(Info.Name) + " back end cannot emit object files");
  PM.run(*M);
  return Object;
}

static void writeFile(StringRef Data) {
  std::error_code EC;
  ToolOutputFile Out(OutputFile, EC, sys::fs::OF_None);
  if (EC)
    fail("cannot write " + OutputFile + ": " + EC.message());
  Out.os() << Data;
  Out.keep();
}

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  // The ISAs popcorn builds for, and only those: this tool links LLVM's
  // static libraries of those two targets.
  LLVMInitializeX86TargetInfo();
  LLVMInitializeX86Target();
  LLVMInitializeX86TargetMC();
  LLVMInitializeX86AsmPrinter();
  LLVMInitializeX86AsmParser(); // libc's inline assembly
  LLVMInitializeAArch64TargetInfo();
  LLVMInitializeAArch64Target();
  LLVMInitializeAArch64TargetMC();
  LLVMInitializeAArch64AsmPrinter();
  LLVMInitializeAArch64AsmParser();
  cl::HideUnrelatedOptions(Category);
  // Back-end settings every ISA must share.  aarch64's GlobalMerge would pack
  // internal globals into one object on aarch64 only: their addresses would
  // then differ from the other ISAs'.  The back end adds no values of its
  // own across calls (RecordSafeCodegen.h).
  std::vector<std::string> Options = {"-aarch64-enable-global-merge=false"};
  for (const CodegenOption &Option : RecordSafeCodegenOptions)
    Options.push_back(std::string("-") + Option.Name + (Option.Value ? "=true" : "=false"));
  std::vector<const char *> Args(argv, argv + argc);
  // -h as every popcorn tool has it (LLVM's option parser knows only --help).
  std::replace_if(Args.begin(), Args.end(), [](const char *Arg) { return !strcmp(Arg, "-h"); },
                  "--help");
  for (const std::string &Option : Options)
    Args.insert(Args.begin() + 1, Option.c_str());
  cl::ParseCommandLineOptions(Args.size(), Args.data(), "Popcorn multi-ISA back end\n");

  ErrorOr<std::unique_ptr<MemoryBuffer>> Input = MemoryBuffer::getFileOrSTDIN(InputFile);
  if (!Input)
    fail("cannot read " + InputFile + ": " + Input.getError().message());
  MemoryBufferRef Bitcode = (*Input)->getMemBufferRef();

  if (!OnlyIsa.empty()) {
    std::optional<Isa> I = parseIsa(OnlyIsa);
    if (!I)
      fail("unknown ISA '" + OnlyIsa + "'");
    SmallVector<char, 0> Object = compileForIsa(Bitcode, info(*I));
    writeFile(StringRef(Object.data(), Object.size()));
    return 0;
  }

  // Instruction selection recurses over a function's DAG: a huge function
  // (SQLite's interpreter loop) needs more than a default thread stack.
  constexpr unsigned BackEndStackBytes = 64 << 20;
  SmallVector<SmallVector<char, 0>, 2> Objects(AllIsas.size());
  SmallVector<llvm::thread, 2> BackEnds;
  for (size_t I = 0; I < AllIsas.size(); ++I)
    BackEnds.emplace_back(std::optional<unsigned>(BackEndStackBytes), [&, I] {
      Objects[I] = compileForIsa(Bitcode, AllIsas[I]);
    });
  for (llvm::thread &BackEnd : BackEnds)
    BackEnd.join();

  SmallVector<IsaImage, 2> Embedded;
  for (size_t I = 1; I < AllIsas.size(); ++I)
    Embedded.push_back({AllIsas[I].Id,
                        MemoryBufferRef(StringRef(Objects[I].data(), Objects[I].size()),
                                        AllIsas[I].Name)});
  Expected<std::unique_ptr<MemoryBuffer>> MultiIsa = embedIsaImages(
      MemoryBufferRef(StringRef(Objects[0].data(), Objects[0].size()), OutputFile),
      Embedded);
  if (!MultiIsa)
    fail(toString(MultiIsa.takeError()));
  writeFile((*MultiIsa)->getBuffer());
  return 0;
}
