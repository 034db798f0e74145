//===- CommandLineTest.cpp - popcorn-clang's command-line parsing ---------===//
#include "CommandLine.h"
#include "gtest/gtest.h"

using namespace popcorn;

static CommandLine parse(std::vector<std::string> Args) { return parseCommandLine(Args); }

TEST(CommandLine, CompileOnlyKeepsFrontendFlagsInOrder) {
  CommandLine CL = parse({"-c", "-O2", "-Iinc", "-D", "X=1", "-std=c11", "-Wall", "a.c", "-o", "a.o"});
  EXPECT_TRUE(CL.Errors.empty());
  EXPECT_EQ(CL.Phase, FinalPhase::Compile);
  EXPECT_EQ(CL.OptLevel, "2");
  EXPECT_EQ(CL.Output, "a.o");
  ASSERT_EQ(CL.Inputs.size(), 1u);
  EXPECT_EQ(CL.Inputs[0].Type, Input::Source);
  EXPECT_EQ(CL.FrontendArgs,
            (std::vector<std::string>{"-I", "inc", "-D", "X=1", "-std=c11", "-Wall"}));
}

TEST(CommandLine, LinkKeepsInputOrderForTheLinker) {
  CommandLine CL = parse({"main.o", "-L.", "-lshapes", "libz.a", "-lm", "-o", "prog"});
  EXPECT_TRUE(CL.Errors.empty());
  EXPECT_EQ(CL.Phase, FinalPhase::Link);
  ASSERT_EQ(CL.Inputs.size(), 4u);
  EXPECT_EQ(CL.Inputs[0].Type, Input::Object);
  EXPECT_EQ(CL.Inputs[1].Type, Input::Library);
  EXPECT_EQ(CL.Inputs[1].Value, "shapes");
  EXPECT_EQ(CL.Inputs[2].Type, Input::Archive);
  EXPECT_EQ(CL.Inputs[3].Value, "m");
  EXPECT_EQ(CL.LibraryDirs, std::vector<std::string>{"."});
}

TEST(CommandLine, LinkerFlagsAreSplitAtCommas) {
  CommandLine CL = parse({"a.o", "-Wl,--gc-sections,-Map,out.map", "-Xlinker", "-q"});
  EXPECT_EQ(CL.LinkerArgs,
            (std::vector<std::string>{"--gc-sections", "-Map", "out.map", "-q"}));
}

TEST(CommandLine, DependencyFlagsAreNoticed) {
  CommandLine CL = parse({"-c", "-MMD", "-MP", "x.c"});
  EXPECT_TRUE(CL.WritesDependencies);
  EXPECT_FALSE(CL.HasDependencyFile);
  CL = parse({"-c", "-MD", "-MF", "x.d", "-MT", "x.o", "x.c"});
  EXPECT_TRUE(CL.HasDependencyFile);
  EXPECT_TRUE(CL.HasDependencyTarget);
}

TEST(CommandLine, PreprocessAndInfoPhases) {
  EXPECT_EQ(parse({"-E", "x.c"}).Phase, FinalPhase::Preprocess);
  EXPECT_EQ(parse({"-M", "x.c"}).Phase, FinalPhase::Preprocess);
  EXPECT_EQ(parse({"--version"}).Phase, FinalPhase::PrintInfo);
  EXPECT_EQ(parse({"-print-prog-name=ld"}).Phase, FinalPhase::PrintInfo);
}

TEST(CommandLine, AcceptsWhatEveryStaticProgramImplies) {
  CommandLine CL = parse({"-pthread", "-fPIC", "-static", "-pipe", "-m64", "x.c"});
  EXPECT_TRUE(CL.Errors.empty());
  EXPECT_TRUE(CL.FrontendArgs.empty());
}

static std::string onlyError(std::vector<std::string> Args) {
  CommandLine CL = parse(Args);
  return CL.Errors.size() == 1 ? CL.Errors[0] : "<" + std::to_string(CL.Errors.size()) + " errors>";
}

TEST(CommandLine, RejectsIsaSpecificAndUnsupportedInput) {
  EXPECT_NE(onlyError({"-march=native", "x.c"}).find("'-march=native'"), std::string::npos);
  EXPECT_NE(onlyError({"-mavx2", "x.c"}).find("specific to one ISA"), std::string::npos);
  EXPECT_NE(onlyError({"-shared", "x.o"}).find("shared libraries"), std::string::npos);
  EXPECT_NE(onlyError({"-c", "start.s"}).find("'start.s': assembly"), std::string::npos);
  EXPECT_NE(onlyError({"-c", "-x", "assembler", "start.S"}).find("'start.S': assembly"),
            std::string::npos);
  EXPECT_NE(onlyError({"-stdlib=libstdc++", "x.cpp"}).find("libc++"), std::string::npos);
  EXPECT_NE(onlyError({"-flto", "x.c"}).find("link-time"), std::string::npos);
  EXPECT_NE(onlyError({"-O9", "x.c"}).find("-O9"), std::string::npos);
  EXPECT_EQ(onlyError({"-c"}), "no input files");
  EXPECT_NE(onlyError({"-c", "a.c", "b.c", "-o", "x.o"}).find("-o with -c"), std::string::npos);
  EXPECT_NE(onlyError({"x.c", "-o"}).find("needs a value"), std::string::npos);
}

// A .S goes to the front end's preprocessor first (Driver.cpp): what is
// left of it decides.
TEST(CommandLine, AssemblyForThePreprocessorIsASource) {
  CommandLine CL = parse({"-c", "decode.S", "-x", "assembler-with-cpp", "other.asm"});
  EXPECT_TRUE(CL.Errors.empty());
  ASSERT_EQ(CL.Inputs.size(), 2u);
  for (const Input &In : CL.Inputs) {
    EXPECT_EQ(In.Type, Input::Source) << In.Value;
    EXPECT_EQ(In.Language, "assembler-with-cpp") << In.Value;
  }
}

TEST(CommandLine, SourcesKeepTheirLanguage) {
  CommandLine CL = parse({"-E", "-x", "c", "/dev/null", "-x", "none", "b.c", "-xcpp-output", "-"});
  EXPECT_TRUE(CL.Errors.empty());
  ASSERT_EQ(CL.Inputs.size(), 3u);
  EXPECT_EQ(CL.Inputs[0].Type, Input::Source);
  EXPECT_EQ(CL.Inputs[0].Language, "c");
  EXPECT_EQ(CL.Inputs[1].Language, "");
  EXPECT_EQ(CL.Inputs[2].Language, "cpp-output");
}

TEST(CommandLine, CxxSourcesAreCompiled) {
  CommandLine CL = parse({"-c", "a.cpp", "b.cc", "c.cxx", "d.C", "e.c++", "-x", "c++", "f.inc"});
  EXPECT_TRUE(CL.Errors.empty());
  ASSERT_EQ(CL.Inputs.size(), 6u);
  for (const Input &In : CL.Inputs) {
    EXPECT_EQ(In.Type, Input::Source) << In.Value;
    EXPECT_TRUE(isCxxSource(In, DriverMode::C)) << In.Value;
  }
  EXPECT_EQ(CL.Inputs[5].Language, "c++");
  EXPECT_FALSE(CL.LinksCxxLibrary); // popcorn-clang links C++ objects as clang does
}

TEST(CommandLine, CxxDriverCompilesCAsCxxAndLinksLibcxx) {
  CommandLine CL = parseCommandLine({"a.c", "-x", "c", "b.c", "c.o"}, DriverMode::Cxx);
  EXPECT_TRUE(CL.Errors.empty());
  EXPECT_TRUE(CL.LinksCxxLibrary);
  EXPECT_TRUE(isCxxSource(CL.Inputs[0], CL.Mode));
  EXPECT_FALSE(isCxxSource(CL.Inputs[1], CL.Mode)); // -x c says otherwise
  EXPECT_FALSE(isCxxSource(CL.Inputs[0], DriverMode::C));
  EXPECT_FALSE(parseCommandLine({"a.o", "-nostdlib++"}, DriverMode::Cxx).LinksCxxLibrary);
  EXPECT_TRUE(CL.UsesCxxHeaders);
  EXPECT_FALSE(parseCommandLine({"-c", "a.cpp", "-nostdinc++"}, DriverMode::Cxx).UsesCxxHeaders);
}
