#include "collectives/han/han_config.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

#include "runtime/support/config.hpp"
#include "runtime/support/error.hpp"

namespace halyard::han {

namespace {

// The process-wide part of the configuration plus the per-call knobs the user set.
struct Environment {
  Tuning tuning;
  LeaderLevel leaders = LeaderLevel::kNode;
  int test_numa_domains = 0;
};

std::optional<std::size_t> positive_bytes(const char* name) {
  if (!config::env_string(name)) return std::nullopt;
  std::size_t bytes = config::env_bytes(name, 0);
  if (bytes == 0) {
    throw Error(ErrorCode::kInvalidArgument, std::string(name) + ": expected more than 0 bytes");
  }
  return bytes;
}

// ibs / irs: 0 has always meant ADAPT's default, so it reads as unset.
std::optional<std::size_t> optional_segment(const char* name) {
  std::size_t bytes = config::env_bytes(name, 0);
  if (bytes == 0) return std::nullopt;
  return bytes;
}

Environment read_environment() {
  Environment env;
  Tuning& t = env.tuning;
  t.segment_bytes = positive_bytes("HALYARD_HAN_SEGSIZE");
  if (auto inter = config::env_string("HALYARD_HAN_INTER")) {
    std::string v = *inter;
    if (v == "base") {
      t.inter = InterModule::kBase;
    } else if (v.rfind("adapt:", 0) == 0) {
      t.inter = InterModule::kAdapt;
      t.inter_bcast_tree = t.inter_reduce_tree = core::parse_tree_shape(v.substr(6));
    } else if (v == "adapt") {
      t.inter = InterModule::kAdapt;
    } else {
      throw Error(ErrorCode::kInvalidArgument,
                  "HALYARD_HAN_INTER: expected adapt:<tree> or base, got '" + v + "'");
    }
  }
  t.inter_bcast_segment = optional_segment("HALYARD_HAN_IBS");
  t.inter_reduce_segment = optional_segment("HALYARD_HAN_IRS");
  if (config::env_string("HALYARD_HAN_INTRA")) {
    t.intra =
        parse_intra_module(config::env_choice("HALYARD_HAN_INTRA", kIntraModuleNames, "auto"));
  }
  env.leaders = config::env_choice("HALYARD_HAN_LEADERS", {"node", "numa"}, "node") == "numa"
                    ? LeaderLevel::kNuma
                    : LeaderLevel::kNode;
  std::int64_t domains = config::env_int("HALYARD_HAN_TEST_NUMA_DOMAINS", 0);
  if (domains < 0 || domains > 4096) {
    throw Error(ErrorCode::kInvalidArgument,
                "HALYARD_HAN_TEST_NUMA_DOMAINS: expected 0..4096, got " + std::to_string(domains));
  }
  env.test_numa_domains = static_cast<int>(domains);
  return env;
}

// Read once: every rank must pick the same submodules for all its calls. A bad value throws
// here and again on the next call (a throwing static initializer is retried).
const Environment& environment() {
  static const Environment env = read_environment();
  return env;
}

[[noreturn]] void invalid_tuning(const std::string& what) {
  throw Error(ErrorCode::kInvalidArgument, "HAN tuning: " + what);
}

void apply(const Tuning& t, Config& c) {
  if (t.segment_bytes) {
    if (*t.segment_bytes == 0) invalid_tuning("fs (segment size) must be more than 0 bytes");
    c.segment_bytes = *t.segment_bytes;
  }
  if (t.inter) {
    c.inter = *t.inter;
    c.inter_chosen = true;
  }
  if (t.inter_bcast_tree) c.inter_tree = *t.inter_bcast_tree;
  if (t.inter_reduce_tree) c.inter_reduce_tree = *t.inter_reduce_tree;
  if (t.inter_bcast_segment) c.inter_bcast_segment = *t.inter_bcast_segment;
  if (t.inter_reduce_segment) c.inter_reduce_segment = *t.inter_reduce_segment;
  if (t.intra) c.intra = *t.intra;
  if (t.sends_in_flight) c.sends_in_flight = *t.sends_in_flight;
  if (t.recvs_in_flight) c.recvs_in_flight = *t.recvs_in_flight;
}

void check(const Config& c) {
  if (c.sends_in_flight < 0 || c.sends_in_flight > 1024) {
    invalid_tuning("sends in flight (N) must be 1..1024, got " + std::to_string(c.sends_in_flight));
  }
  const int n = c.sends_in_flight > 0 ? c.sends_in_flight : adapt::Params{}.sends_in_flight;
  if (c.recvs_in_flight != 0 && (c.recvs_in_flight <= n || c.recvs_in_flight > 4096)) {
    invalid_tuning("receives in flight (M) must be more than N and at most 4096, got " +
                   std::to_string(c.recvs_in_flight));
  }
}

}  // namespace

std::size_t Config::segment_for(std::size_t message_bytes) const {
  if (segment_bytes > 0) return segment_bytes;
  return std::clamp<std::size_t>(message_bytes, 1, kAutoMaxSegment);
}

Config config_for(const Tuning& tuning) {
  const Environment& env = environment();
  Config c;
  c.leaders = env.leaders;
  c.test_numa_domains = env.test_numa_domains;
  apply(tuning, c);
  apply(env.tuning, c);
  check(c);
  return c;
}

void check_tuning(const Tuning& tuning) {
  Config c;
  apply(tuning, c);
  check(c);
}

const Config& config() {
  static const Config c = config_for(Tuning{});
  return c;
}

std::string_view intra_module_name(IntraModule module) {
  const auto index = static_cast<std::size_t>(module);
  return index < std::size(kIntraModuleNames) ? kIntraModuleNames[index] : "invalid";
}

std::string intra_module_choices() {
  std::string list;
  const std::size_t n = std::size(kIntraModuleNames);
  for (std::size_t i = 0; i < n; ++i) {
    if (i > 0) list += i + 1 == n ? " or " : ", ";
    list += kIntraModuleNames[i];
  }
  return list;
}

std::string_view inter_module_name(InterModule module) {
  return module == InterModule::kBase ? "base" : "adapt";
}

std::optional<IntraModule> parse_intra_module(std::string_view name) {
  for (std::size_t i = 0; i < std::size(kIntraModuleNames); ++i) {
    if (name == kIntraModuleNames[i]) return static_cast<IntraModule>(i);
  }
  return std::nullopt;
}

std::optional<InterModule> parse_inter_module(std::string_view name) {
  if (name == "adapt") return InterModule::kAdapt;
  if (name == "base") return InterModule::kBase;
  return std::nullopt;
}

std::string describe(const Tuning& t) {
  std::string text;
  auto field = [&text](std::string_view key, const std::string& value) {
    if (!text.empty()) text += ' ';
    text += std::string(key) + "=" + value;
  };
  if (t.segment_bytes) field("fs", config::format_bytes(*t.segment_bytes));
  if (t.inter) field("imod", std::string(inter_module_name(*t.inter)));
  if (t.inter_bcast_tree) field("ibalg", std::string(core::tree_shape_name(*t.inter_bcast_tree)));
  if (t.inter_reduce_tree) field("iralg", std::string(core::tree_shape_name(*t.inter_reduce_tree)));
  if (t.inter_bcast_segment) field("ibs", config::format_bytes(*t.inter_bcast_segment));
  if (t.inter_reduce_segment) field("irs", config::format_bytes(*t.inter_reduce_segment));
  if (t.intra) field("smod", std::string(intra_module_name(*t.intra)));
  if (t.sends_in_flight) field("N", std::to_string(*t.sends_in_flight));
  if (t.recvs_in_flight) field("M", std::to_string(*t.recvs_in_flight));
  return text.empty() ? "defaults" : text;
}

}  // namespace halyard::han
