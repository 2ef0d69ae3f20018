#include "shim/attributes.hpp"

#include <climits>
#include <string>

#include "shim/argument_checks.hpp"
#include "shim/handle_table.hpp"
#include "shim/mpi_error.hpp"
#include "shim/user_error_codes.hpp"

namespace halyard::mpi_shim {

namespace {

struct Keyval {
  MPI_Comm_copy_attr_function* copy = nullptr;
  MPI_Comm_delete_attr_function* remove = nullptr;
  void* extra_state = nullptr;
  bool freed = false;
};

constexpr int kPredefinedKeyvals = 7;  // MPI_TAG_UB .. MPI_LASTUSEDCODE

// Keyval slots are never reused: an attribute outlives the freeing of its keyval.
HandleTable<Keyval>& keyvals() {
  static HandleTable<Keyval> table = [] {
    HandleTable<Keyval> made(HALYARD_MPI_KIND_KEYVAL);
    for (int i = 0; i < kPredefinedKeyvals; ++i) made.add_predefined({});
    return made;
  }();
  return table;
}

// The values of the predefined attributes (MPI-3.1 section 8.1.2), true for Halyard:
// - MPI_TAG_UB: Halyard matches any tag >= 0 of an int;
// - MPI_HOST: no process is a host, so MPI_PROC_NULL;
// - MPI_IO: every rank has the C library's I/O, so MPI_ANY_SOURCE;
// - MPI_WTIME_IS_GLOBAL: MPI_Wtime counts from each process's own start, so 0;
// - MPI_UNIVERSE_SIZE: no spawning, so the job's size;
// - MPI_APPNUM: hlaunch starts one program, application 0.
const int* predefined_value(int keyval) {
  static const int tag_ub = INT_MAX;
  static const int host = kProcNull;
  static const int io = MPI_ANY_SOURCE;
  static const int wtime_is_global = 0;
  static const int appnum = 0;
  static int universe_size = 0;
  switch (keyval) {
    case MPI_TAG_UB:
      return &tag_ub;
    case MPI_HOST:
      return &host;
    case MPI_IO:
      return &io;
    case MPI_WTIME_IS_GLOBAL:
      return &wtime_is_global;
    case MPI_UNIVERSE_SIZE:
      universe_size = shim_state().runtime().world().size();
      return &universe_size;
    case MPI_APPNUM:
      return &appnum;
    default:
      return last_used_code();  // MPI_LASTUSEDCODE
  }
}

[[noreturn]] void invalid_keyval(int keyval) {
  if (keyval == MPI_KEYVAL_INVALID) fail(MPI_ERR_KEYVAL, "keyval is MPI_KEYVAL_INVALID");
  fail(MPI_ERR_KEYVAL, "invalid keyval " + std::to_string(keyval));
}

// A keyval the application may set or delete with.
Keyval& user_keyval(int keyval) {
  Keyval* entry = keyvals().find(keyval);
  if (entry == nullptr || entry->freed) invalid_keyval(keyval);
  if (keyvals().is_predefined(keyval)) {
    fail(MPI_ERR_KEYVAL, "keyval " + std::to_string(keyval) + " is predefined (read-only)");
  }
  return *entry;
}

void run_delete(MPI_Comm handle, int keyval, void* value) {
  const Keyval& entry = *keyvals().find(keyval);
  if (entry.remove == nullptr) return;
  int code = entry.remove(handle, keyval, value, entry.extra_state);
  if (code != MPI_SUCCESS) {
    fail(code, "the delete callback of keyval " + std::to_string(keyval) + " returned " +
                   std::to_string(code));
  }
}

}  // namespace

int create_keyval(MPI_Comm_copy_attr_function* copy, MPI_Comm_delete_attr_function* remove,
                  void* extra_state) {
  return keyvals().add({copy, remove, extra_state, false});
}

void free_keyval(int keyval) {
  user_keyval(keyval).freed = true;
}

void set_attribute(MPI_Comm handle, CommEntry& entry, int keyval, void* value) {
  user_keyval(keyval);
  auto it = entry.attributes.find(keyval);
  if (it != entry.attributes.end()) run_delete(handle, keyval, it->second);
  entry.attributes[keyval] = value;
}

bool get_attribute(const CommEntry& entry, int keyval, void** value) {
  Keyval* known = keyvals().find(keyval);
  if (known == nullptr || known->freed) invalid_keyval(keyval);
  if (keyvals().is_predefined(keyval)) {
    *value = const_cast<int*>(predefined_value(keyval));
    return true;
  }
  auto it = entry.attributes.find(keyval);
  if (it == entry.attributes.end()) return false;
  *value = it->second;
  return true;
}

void delete_attribute(MPI_Comm handle, CommEntry& entry, int keyval) {
  user_keyval(keyval);
  auto it = entry.attributes.find(keyval);
  if (it == entry.attributes.end()) {
    fail(MPI_ERR_KEYVAL, "the communicator has no attribute for keyval " + std::to_string(keyval));
  }
  run_delete(handle, keyval, it->second);
  entry.attributes.erase(it);
}

std::map<int, void*> copied_attributes(MPI_Comm handle, const CommEntry& entry) {
  std::map<int, void*> copies;
  for (const auto& [keyval, value] : entry.attributes) {
    const Keyval& known = *keyvals().find(keyval);
    if (known.copy == nullptr) continue;
    void* copy = nullptr;
    int flag = 0;
    int code = known.copy(handle, keyval, known.extra_state, value, &copy, &flag);
    if (code != MPI_SUCCESS) {
      fail(code, "the copy callback of keyval " + std::to_string(keyval) + " returned " +
                     std::to_string(code));
    }
    if (flag) copies[keyval] = copy;
  }
  return copies;
}

void delete_all_attributes(MPI_Comm handle, CommEntry& entry) {
  while (!entry.attributes.empty()) {
    auto last = std::prev(entry.attributes.end());
    int keyval = last->first;
    void* value = last->second;
    entry.attributes.erase(last);
    run_delete(handle, keyval, value);
  }
}

}  // namespace halyard::mpi_shim
