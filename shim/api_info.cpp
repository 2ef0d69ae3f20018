// MPI calls on info objects, and the hints a communicator keeps (MPI_Comm_set_info /
// MPI_Comm_get_info). Halyard acts on no hint; a communicator keeps those it was given and
// MPI_Comm_get_info returns them.
#include <mpi.h>

#include <cstring>
#include <string>

#include "shim/argument_checks.hpp"
#include "shim/call_guard.hpp"
#include "shim/info_objects.hpp"
#include "shim/text_output.hpp"

using namespace halyard::mpi_shim;

namespace {

// The value of `key` in `info`, or null; checks both.
const std::string* looked_up(MPI_Info info, const char* key, int* flag) {
  const InfoEntries& entries = info_entries(info);
  const std::string* value = find_info_value(entries, checked_info_key(key));
  check_out(flag, "flag");
  *flag = value != nullptr;
  return value;
}

}  // namespace

extern "C" {

int MPI_Info_create(MPI_Info* info) {
  return guarded("MPI_Info_create", MPI_COMM_WORLD, [&] {
    check_out(info, "info");
    *info = add_info({});
  });
}

int MPI_Info_set(MPI_Info info, const char* key, const char* value) {
  return guarded("MPI_Info_set", MPI_COMM_WORLD, [&] {
    InfoEntries& entries = modifiable_info_entries(info);
    std::string name = checked_info_key(key);
    std::string text = checked_info_value(value);
    for (auto& [existing, old_value] : entries) {
      if (existing == name) {
        old_value = std::move(text);  // a key keeps its place in the order
        return;
      }
    }
    entries.emplace_back(std::move(name), std::move(text));
  });
}

int MPI_Info_get(MPI_Info info, const char* key, int valuelen, char* value, int* flag) {
  return guarded("MPI_Info_get", MPI_COMM_WORLD, [&] {
    const std::string* found = looked_up(info, key, flag);
    if (valuelen < 0) fail(MPI_ERR_ARG, "invalid valuelen " + std::to_string(valuelen));
    if (found == nullptr) return;
    check_out(value, "value");
    copy_text(*found, value, static_cast<std::size_t>(valuelen) + 1);
  });
}

int MPI_Info_get_valuelen(MPI_Info info, const char* key, int* valuelen, int* flag) {
  return guarded("MPI_Info_get_valuelen", MPI_COMM_WORLD, [&] {
    const std::string* found = looked_up(info, key, flag);
    check_out(valuelen, "valuelen");
    if (found != nullptr) *valuelen = static_cast<int>(found->size());
  });
}

int MPI_Info_get_string(MPI_Info info, const char* key, int* buflen, char* value, int* flag) {
  return guarded("MPI_Info_get_string", MPI_COMM_WORLD, [&] {
    const std::string* found = looked_up(info, key, flag);
    check_out(buflen, "buflen");
    if (*buflen < 0) fail(MPI_ERR_ARG, "invalid buflen " + std::to_string(*buflen));
    if (found == nullptr) return;
    // buflen 0 only asks for the size; the answer counts the terminating NUL.
    if (*buflen > 0) {
      check_out(value, "value");
      copy_text(*found, value, static_cast<std::size_t>(*buflen));
    }
    *buflen = static_cast<int>(found->size()) + 1;
  });
}

int MPI_Info_get_nkeys(MPI_Info info, int* nkeys) {
  return guarded("MPI_Info_get_nkeys", MPI_COMM_WORLD, [&] {
    const InfoEntries& entries = info_entries(info);
    check_out(nkeys, "nkeys");
    *nkeys = static_cast<int>(entries.size());
  });
}

int MPI_Info_get_nthkey(MPI_Info info, int n, char* key) {
  return guarded("MPI_Info_get_nthkey", MPI_COMM_WORLD, [&] {
    const InfoEntries& entries = info_entries(info);
    if (n < 0 || n >= static_cast<int>(entries.size())) {
      fail(MPI_ERR_ARG,
           "invalid n " + std::to_string(n) + " (" + std::to_string(entries.size()) + " keys)");
    }
    check_out(key, "key");
    copy_text(entries[static_cast<std::size_t>(n)].first, key, MPI_MAX_INFO_KEY);
  });
}

int MPI_Info_delete(MPI_Info info, const char* key) {
  return guarded("MPI_Info_delete", MPI_COMM_WORLD, [&] {
    InfoEntries& entries = modifiable_info_entries(info);
    std::string name = checked_info_key(key);
    for (auto it = entries.begin(); it != entries.end(); ++it) {
      if (it->first == name) {
        entries.erase(it);
        return;
      }
    }
    fail(MPI_ERR_INFO_NOKEY, "no key \"" + name + "\"");
  });
}

int MPI_Info_dup(MPI_Info info, MPI_Info* newinfo) {
  return guarded("MPI_Info_dup", MPI_COMM_WORLD, [&] {
    InfoEntries copy = info_entries(info);
    check_out(newinfo, "newinfo");
    *newinfo = add_info(std::move(copy));
  });
}

int MPI_Info_free(MPI_Info* info) {
  return guarded("MPI_Info_free", MPI_COMM_WORLD, [&] {
    check_out(info, "info");
    free_info(*info);
    *info = MPI_INFO_NULL;
  });
}

int MPI_Comm_set_info(MPI_Comm comm, MPI_Info info) {
  return guarded("MPI_Comm_set_info", comm, [&] {
    CommEntry& entry = shim_state().comm(comm);
    entry.hints = info_entries(info);
  });
}

int MPI_Comm_get_info(MPI_Comm comm, MPI_Info* info_used) {
  return guarded("MPI_Comm_get_info", comm, [&] {
    const CommEntry& entry = shim_state().comm(comm);
    check_out(info_used, "info_used");
    *info_used = add_info(entry.hints);
  });
}

}  // extern "C"
