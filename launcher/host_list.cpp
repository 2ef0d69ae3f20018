#include "launcher/host_list.hpp"

#include <unistd.h>

#include <cctype>
#include <charconv>
#include <climits>
#include <fstream>
#include <sstream>

#include "launcher/usage_error.hpp"

namespace halyard::launcher {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// A slot count: a whole number of at least 1.
bool parse_slots(std::string_view text, int& slots) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), slots);
  return ec == std::errc() && end == text.data() + text.size() && slots >= 1;
}

// A name that begins with '-' would reach ssh (or srun) as an option ("-F/tmp/x" reads another
// configuration file), so it is no host name.
bool valid_host_name(std::string_view name) {
  if (name.empty() || name.front() == '-') return false;
  for (char c : name) {
    if (std::isspace(static_cast<unsigned char>(c)) || c == ',' || c == '=' || c == '#') {
      return false;
    }
  }
  return true;
}

// Throws UsageError once the hosts' slots add up to more ranks than hlaunch can start.
void check_slot_sum(long long sum) {
  if (sum > kMaxRanks) {
    throw UsageError("the hosts' slots add up to " + std::to_string(sum) + ", more than the " +
                     std::to_string(kMaxRanks) + " ranks hlaunch can start");
  }
}

void add_host(std::vector<HostEntry>& hosts, std::string name, int slots) {
  long long sum = slots;
  for (const auto& h : hosts) sum += h.slots;
  check_slot_sum(sum);  // also keeps h.slots below from overflowing
  for (auto& h : hosts) {
    if (h.name == name) {
      h.slots += slots;
      return;
    }
  }
  hosts.push_back({std::move(name), slots});
}

}  // namespace

std::vector<HostEntry> parse_host_option(std::string_view text) {
  std::vector<HostEntry> hosts;
  std::string_view rest = text;
  while (true) {
    std::size_t comma = rest.find(',');
    std::string_view item = trim(rest.substr(0, comma));
    std::string_view name = item;
    int slots = 1;
    // The last ':' separates the slots, so an IPv6 literal in brackets keeps its colons.
    std::size_t colon = item.rfind(':');
    if (colon != std::string_view::npos && item.find(']', colon) == std::string_view::npos) {
      name = item.substr(0, colon);
      if (!parse_slots(item.substr(colon + 1), slots)) {
        throw UsageError("--host entry '" + std::string(item) +
                         "' is not valid: the slots after ':' must be a number of at least 1");
      }
    }
    if (!valid_host_name(name)) {
      throw UsageError("--host entry '" + std::string(item) +
                       "' is not valid: expected HOST or HOST:SLOTS");
    }
    add_host(hosts, std::string(name), slots);
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return hosts;
}

std::vector<HostEntry> parse_hostfile(std::string_view text, const std::string& origin) {
  std::vector<HostEntry> hosts;
  std::istringstream lines{std::string(text)};
  std::string line;
  int number = 0;
  while (std::getline(lines, line)) {
    ++number;
    std::string_view content = line;
    content = trim(content.substr(0, content.find('#')));
    if (content.empty()) continue;
    auto where = [&] { return origin + ":" + std::to_string(number) + ": "; };
    std::istringstream words{std::string(content)};
    std::string name;
    words >> name;
    if (!valid_host_name(name)) {
      throw UsageError(where() + "'" + name + "' is not a host name");
    }
    int slots = 1;
    std::string word;
    while (words >> word) {
      auto eq = word.find('=');
      std::string key = word.substr(0, eq);
      std::string value = eq == std::string::npos ? "" : word.substr(eq + 1);
      int parsed = 0;
      if ((key == "slots" || key == "max_slots" || key == "max-slots") &&
          !parse_slots(value, parsed)) {
        throw UsageError(where() + "'" + word + "' is not valid: expected " + key +
                         "=N with N at least 1");
      }
      if (key == "slots") {
        slots = parsed;
      } else if (key != "max_slots" && key != "max-slots") {
        throw UsageError(where() + "unknown attribute '" + word +
                         "' (expected slots=N or max_slots=N)");
      }
    }
    add_host(hosts, std::move(name), slots);
  }
  return hosts;
}

std::vector<HostEntry> read_hostfile(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw UsageError("cannot read hostfile '" + path + "'");
  std::ostringstream text;
  text << in.rdbuf();
  std::vector<HostEntry> hosts = parse_hostfile(text.str(), path);
  if (hosts.empty()) throw UsageError("hostfile '" + path + "' names no host");
  return hosts;
}

int total_slots(const std::vector<HostEntry>& hosts) {
  long long total = 0;
  for (const auto& h : hosts) total += h.slots;
  check_slot_sum(total);
  return static_cast<int>(total);
}

bool is_this_host(const std::string& name) {
  if (name == "localhost" || name == "127.0.0.1" || name == "::1") return true;
  char self[HOST_NAME_MAX + 1] = {};
  return ::gethostname(self, sizeof self - 1) == 0 && name == self;
}

}  // namespace halyard::launcher
