#include "shim/user_error_codes.hpp"

#include <mpi.h>

#include <vector>

#include "shim/mpi_error.hpp"

namespace halyard::mpi_shim {

namespace {

struct AddedCode {
  int error_class;
  std::string text;
};

struct AddedCodes {
  std::vector<AddedCode> codes;  // codes[i] is value MPI_ERR_LASTCODE + 1 + i
  int last_used = MPI_ERR_LASTCODE;
};

AddedCodes& added() {
  static AddedCodes table;
  return table;
}

AddedCode* find_added(int code) {
  long index = static_cast<long>(code) - MPI_ERR_LASTCODE - 1;
  auto& codes = added().codes;
  return index >= 0 && index < static_cast<long>(codes.size())
             ? &codes[static_cast<std::size_t>(index)]
             : nullptr;
}

int append(int error_class) {
  AddedCodes& table = added();
  int value = ++table.last_used;
  table.codes.push_back({error_class < 0 ? value : error_class, ""});
  return value;
}

}  // namespace

int add_error_class() {
  return append(-1);
}

int add_error_code(int error_class) {
  bool predefined = error_class >= MPI_SUCCESS && error_class <= MPI_ERR_LASTCODE;
  AddedCode* entry = find_added(error_class);
  if (!predefined && (entry == nullptr || entry->error_class != error_class)) {
    fail(MPI_ERR_ARG, "invalid error class " + std::to_string(error_class));
  }
  return append(error_class);
}

void set_error_string(int code, std::string text) {
  AddedCode* entry = find_added(code);
  if (entry == nullptr) {
    fail(MPI_ERR_ARG, "error code " + std::to_string(code) +
                          " was not added by MPI_Add_error_class or MPI_Add_error_code");
  }
  if (text.size() >= MPI_MAX_ERROR_STRING) {
    fail(MPI_ERR_ARG, "the string is longer than MPI_MAX_ERROR_STRING - 1");
  }
  entry->text = std::move(text);
}

int added_code_class(int code) {
  const AddedCode* entry = find_added(code);
  return entry != nullptr ? entry->error_class : -1;
}

const std::string& added_code_text(int code) {
  return find_added(code)->text;
}

const int* last_used_code() {
  return &added().last_used;
}

}  // namespace halyard::mpi_shim
