// MPI_Op_create, MPI_Op_free, MPI_Op_commutative and the user ops' table.
#include "shim/user_ops.hpp"

#include <climits>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "shim/call_guard.hpp"
#include "shim/handle_bits.hpp"
#include "shim/mpi_error.hpp"

using namespace halyard::mpi_shim;

namespace halyard::mpi_shim {

namespace {

// Handle index of the first user op: above any predefined op the table will ever hold.
constexpr int kFirstUserOp = 0x1000;

struct UserOpTable {
  std::deque<std::optional<UserOp>> ops;  // slot i is handle index kFirstUserOp + i
  std::vector<std::size_t> free_slots;
};

UserOpTable& table() {
  static UserOpTable instance;
  return instance;
}

std::optional<std::size_t> slot_of(MPI_Op op) {
  const std::size_t index = handle_index(op, HALYARD_MPI_KIND_OP);
  if (index < kFirstUserOp) return std::nullopt;
  std::size_t slot = index - kFirstUserOp;
  if (slot >= table().ops.size() || !table().ops[slot].has_value()) return std::nullopt;
  return slot;
}

// MPI's user function takes an int length: longer vectors go in int-sized pieces.
void call_user_function(MPI_User_function* function, MPI_Datatype datatype, std::size_t size,
                        const void* in, void* inout, std::size_t elements) {
  auto* left = static_cast<unsigned char*>(const_cast<void*>(in));
  auto* right = static_cast<unsigned char*>(inout);
  while (elements > 0) {
    int len = elements > INT_MAX ? INT_MAX : static_cast<int>(elements);
    MPI_Datatype type = datatype;
    function(left, right, &len, &type);
    left += static_cast<std::size_t>(len) * size;
    right += static_cast<std::size_t>(len) * size;
    elements -= static_cast<std::size_t>(len);
  }
}

}  // namespace

UserOp* find_user_op(MPI_Op op) {
  auto slot = slot_of(op);
  return slot ? &*table().ops[*slot] : nullptr;
}

std::shared_ptr<const CustomOpRegistration> user_reduction(UserOp& op, MPI_Datatype datatype,
                                                           std::size_t element_bytes,
                                                           const std::string& type_name) {
  auto& registration = op.registrations[{datatype, element_bytes}];
  if (registration == nullptr) {
    CustomOp custom;
    const std::size_t size = element_bytes;
    custom.combine = [function = op.function, datatype, size](const void* in, void* inout,
                                                              std::size_t elements) {
      call_user_function(function, datatype, size, in, inout, elements);
    };
    custom.element_bytes = size;
    custom.commutative = op.commutative;
    custom.name =
        std::string(op.commutative ? "user op" : "non-commutative user op") + " on " + type_name;
    registration = std::make_shared<const CustomOpRegistration>(std::move(custom));
  }
  return registration;
}

}  // namespace halyard::mpi_shim

namespace {

// The user op MPI_Op_free may free: MPI_ERR_OP for a null, predefined, freed or unknown op.
UserOp& checked_user_op(const MPI_Op* op) {
  if (op == nullptr) fail(MPI_ERR_ARG, "op is NULL");
  if (UserOp* user = find_user_op(*op)) return *user;
  if (*op == MPI_OP_NULL) fail(MPI_ERR_OP, "op is MPI_OP_NULL");
  if (const OpInfo* predefined = find_op(*op)) {
    fail(MPI_ERR_OP, "cannot free the predefined op " + std::string(predefined->name));
  }
  fail(MPI_ERR_OP, "invalid op");
}

}  // namespace

extern "C" {

int MPI_Op_create(MPI_User_function* user_fn, int commute, MPI_Op* op) {
  return guarded("MPI_Op_create", MPI_COMM_WORLD, [&] {
    if (user_fn == nullptr) fail(MPI_ERR_ARG, "user_fn is NULL");
    if (op == nullptr) fail(MPI_ERR_ARG, "op is NULL");
    UserOpTable& t = table();
    UserOp entry{user_fn, commute != 0, {}};
    std::size_t slot;
    if (!t.free_slots.empty()) {
      slot = t.free_slots.back();
      t.free_slots.pop_back();
      t.ops[slot] = std::move(entry);
    } else {
      slot = t.ops.size();
      t.ops.emplace_back(std::move(entry));
    }
    *op = HALYARD_MPI_KIND_OP | (kFirstUserOp + static_cast<int>(slot));
  });
}

int MPI_Op_free(MPI_Op* op) {
  return guarded("MPI_Op_free", MPI_COMM_WORLD, [&] {
    checked_user_op(op);
    std::size_t slot = *slot_of(*op);
    table().ops[slot].reset();
    table().free_slots.push_back(slot);
    *op = MPI_OP_NULL;
  });
}

int MPI_Op_commutative(MPI_Op op, int* commute) {
  return guarded("MPI_Op_commutative", MPI_COMM_WORLD, [&] {
    if (commute == nullptr) fail(MPI_ERR_ARG, "commute is NULL");
    if (find_op(op) != nullptr) {
      *commute = 1;  // every predefined op is commutative
      return;
    }
    if (UserOp* user = find_user_op(op)) {
      *commute = user->commutative ? 1 : 0;
      return;
    }
    fail(MPI_ERR_OP, op == MPI_OP_NULL ? "op is MPI_OP_NULL" : "invalid op");
  });
}

}  // extern "C"
