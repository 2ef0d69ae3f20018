#include "collectives/select/adapt_dispatch.hpp"

#include <algorithm>
#include <optional>
#include <string>

#include "runtime/config.hpp"
#include "runtime/error.hpp"

namespace halyard::select {

namespace {

struct AdaptEnvironment {
  std::optional<std::size_t> bcast_segment;
  std::optional<std::size_t> reduce_segment;
  std::optional<std::int64_t> sends_in_flight;
  std::optional<std::int64_t> recvs_in_flight;
  std::optional<std::int64_t> knomial_radix;
  std::optional<adapt::Variant> variant;
};

std::optional<std::size_t> optional_bytes(const char* name) {
  if (!config::env_string(name)) return std::nullopt;
  return config::env_bytes(name, 0);
}

std::optional<std::int64_t> optional_int(const char* name) {
  if (!config::env_string(name)) return std::nullopt;
  return config::env_int(name, 0);
}

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
    env.variant = name == "blocking"  ? adapt::Variant::kBlocking
                  : name == "waitall" ? adapt::Variant::kWaitall
                                      : adapt::Variant::kEventDriven;
  }
  return env;
}

// Read once; a malformed value throws here and again on the next call (a throwing static
// initializer is retried), so the error is never swallowed.
const AdaptEnvironment& adapt_environment() {
  static const AdaptEnvironment env = read_adapt_environment();
  return env;
}

[[noreturn]] void invalid_variable(const char* name, std::int64_t value, const char* expected) {
  throw Error(ErrorCode::kInvalidArgument,
              std::string(name) + "=" + std::to_string(value) + " is invalid: " + expected);
}

}  // namespace

adapt::Params adapt_params(Collective collective, const SelectedAlgorithm& selected) {
  const AdaptEnvironment& env = adapt_environment();
  adapt::Params params;
  params.tree = selected.tree;
  if (selected.segment_bytes > 0) params.segment_bytes = selected.segment_bytes;
  const auto& segment = collective == Collective::kReduce ? env.reduce_segment : env.bcast_segment;
  if (segment) {
    if (*segment == 0) {
      throw Error(ErrorCode::kInvalidArgument,
                  std::string(collective == Collective::kReduce ? "HALYARD_REDUCE_SEGSIZE"
                                                                : "HALYARD_BCAST_SEGSIZE") +
                      "=0 is invalid: the segment size must be at least 1 byte");
    }
    params.segment_bytes = *segment;
  }
  if (env.sends_in_flight) {
    if (*env.sends_in_flight < 1 || *env.sends_in_flight > 1024) {
      invalid_variable("HALYARD_ADAPT_SENDS_IN_FLIGHT", *env.sends_in_flight, "expected 1..1024");
    }
    params.sends_in_flight = static_cast<int>(*env.sends_in_flight);
  }
  if (env.recvs_in_flight) {
    if (*env.recvs_in_flight <= params.sends_in_flight || *env.recvs_in_flight > 4096) {
      invalid_variable("HALYARD_ADAPT_RECVS_IN_FLIGHT", *env.recvs_in_flight,
                       "expected more than the sends in flight (M > N) and at most 4096");
    }
    params.recvs_in_flight = static_cast<int>(*env.recvs_in_flight);
  } else {
    // Only N was raised: keep ADAPT's rule M > N rather than rejecting the default M.
    params.recvs_in_flight = std::max(params.recvs_in_flight, params.sends_in_flight + 1);
  }
  if (env.knomial_radix) {
    if (*env.knomial_radix < 2 || *env.knomial_radix > 1024) {
      invalid_variable("HALYARD_ADAPT_KNOMIAL_RADIX", *env.knomial_radix, "expected 2..1024");
    }
    params.knomial_radix = static_cast<int>(*env.knomial_radix);
  }
  if (env.variant) params.variant = *env.variant;
  return params;
}

}  // namespace halyard::select
