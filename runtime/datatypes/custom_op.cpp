#include "runtime/datatypes/custom_op.hpp"

#include <array>
#include <memory>
#include <mutex>

#include "runtime/support/error.hpp"

namespace halyard {
namespace {

// Slot i holds the op of value kOpCount + i. Entries are heap objects, so a reference handed
// out stays valid while other slots change.
struct Registry {
  std::mutex mutex;
  std::array<std::unique_ptr<const CustomOp>, kMaxCustomOps> slots;
};

// Never destroyed: registrations held by other static objects are released at exit, after a
// static registry would already be gone.
Registry& registry() {
  static Registry* instance = new Registry;
  return *instance;
}

// The slot of a value above the predefined ops, or kMaxCustomOps for a predefined one.
std::size_t slot_of(Op op) {
  const auto value = static_cast<std::size_t>(op);
  return value < kOpCount ? kMaxCustomOps : value - kOpCount;
}

const CustomOp* find(Op op) {
  const std::size_t slot = slot_of(op);
  if (slot >= kMaxCustomOps) return nullptr;
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  return r.slots[slot].get();
}

}  // namespace

Op register_custom_op(CustomOp op) {
  if (!op.combine || op.element_bytes == 0) {
    throw Error(ErrorCode::kInvalidArgument,
                "a custom op needs a function and an element size above 0");
  }
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  for (std::size_t slot = 0; slot < kMaxCustomOps; ++slot) {
    if (r.slots[slot] == nullptr) {
      r.slots[slot] = std::make_unique<const CustomOp>(std::move(op));
      return static_cast<Op>(kOpCount + slot);
    }
  }
  throw Error(ErrorCode::kUnsupported, "too many custom reduction ops in use at once (" +
                                           std::to_string(kMaxCustomOps) + ")");
}

void release_custom_op(Op op) {
  const std::size_t slot = slot_of(op);
  if (slot >= kMaxCustomOps) return;
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  r.slots[slot].reset();
}

bool op_is_custom(Op op) {
  return find(op) != nullptr;
}

bool op_is_commutative(Op op) {
  const CustomOp* custom = find(op);
  return custom == nullptr || custom->commutative;
}

const CustomOp& custom_op(Op op) {
  if (const CustomOp* custom = find(op)) return *custom;
  throw Error(ErrorCode::kInvalidArgument,
              "op " + std::to_string(static_cast<unsigned>(op)) + " is not a registered custom op");
}

}  // namespace halyard
