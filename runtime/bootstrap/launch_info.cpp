#include "runtime/bootstrap/launch_info.hpp"

#include <charconv>
#include <string>
#include <string_view>

#include "runtime/support/config.hpp"
#include "runtime/support/error.hpp"

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

bool parse_count(std::string_view text, long& value) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return !text.empty() && ec == std::errc() && end == text.data() + text.size();
}

// The rank's place from a Slurm step's variables (srun started it, not hlaunch).
void place_from_slurm(LaunchInfo& info) {
  info.rank = required_int("SLURM_PROCID", 0);
  info.size = config::env_string("HALYARD_SIZE") ? required_int("HALYARD_SIZE", 1)
                                                 : required_int("SLURM_NTASKS", 1);
  info.local_rank = required_int("SLURM_LOCALID", 0);
  info.node_id = required_int("SLURM_NODEID", 0);
  info.num_nodes = required_int("SLURM_NNODES", 1);
  std::string per_node = required("SLURM_STEP_TASKS_PER_NODE");
  auto counts = expand_slurm_counts(per_node);
  if (!counts || static_cast<int>(counts->size()) != info.num_nodes) {
    throw Error(ErrorCode::kBootstrap,
                "SLURM_STEP_TASKS_PER_NODE='" + per_node +
                    "' is not valid for SLURM_NNODES=" + std::to_string(info.num_nodes));
  }
  require_below("SLURM_NODEID", info.node_id, "SLURM_NNODES", info.num_nodes);
  info.local_size = (*counts)[static_cast<std::size_t>(info.node_id)];
  info.job_id = config::env_string("HALYARD_JOB_ID")
                    .value_or("slurm-" + required("SLURM_JOB_ID") + "." +
                              config::env_string("SLURM_STEP_ID").value_or("0"));
}

}  // namespace

std::optional<std::vector<int>> expand_slurm_counts(std::string_view text) {
  std::vector<int> counts;
  while (true) {
    std::size_t comma = text.find(',');
    std::string_view item = text.substr(0, comma);
    long count = 0;
    long repeat = 1;
    std::size_t paren = item.find("(x");
    if (paren != std::string_view::npos) {
      if (item.back() != ')' ||
          !parse_count(item.substr(paren + 2, item.size() - paren - 3), repeat)) {
        return std::nullopt;
      }
      item = item.substr(0, paren);
    }
    if (!parse_count(item, count) || count < 1 || count > 1'000'000 || repeat < 1 ||
        repeat > 1'000'000) {
      return std::nullopt;
    }
    counts.insert(counts.end(), static_cast<std::size_t>(repeat), static_cast<int>(count));
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  return counts;
}

std::optional<LaunchInfo> LaunchInfo::from_environment() {
  auto server = config::env_string("HALYARD_BOOTSTRAP_ADDR");
  if (!server) return std::nullopt;
  LaunchInfo info;
  info.server = *server;
  if (!config::env_string("HALYARD_RANK") && config::env_string("SLURM_PROCID")) {
    place_from_slurm(info);
    info.token = required("HALYARD_JOB_TOKEN");
    require_below("SLURM_PROCID", info.rank, "the job size", info.size);
    require_below("SLURM_LOCALID", info.local_rank, "the node's task count", info.local_size);
    return info;
  }
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
