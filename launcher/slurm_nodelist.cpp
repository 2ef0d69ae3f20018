#include "launcher/slurm_nodelist.hpp"

#include <charconv>
#include <cstdlib>

#include "launcher/usage_error.hpp"
#include "runtime/bootstrap/launch_info.hpp"

namespace halyard::launcher {
namespace {

[[noreturn]] void malformed(std::string_view list, const std::string& why) {
  throw UsageError("Slurm node list '" + std::string(list) + "' is malformed: " + why);
}

bool parse_number(std::string_view text, long& value) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return !text.empty() && ec == std::errc() && end == text.data() + text.size() && value >= 0;
}

// The values of one bracket group's body, "01-03,07" -> 01 02 03 07.
std::vector<std::string> expand_ranges(std::string_view body, std::string_view list) {
  std::vector<std::string> out;
  while (true) {
    std::size_t comma = body.find(',');
    std::string_view item = body.substr(0, comma);
    std::size_t dash = item.find('-');
    std::string_view first = item.substr(0, dash);
    std::string_view last = dash == std::string_view::npos ? first : item.substr(dash + 1);
    long low = 0;
    long high = 0;
    if (!parse_number(first, low) || !parse_number(last, high) || high < low) {
      malformed(list, "'" + std::string(item) + "' is not a number or a range LOW-HIGH");
    }
    if (high - low > 1'000'000) malformed(list, "range '" + std::string(item) + "' is too long");
    const std::size_t width = first.size();  // "01" keeps two digits
    for (long v = low; v <= high; ++v) {
      std::string digits = std::to_string(v);
      if (digits.size() < width) digits.insert(0, width - digits.size(), '0');
      out.push_back(std::move(digits));
    }
    if (comma == std::string_view::npos) break;
    body.remove_prefix(comma + 1);
  }
  return out;
}

// One name with any number of bracket groups.
void expand_name(std::string_view name, std::string_view list, std::vector<std::string>& out) {
  std::vector<std::string> partial = {""};
  while (!name.empty()) {
    std::size_t open = name.find('[');
    std::string_view literal = name.substr(0, open);
    if (literal.find(']') != std::string_view::npos) malformed(list, "unbalanced ']'");
    for (auto& p : partial) p += literal;
    if (open == std::string_view::npos) break;
    std::size_t close = name.find(']', open);
    if (close == std::string_view::npos) malformed(list, "unbalanced '['");
    std::vector<std::string> values = expand_ranges(name.substr(open + 1, close - open - 1), list);
    std::vector<std::string> next;
    next.reserve(partial.size() * values.size());
    for (const auto& p : partial) {
      for (const auto& v : values) next.push_back(p + v);
    }
    partial = std::move(next);
    name.remove_prefix(close + 1);
  }
  if (partial.size() == 1 && partial.front().empty()) malformed(list, "empty host name");
  for (auto& p : partial) out.push_back(std::move(p));
}

std::string env_or_empty(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? value : "";
}

}  // namespace

std::vector<std::string> expand_nodelist(std::string_view list) {
  std::vector<std::string> hosts;
  // Commas inside brackets separate ranges, outside they separate names.
  std::size_t start = 0;
  int depth = 0;
  for (std::size_t i = 0; i <= list.size(); ++i) {
    if (i < list.size() && list[i] == '[') ++depth;
    if (i < list.size() && list[i] == ']') --depth;
    if (depth < 0) malformed(list, "unbalanced ']'");
    if (i == list.size() || (list[i] == ',' && depth == 0)) {
      expand_name(list.substr(start, i - start), list, hosts);
      start = i + 1;
    }
  }
  if (depth != 0) malformed(list, "unbalanced '['");
  return hosts;
}

std::vector<int> expand_tasks_per_node(std::string_view text) {
  auto counts = expand_slurm_counts(text);
  if (!counts) {
    throw UsageError("SLURM_TASKS_PER_NODE='" + std::string(text) +
                     "' is malformed: expected e.g. '2(x3),1'");
  }
  return *counts;
}

std::vector<HostEntry> slurm_hosts_from_environment() {
  std::string list = env_or_empty("SLURM_JOB_NODELIST");
  if (list.empty()) list = env_or_empty("SLURM_NODELIST");
  if (list.empty()) {
    throw UsageError(
        "--launcher slurm needs a Slurm allocation: SLURM_JOB_NODELIST is not set (run hlaunch "
        "inside salloc or sbatch)");
  }
  std::vector<std::string> names = expand_nodelist(list);
  std::string tasks = env_or_empty("SLURM_TASKS_PER_NODE");
  std::vector<int> slots =
      tasks.empty() ? std::vector<int>(names.size(), 1) : expand_tasks_per_node(tasks);
  if (slots.size() != names.size()) {
    throw UsageError("SLURM_TASKS_PER_NODE='" + tasks + "' gives " + std::to_string(slots.size()) +
                     " node(s) but SLURM_JOB_NODELIST='" + list + "' names " +
                     std::to_string(names.size()));
  }
  std::vector<HostEntry> hosts;
  for (std::size_t i = 0; i < names.size(); ++i) hosts.push_back({names[i], slots[i]});
  return hosts;
}

}  // namespace halyard::launcher
