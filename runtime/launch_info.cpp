#include "runtime/launch_info.hpp"

#include <charconv>
#include <string>

#include "runtime/config.hpp"
#include "runtime/error.hpp"

namespace halyard {
namespace {

// A required variable: hlaunch always sets it, so its absence means a broken launch.
std::string required(const char* name) {
  auto value = config::env_string(name);
  if (!value) {
    throw Error(ErrorCode::kBootstrap,
                std::string(name) +
                    " is not set although HALYARD_BOOTSTRAP_ADDR is: the "
                    "process was not started by a complete hlaunch environment");
  }
  return *value;
}

int required_int(const char* name, int min_value) {
  std::string text = required(name);
  int value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < min_value) {
    throw Error(ErrorCode::kBootstrap,
                std::string(name) + "='" + text +
                    "' is not valid: expected an integer >= " + std::to_string(min_value));
  }
  return value;
}

void require_below(const char* name, int value, const char* bound_name, int bound) {
  if (value >= bound) {
    throw Error(ErrorCode::kBootstrap, std::string(name) + "=" + std::to_string(value) +
                                           " is not below " + bound_name + "=" +
                                           std::to_string(bound));
  }
}

}  // namespace

std::optional<LaunchInfo> LaunchInfo::from_environment() {
  auto server = config::env_string("HALYARD_BOOTSTRAP_ADDR");
  if (!server) return std::nullopt;
  LaunchInfo info;
  info.server = *server;
  info.size = required_int("HALYARD_SIZE", 1);
  info.rank = required_int("HALYARD_RANK", 0);
  info.local_size = required_int("HALYARD_LOCAL_SIZE", 1);
  info.local_rank = required_int("HALYARD_LOCAL_RANK", 0);
  info.num_nodes = required_int("HALYARD_NUM_NODES", 1);
  info.node_id = required_int("HALYARD_NODE_ID", 0);
  info.job_id = required("HALYARD_JOB_ID");
  info.token = required("HALYARD_JOB_TOKEN");
  require_below("HALYARD_RANK", info.rank, "HALYARD_SIZE", info.size);
  require_below("HALYARD_LOCAL_RANK", info.local_rank, "HALYARD_LOCAL_SIZE", info.local_size);
  require_below("HALYARD_NODE_ID", info.node_id, "HALYARD_NUM_NODES", info.num_nodes);
  return info;
}

}  // namespace halyard
