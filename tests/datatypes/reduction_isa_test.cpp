// Choosing the kernel family: HALYARD_REDUCE_ISA, availability, and switching.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "runtime/datatypes/reduction.hpp"
#include "runtime/datatypes/reduction_isa.hpp"
#include "runtime/support/error.hpp"

namespace halyard {
namespace {

// Restores the variable so that later tests in this process see the same environment.
class ReduceIsaVariable {
 public:
  explicit ReduceIsaVariable(const char* value) {
    if (const char* old = std::getenv("HALYARD_REDUCE_ISA")) saved_ = old;
    setenv("HALYARD_REDUCE_ISA", value, 1);
  }
  ~ReduceIsaVariable() {
    if (saved_.empty()) {
      unsetenv("HALYARD_REDUCE_ISA");
    } else {
      setenv("HALYARD_REDUCE_ISA", saved_.c_str(), 1);
    }
  }

 private:
  std::string saved_;
};

TEST(ReductionIsa, ScalarIsAlwaysAvailableAndAutoPicksTheBest) {
  const auto isas = available_reduction_isas();
  ASSERT_FALSE(isas.empty());
  EXPECT_EQ(isas.front(), ReductionIsa::kScalar);
  ReduceIsaVariable v("auto");
  EXPECT_EQ(reduction_isa_from_environment(), isas.back());
#if defined(__x86_64__)
  // Every x86-64 machine this project targets has AVX2; a missing AVX2 path is a build bug.
  if (__builtin_cpu_supports("avx2")) {
    EXPECT_TRUE(reduction_isa_available(ReductionIsa::kAvx2));
  }
  if (__builtin_cpu_supports("avx512bw")) {
    EXPECT_TRUE(reduction_isa_available(ReductionIsa::kAvx512));
  }
#endif
}

TEST(ReductionIsa, EnvironmentForcesEachAvailableIsa) {
  for (ReductionIsa isa : available_reduction_isas()) {
    ReduceIsaVariable v(std::string(reduction_isa_name(isa)).c_str());
    EXPECT_EQ(reduction_isa_from_environment(), isa);
  }
  ReduceIsaVariable upper("SCALAR");
  EXPECT_EQ(reduction_isa_from_environment(), ReductionIsa::kScalar);
}

TEST(ReductionIsa, UnknownNameListsChoices) {
  ReduceIsaVariable v("sse9");
  try {
    reduction_isa_from_environment();
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument);
    EXPECT_NE(std::string(e.what()).find("HALYARD_REDUCE_ISA='sse9'"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("auto|scalar|avx2|avx512"), std::string::npos);
  }
}

TEST(ReductionIsa, UnavailableIsaIsAnErrorNamingIt) {
  for (ReductionIsa isa : {ReductionIsa::kAvx2, ReductionIsa::kAvx512}) {
    if (reduction_isa_available(isa)) continue;
    const std::string name(reduction_isa_name(isa));
    ReduceIsaVariable v(name.c_str());
    try {
      reduction_isa_from_environment();
      FAIL() << "no error for " << name;
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::kUnsupported);
      EXPECT_NE(std::string(e.what()).find("HALYARD_REDUCE_ISA=" + name + ": the " + name +
                                           " reduction kernels are not available"),
                std::string::npos)
          << e.what();
    }
    EXPECT_THROW(use_reduction_isa(isa), Error);
  }
}

// The first reduction reads the variable. A death test re-runs this binary for just this
// statement ("threadsafe" style), so the choice is made fresh there whatever ran before here.
TEST(ReductionIsa, FirstUseReadsTheEnvironment) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  ReduceIsaVariable v("scalar");
  EXPECT_EXIT(std::exit(reduction_isa() == "scalar" ? 0 : 1), ::testing::ExitedWithCode(0), "");
  ReduceIsaVariable bad("avx9");
  EXPECT_EXIT(
      {
        try {
          reduction_isa();
        } catch (const Error&) {
          std::exit(3);
        }
        std::exit(0);
      },
      ::testing::ExitedWithCode(3), "");
}

TEST(ReductionIsa, SwitchingChangesTheKernels) {
  for (ReductionIsa isa : available_reduction_isas()) {
    use_reduction_isa(isa);
    EXPECT_EQ(active_reduction_isa(), isa);
    EXPECT_EQ(reduction_isa(), reduction_isa_name(isa));
    float x[3] = {1.5f, -2.0f, 4.0f};
    const float y[3] = {0.25f, 2.0f, 0.5f};
    reduce_into(Op::kSum, Datatype::kFloat32, x, y, 3);
    EXPECT_EQ(x[0], 1.75f);
    EXPECT_EQ(x[1], 0.0f);
    EXPECT_EQ(x[2], 4.5f);
  }
}

}  // namespace
}  // namespace halyard
