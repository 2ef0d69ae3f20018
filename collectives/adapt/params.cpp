#include "collectives/adapt/params.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>

#include "runtime/support/config.hpp"
#include "runtime/support/error.hpp"

namespace halyard::adapt {

namespace {

struct AdaptEnvironment {
  std::optional<std::size_t> bcast_segment;
  std::optional<std::size_t> reduce_segment;
  std::optional<std::int64_t> sends_in_flight;
  std::optional<std::int64_t> recvs_in_flight;
  std::optional<std::int64_t> knomial_radix;
  std::optional<Variant> variant;
};

std::optional<std::size_t> optional_bytes(const char* name) {
  if (!config::env_string(name)) return std::nullopt;
  return config::env_bytes(name, 0);
}

std::optional<std::int64_t> optional_int(const char* name) {
  if (!config::env_string(name)) return std::nullopt;
  return config::env_int(name, 0);
}

[[noreturn]] void invalid_variable(const char* name, std::int64_t value, const char* expected) {
  throw Error(ErrorCode::kInvalidArgument,
              std::string(name) + "=" + std::to_string(value) + " is invalid: " + expected);
}

// Reads and checks the variables; the bounds of N and M against each other are checked per
// call (a call may raise N).
AdaptEnvironment read_adapt_environment() {
  AdaptEnvironment env;
  env.bcast_segment = optional_bytes("HALYARD_BCAST_SEGSIZE");
  env.reduce_segment = optional_bytes("HALYARD_REDUCE_SEGSIZE");
  env.sends_in_flight = optional_int("HALYARD_ADAPT_SENDS_IN_FLIGHT");
  env.recvs_in_flight = optional_int("HALYARD_ADAPT_RECVS_IN_FLIGHT");
  env.knomial_radix = optional_int("HALYARD_ADAPT_KNOMIAL_RADIX");
  if (config::env_string("HALYARD_ADAPT_VARIANT")) {
    std::string name =
        config::env_choice("HALYARD_ADAPT_VARIANT", {"event", "blocking", "waitall"}, "event");
    env.variant = name == "blocking"  ? Variant::kBlocking
                  : name == "waitall" ? Variant::kWaitall
                                      : Variant::kEventDriven;
  }
  if (env.sends_in_flight && (*env.sends_in_flight < 1 || *env.sends_in_flight > 1024)) {
    invalid_variable("HALYARD_ADAPT_SENDS_IN_FLIGHT", *env.sends_in_flight, "expected 1..1024");
  }
  if (env.knomial_radix && (*env.knomial_radix < 2 || *env.knomial_radix > 1024)) {
    invalid_variable("HALYARD_ADAPT_KNOMIAL_RADIX", *env.knomial_radix, "expected 2..1024");
  }
  return env;
}

// Read once; a malformed value throws here and again on the next call (a throwing static
// initializer is retried), so the error is never swallowed.
const AdaptEnvironment& adapt_environment() {
  static const AdaptEnvironment env = read_adapt_environment();
  return env;
}

[[noreturn]] void invalid_params(const std::string& what) {
  throw Error(ErrorCode::kInvalidArgument, "adapt: params." + what);
}

}  // namespace

Params params_for(const CallSettings& settings) {
  const AdaptEnvironment& env = adapt_environment();
  Params params;
  params.tree = settings.tree;
  if (settings.segment_bytes > 0) params.segment_bytes = settings.segment_bytes;
  if (env.knomial_radix) params.knomial_radix = static_cast<int>(*env.knomial_radix);
  if (env.variant) params.variant = *env.variant;
  if (env.sends_in_flight) params.sends_in_flight = static_cast<int>(*env.sends_in_flight);
  if (settings.sends_in_flight > 0) params.sends_in_flight = settings.sends_in_flight;
  if (settings.recvs_in_flight > 0) {
    params.recvs_in_flight = settings.recvs_in_flight;
  } else if (env.recvs_in_flight && settings.sends_in_flight == 0) {
    if (*env.recvs_in_flight <= params.sends_in_flight || *env.recvs_in_flight > 4096) {
      invalid_variable("HALYARD_ADAPT_RECVS_IN_FLIGHT", *env.recvs_in_flight,
                       "expected more than the sends in flight (M > N) and at most 4096");
    }
    params.recvs_in_flight = static_cast<int>(*env.recvs_in_flight);
  } else {
    // Only N was raised (by the variable or by the caller): M follows, to keep ADAPT's rule
    // M > N rather than rejecting the M it would have had.
    if (env.recvs_in_flight) params.recvs_in_flight = static_cast<int>(*env.recvs_in_flight);
    params.recvs_in_flight = std::max(params.recvs_in_flight, params.sends_in_flight + 1);
  }
  check_params(params);
  return params;
}

Params params_for(core::Collective collective, const core::SelectedAlgorithm& selected) {
  const AdaptEnvironment& env = adapt_environment();
  const bool reduce = collective == core::Collective::kReduce;
  const auto& segment = reduce ? env.reduce_segment : env.bcast_segment;
  if (segment && *segment == 0) {
    throw Error(ErrorCode::kInvalidArgument,
                std::string(reduce ? "HALYARD_REDUCE_SEGSIZE" : "HALYARD_BCAST_SEGSIZE") +
                    "=0 is invalid: the segment size must be at least 1 byte");
  }
  return params_for(CallSettings{selected.tree, segment ? *segment : selected.segment_bytes});
}

void check_params(const Params& params) {
  if (params.sends_in_flight < 1) {
    invalid_params("sends_in_flight (N) must be >= 1, got " +
                   std::to_string(params.sends_in_flight));
  }
  if (params.recvs_in_flight < 1) {
    invalid_params("recvs_in_flight (M) must be >= 1, got " +
                   std::to_string(params.recvs_in_flight));
  }
  if (params.knomial_radix < 2) {
    invalid_params("knomial_radix must be >= 2, got " + std::to_string(params.knomial_radix));
  }
  if (params.variant != Variant::kEventDriven && params.variant != Variant::kBlocking &&
      params.variant != Variant::kWaitall) {
    invalid_params("variant is not a valid Variant");
  }
}

}  // namespace halyard::adapt
