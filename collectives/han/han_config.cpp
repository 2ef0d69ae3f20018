#include "collectives/han/han_config.hpp"

#include <string>

#include "runtime/config.hpp"
#include "runtime/error.hpp"

namespace halyard::han {

namespace {

Config read_config() {
  Config c;
  c.segment_bytes = config::env_bytes("HALYARD_HAN_SEGSIZE", c.segment_bytes);
  if (c.segment_bytes == 0) {
    throw Error(ErrorCode::kInvalidArgument, "HALYARD_HAN_SEGSIZE: expected more than 0 bytes");
  }
  if (auto inter = config::env_string("HALYARD_HAN_INTER")) {
    std::string v = *inter;
    if (v == "base") {
      c.inter = InterModule::kBase;
    } else if (v.rfind("adapt:", 0) == 0) {
      c.inter = InterModule::kAdapt;
      c.inter_tree = adapt::parse_tree_shape(v.substr(6));
    } else if (v == "adapt") {
      c.inter = InterModule::kAdapt;
    } else {
      throw Error(ErrorCode::kInvalidArgument,
                  "HALYARD_HAN_INTER: expected adapt:<tree> or base, got '" + v + "'");
    }
  }
  std::string intra = config::env_choice("HALYARD_HAN_INTRA", {"sm", "cma", "base"}, "cma");
  c.intra = intra == "sm"     ? IntraModule::kSm
            : intra == "base" ? IntraModule::kBase
                              : IntraModule::kCma;
  return c;
}

}  // namespace

const Config& config() {
  // Read once: every rank must pick the same submodules for all its calls.
  static const Config c = read_config();
  return c;
}

}  // namespace halyard::han
