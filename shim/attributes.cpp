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
  AttributeHost host = AttributeHost::kComm;
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

const char* host_name(AttributeHost host) {
  switch (host) {
    case AttributeHost::kComm:
      return "communicators";
    case AttributeHost::kWin:
      return "windows";
    case AttributeHost::kType:
      return "datatypes";
  }
  return "?";
}

// A keyval of `host` that is not freed.
Keyval& live_keyval(AttributeHost host, int keyval) {
  Keyval* entry = keyvals().find(keyval);
  if (entry == nullptr || entry->freed) invalid_keyval(keyval);
  if (entry->host != host) {
    fail(MPI_ERR_KEYVAL, "keyval " + std::to_string(keyval) + " was made for " +
                             host_name(entry->host) + ", not " + host_name(host));
  }
  return *entry;
}

// A keyval the application may set or delete with.
Keyval& user_keyval(AttributeHost host, int keyval) {
  Keyval& entry = live_keyval(host, keyval);
  if (keyvals().is_predefined(keyval)) {
    fail(MPI_ERR_KEYVAL, "keyval " + std::to_string(keyval) + " is predefined (read-only)");
  }
  return entry;
}

void run_delete(int handle, int keyval, void* value) {
  const Keyval& entry = *keyvals().find(keyval);
  if (entry.remove == nullptr) return;
  int code = entry.remove(handle, keyval, value, entry.extra_state);
  if (code != MPI_SUCCESS) {
    fail(code, "the delete callback of keyval " + std::to_string(keyval) + " returned " +
                   std::to_string(code));
  }
}

std::map<MPI_Datatype, AttributeMap>& attributes_of_types() {
  static std::map<MPI_Datatype, AttributeMap> table;
  return table;
}

}  // namespace

int create_keyval(AttributeHost host, MPI_Comm_copy_attr_function* copy,
                  MPI_Comm_delete_attr_function* remove, void* extra_state) {
  return keyvals().add({copy, remove, extra_state, host, false});
}

void free_keyval(AttributeHost host, int keyval) {
  user_keyval(host, keyval).freed = true;
}

void set_attribute(AttributeHost host, int handle, AttributeMap& attributes, int keyval,
                   void* value) {
  user_keyval(host, keyval);
  auto it = attributes.find(keyval);
  if (it != attributes.end()) run_delete(handle, keyval, it->second);
  attributes[keyval] = value;
}

bool get_attribute(AttributeHost host, const AttributeMap& attributes, int keyval, void** value) {
  live_keyval(host, keyval);
  if (keyvals().is_predefined(keyval)) {
    *value = const_cast<int*>(predefined_value(keyval));
    return true;
  }
  auto it = attributes.find(keyval);
  if (it == attributes.end()) return false;
  *value = it->second;
  return true;
}

void delete_attribute(AttributeHost host, int handle, AttributeMap& attributes, int keyval) {
  user_keyval(host, keyval);
  auto it = attributes.find(keyval);
  if (it == attributes.end()) {
    fail(MPI_ERR_KEYVAL, std::string("the ") + host_name(host) +
                             " object has no attribute for keyval " + std::to_string(keyval));
  }
  run_delete(handle, keyval, it->second);
  attributes.erase(it);
}

AttributeMap copied_attributes(int handle, const AttributeMap& attributes) {
  AttributeMap copies;
  for (const auto& [keyval, value] : attributes) {
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

void delete_all_attributes(int handle, AttributeMap& attributes) {
  while (!attributes.empty()) {
    auto last = std::prev(attributes.end());
    int keyval = last->first;
    void* value = last->second;
    attributes.erase(last);
    run_delete(handle, keyval, value);
  }
}

AttributeMap& type_attributes(MPI_Datatype handle) {
  return attributes_of_types()[handle];
}

void forget_type_attributes(MPI_Datatype handle) {
  attributes_of_types().erase(handle);
}

}  // namespace halyard::mpi_shim
