#include "shim/info_objects.hpp"

#include <unistd.h>

#include <cstring>
#include <fstream>
#include <iterator>

#include "shim/handle_table.hpp"
#include "shim/mpi_error.hpp"
#include "shim/shim_state.hpp"
#include "shim/thread_support.hpp"

namespace halyard::mpi_shim {

namespace {

// argv of this process, from /proc (the shim's MPI_Init may be given NULL arguments).
std::vector<std::string> command_line() {
  std::ifstream file("/proc/self/cmdline", std::ios::binary);
  std::string all((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  std::vector<std::string> words;
  for (std::size_t start = 0; start < all.size();) {
    std::size_t end = all.find('\0', start);
    if (end == std::string::npos) end = all.size();
    words.push_back(all.substr(start, end - start));
    start = end + 1;
  }
  return words;
}

InfoEntries environment_entries() {
  InfoEntries entries;
  std::vector<std::string> words = command_line();
  if (!words.empty()) {
    entries.emplace_back("command", words.front());
    std::string arguments;
    for (std::size_t i = 1; i < words.size(); ++i) arguments += (i > 1 ? " " : "") + words[i];
    if (!arguments.empty()) entries.emplace_back("argv", arguments);
  }
  if (Runtime* runtime = shim_state().runtime_if_any()) {
    entries.emplace_back("maxprocs", std::to_string(runtime->world().size()));
  }
  entries.emplace_back("thread_level", thread_level_name(provided_thread_level()));
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) == 0) entries.emplace_back("host", host);
  return entries;
}

HandleTable<InfoEntries>& infos() {
  static HandleTable<InfoEntries> table = [] {
    HandleTable<InfoEntries> made(HALYARD_MPI_KIND_INFO);
    made.add_predefined({});  // MPI_INFO_ENV, filled when first read (after MPI_Init)
    return made;
  }();
  return table;
}

InfoEntries& entries_or_fail(MPI_Info info) {
  InfoEntries* entries = infos().find(info);
  if (entries == nullptr) {
    fail(MPI_ERR_INFO, info == MPI_INFO_NULL ? std::string("info is MPI_INFO_NULL")
                                             : "invalid info " + std::to_string(info));
  }
  return *entries;
}

// A key or value: neither NULL nor empty, and shorter than `limit` characters.
std::string checked_text(const char* text, const char* what, int error_class, std::size_t limit,
                         const char* limit_name) {
  if (text == nullptr) fail(error_class, std::string(what) + " is NULL");
  std::size_t length = std::strlen(text);
  if (length == 0) fail(error_class, std::string(what) + " is empty");
  if (length >= limit) {
    fail(error_class, std::string(what) + " of " + std::to_string(length) +
                          " characters is longer than " + limit_name + " - 1");
  }
  return text;
}

}  // namespace

const InfoEntries& info_entries(MPI_Info info) {
  InfoEntries& entries = entries_or_fail(info);
  if (info == MPI_INFO_ENV && entries.empty()) entries = environment_entries();
  return entries;
}

InfoEntries& modifiable_info_entries(MPI_Info info) {
  if (info == MPI_INFO_ENV) fail(MPI_ERR_INFO, "MPI_INFO_ENV cannot be changed");
  return entries_or_fail(info);
}

InfoEntries hints_from(MPI_Info info) {
  return info == MPI_INFO_NULL ? InfoEntries{} : info_entries(info);
}

MPI_Info add_info(InfoEntries entries) {
  return infos().add(std::move(entries));
}

void free_info(MPI_Info info) {
  modifiable_info_entries(info);
  infos().remove(info);
}

std::string checked_info_key(const char* key) {
  return checked_text(key, "key", MPI_ERR_INFO_KEY, MPI_MAX_INFO_KEY, "MPI_MAX_INFO_KEY");
}

std::string checked_info_value(const char* value) {
  return checked_text(value, "value", MPI_ERR_INFO_VALUE, MPI_MAX_INFO_VAL, "MPI_MAX_INFO_VAL");
}

const std::string* find_info_value(const InfoEntries& entries, const std::string& key) {
  for (const auto& [name, value] : entries) {
    if (name == key) return &value;
  }
  return nullptr;
}

}  // namespace halyard::mpi_shim
