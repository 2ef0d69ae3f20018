#include "launcher/program_lookup.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <string_view>

#include "launcher/usage_error.hpp"

namespace halyard::launcher {
namespace {

bool is_regular_file(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

bool is_executable_file(const std::string& path) {
  return is_regular_file(path) && ::access(path.c_str(), X_OK) == 0;
}

}  // namespace

std::string resolve_program(const std::string& program) {
  if (program.empty()) throw UsageError("the program name is empty");
  if (program.find('/') != std::string::npos) {
    if (::access(program.c_str(), F_OK) != 0) {
      throw UsageError("program '" + program + "' does not exist");
    }
    if (!is_executable_file(program)) {
      throw UsageError("program '" + program + "' is not an executable file");
    }
    return program;
  }
  const char* path_env = std::getenv("PATH");
  std::string_view path = path_env != nullptr ? path_env : "/usr/local/bin:/usr/bin:/bin";
  bool found_unexecutable = false;
  while (true) {
    std::size_t colon = path.find(':');
    std::string_view dir = path.substr(0, colon);
    std::string candidate(dir.empty() ? std::string_view(".") : dir);
    candidate += '/';
    candidate += program;
    if (is_executable_file(candidate)) return candidate;
    if (is_regular_file(candidate)) found_unexecutable = true;
    if (colon == std::string_view::npos) break;
    path.remove_prefix(colon + 1);
  }
  if (found_unexecutable) throw UsageError("program '" + program + "' is not executable");
  throw UsageError("program '" + program + "' was not found on PATH");
}

}  // namespace halyard::launcher
