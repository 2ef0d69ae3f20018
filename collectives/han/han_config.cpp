#include "collectives/han/han_config.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

#include "runtime/config.hpp"
#include "runtime/error.hpp"

namespace halyard::han {

namespace {

Config read_config() {
  Config c;
  if (config::env_string("HALYARD_HAN_SEGSIZE")) {
    c.segment_bytes = config::env_bytes("HALYARD_HAN_SEGSIZE", 0);
    if (c.segment_bytes == 0) {
      throw Error(ErrorCode::kInvalidArgument, "HALYARD_HAN_SEGSIZE: expected more than 0 bytes");
    }
  }
  if (auto inter = config::env_string("HALYARD_HAN_INTER")) {
    c.inter_chosen = true;
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
  c.inter_bcast_segment = config::env_bytes("HALYARD_HAN_IBS", 0);
  c.inter_reduce_segment = config::env_bytes("HALYARD_HAN_IRS", 0);
  std::string intra =
      config::env_choice("HALYARD_HAN_INTRA", {"auto", "sm", "cma", "base"}, "auto");
  c.intra = intra == "sm"     ? IntraModule::kSm
            : intra == "base" ? IntraModule::kBase
            : intra == "cma"  ? IntraModule::kCma
                              : IntraModule::kAuto;
  c.leaders = config::env_choice("HALYARD_HAN_LEADERS", {"node", "numa"}, "node") == "numa"
                  ? LeaderLevel::kNuma
                  : LeaderLevel::kNode;
  std::int64_t domains = config::env_int("HALYARD_HAN_TEST_NUMA_DOMAINS", 0);
  if (domains < 0 || domains > 4096) {
    throw Error(ErrorCode::kInvalidArgument,
                "HALYARD_HAN_TEST_NUMA_DOMAINS: expected 0..4096, got " + std::to_string(domains));
  }
  c.test_numa_domains = static_cast<int>(domains);
  return c;
}

}  // namespace

std::size_t Config::segment_for(std::size_t message_bytes) const {
  if (segment_bytes > 0) return segment_bytes;
  return std::clamp<std::size_t>(message_bytes, 1, kAutoMaxSegment);
}

const Config& config() {
  // Read once: every rank must pick the same submodules for all its calls.
  static const Config c = read_config();
  return c;
}

}  // namespace halyard::han
