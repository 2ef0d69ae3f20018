#include "shim/shim_state.hpp"

#include <cstdint>
#include <cstdio>
#include <string>

#include "shim/handle_bits.hpp"
#include "shim/mpi_error.hpp"

namespace halyard::mpi_shim {

namespace {

constexpr std::size_t kWorldIndex = 1;
constexpr std::size_t kSelfIndex = 2;

// The table index a handle of `kind` names, or 0 (the null slot) when it names none.
template <typename Table>
std::size_t slot_of(int handle, int kind, const Table& table) {
  const std::size_t index = handle_index(handle, kind);
  return index < table.size() && table[index].has_value() ? index : 0;
}

template <typename Table, typename Entry>
std::size_t insert(Table& table, std::vector<std::size_t>& free_slots, Entry entry) {
  if (table.empty()) table.emplace_back();  // slot 0 is the null handle
  if (!free_slots.empty()) {
    std::size_t index = free_slots.back();
    free_slots.pop_back();
    table[index] = std::move(entry);
    return index;
  }
  table.emplace_back(std::move(entry));
  return table.size() - 1;
}

std::string hex(int handle) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%08x", static_cast<unsigned>(handle));
  return text;
}

}  // namespace

void ShimState::initialize() {
  runtime_ = new Runtime();
  phase_ = Phase::kInitialized;
  // A progress thread (HALYARD_PROGRESS_THREAD=1) runs completions, and the shim's callbacks in
  // them (a buffered send giving its region back, ...), under the loop's lock whatever thread
  // level the program asked for: every MPI call then holds that lock too (call_guard.hpp).
  if (runtime_->progress_thread_running()) locked_loop_ = &runtime_->loop();
  const Communicator& world = runtime_->world();
  comms_.clear();
  comms_.emplace_back();  // MPI_COMM_NULL
  comms_.emplace_back(CommEntry{world, world_errhandler_, "MPI_COMM_WORLD", {}, {}});
  // Every rank its own group: split is collective over the world, which MPI_Init is too.
  comms_.emplace_back(
      CommEntry{world.split(world.rank(), 0), MPI_ERRORS_ARE_FATAL, "MPI_COMM_SELF", {}, {}});
  world_entry_ = &*comms_[kWorldIndex];
}

void ShimState::share_between_threads() {
  runtime_->share_loop();
  locked_loop_ = &runtime_->loop();
}

void ShimState::finalize() {
  // MPI_Finalize runs alone (the standard requires it) and without the call lock: the
  // runtime's finalize removes the lock.
  locked_loop_ = nullptr;
  world_errhandler_ = world_errhandler();
  world_entry_ = nullptr;
  comms_.clear();
  free_comms_.clear();
  requests_.clear();
  messages_.clear();
  phase_ = Phase::kFinalized;
  Runtime* runtime = runtime_;
  runtime_ = nullptr;
  runtime->finalize();
  delete runtime;
}

MPI_Errhandler ShimState::world_errhandler() const {
  if (phase_ == Phase::kInitialized) return comms_[kWorldIndex]->errhandler;
  return world_errhandler_;
}

CommEntry& ShimState::comm(MPI_Comm handle) {
  if (CommEntry* entry = find_comm(handle)) return *entry;
  if (handle == MPI_COMM_NULL) fail(MPI_ERR_COMM, "communicator is MPI_COMM_NULL");
  fail(MPI_ERR_COMM, "invalid communicator " + hex(handle));
}

CommEntry* ShimState::find_comm(MPI_Comm handle) {
  if (handle == MPI_COMM_WORLD && world_entry_ != nullptr) return world_entry_;
  std::size_t index = slot_of(handle, HALYARD_MPI_KIND_COMM, comms_);
  return index == 0 ? nullptr : &*comms_[index];
}

MPI_Comm ShimState::add_comm(Communicator comm, MPI_Errhandler errhandler) {
  std::size_t index =
      insert(comms_, free_comms_, CommEntry{std::move(comm), errhandler, {}, {}, {}});
  return HALYARD_MPI_KIND_COMM | static_cast<int>(index);
}

void ShimState::remove_comm(MPI_Comm handle) {
  std::size_t index = slot_of(handle, HALYARD_MPI_KIND_COMM, comms_);
  if (index == kWorldIndex || index == kSelfIndex) {
    fail(MPI_ERR_COMM,
         std::string("cannot free ") + (index == kWorldIndex ? "MPI_COMM_WORLD" : "MPI_COMM_SELF"));
  }
  if (index == 0) comm(handle);  // reports why the handle is invalid
  comms_[index].reset();
  free_comms_.push_back(index);
}

}  // namespace halyard::mpi_shim
