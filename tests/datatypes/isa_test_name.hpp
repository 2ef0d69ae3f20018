// The name of a test instantiated once per reduction ISA this CPU has (AvailableIsas/X/avx2).
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "runtime/datatypes/reduction_isa.hpp"

namespace halyard::testing {

inline std::string isa_test_name(const ::testing::TestParamInfo<ReductionIsa>& info) {
  return std::string(reduction_isa_name(info.param));
}

}  // namespace halyard::testing
