#include "launcher/environment.hpp"

#include <string_view>

extern char** environ;

namespace halyard::launcher {

Environment current_environment() {
  Environment env;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    std::string entry(*e);
    auto eq = entry.find('=');
    if (eq != std::string::npos) env[entry.substr(0, eq)] = entry.substr(eq + 1);
  }
  return env;
}

void apply_assignments(Environment& env, const std::vector<std::string>& assignments) {
  for (const auto& a : assignments) {
    auto eq = a.find('=');
    if (eq != std::string::npos) env[a.substr(0, eq)] = a.substr(eq + 1);
  }
}

std::vector<std::string> to_assignments(const Environment& env) {
  std::vector<std::string> out;
  out.reserve(env.size());
  for (const auto& [name, value] : env) out.push_back(name + "=" + value);
  return out;
}

void leave_room_for_dlopen_tls(Environment& env) {
  constexpr std::string_view kTunable = "glibc.rtld.optional_static_tls";
  std::string& tunables = env["GLIBC_TUNABLES"];
  if (tunables.find(kTunable) != std::string::npos) return;
  if (!tunables.empty()) tunables += ':';
  tunables += std::string(kTunable) + "=16384";
}

}  // namespace halyard::launcher
