// FlightRecorder: this rank's last N collective calls, in a file hlaunch reads to say which rank
// a hung job waits for (docs/reliability.md, "Finding the hung rank").
//
// hlaunch names a private directory in HALYARD_RECORDER_DIR; the rank creates its file there
// (rank-<world rank>, mode 0600) and maps it shared. Each call costs a few stores into a fixed
// ring (no allocation, no lock, no system call, no name copied); its end, one more. Nothing here
// runs when a dump is asked for: hlaunch reads the mapping itself, which is why a stopped rank or
// one busy in computation is reported as well as a waiting one.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "runtime/flight_recorder_layout.hpp"
#include "runtime/support/error.hpp"

namespace halyard {

class FlightRecorder {
 public:
  // The recorder of world rank `rank` (HALYARD_RECORDER_SIZE calls, 64 by default, rounded up to
  // a power of two), or null when hlaunch gave no directory, when HALYARD_RECORDER_SIZE is 0, or
  // when the file cannot be made (a rank on another host: the directory is hlaunch's). Throws
  // Error(kInvalidArgument) for a malformed size.
  static std::unique_ptr<FlightRecorder> open_from_environment(int rank);

  // The mapping is never unmapped: completions that run late still write into it.
  ~FlightRecorder() = default;
  FlightRecorder(const FlightRecorder&) = delete;
  FlightRecorder& operator=(const FlightRecorder&) = delete;

  // A name's index in the recorder's name table, found by its text (cut to kNameBytes - 1
  // characters) and added when new; recorder::kUnnamed once the table is full. A search of the
  // table: call_names() below caches what a call needs.
  std::uint16_t name_index(std::string_view name) noexcept;

  // The name indices of a call kind, e.g. (allreduce, base:ring), cached under `key`: an
  // address that stands for that pair for the process's life (a catalog entry). A known pair
  // costs one compare; only a new one calls `names_of()` for the two names and looks them up.
  struct CallNames {
    std::uint16_t collective = recorder::kUnnamed;
    std::uint16_t algorithm = recorder::kUnnamed;
  };
  template <class NamesOf>
  CallNames call_names(const void* key, NamesOf&& names_of) noexcept {
    CachedPair& cached = pairs_[(reinterpret_cast<std::uintptr_t>(key) >> 4) % pairs_.size()];
    if (cached.key == key) [[likely]]
      return cached.names;
    const auto [collective, algorithm] = names_of();
    cached = {key, {name_index(collective), name_index(algorithm)}};
    return cached.names;
  }

  // A call's place in the ring, for ended().
  struct Entry {
    recorder::Slot* slot = nullptr;
    std::uint64_t record = 0;
  };

  // Records a posted call.
  Entry posted(std::uint32_t comm, std::uint32_t comm_size, std::uint64_t sequence, CallNames names,
               std::uint64_t bytes) noexcept {
    const std::uint64_t record = ++records_;
    recorder::Slot& slot = slot_of(record);
    recorder::store(slot.record, std::uint64_t{0});
    slot.sequence = sequence;
    slot.bytes = bytes;
    slot.comm = comm;
    slot.comm_size = comm_size;
    // Atomic like ended()'s store: a blocking call's end is recorded outside the loop's lock.
    recorder::store(slot.state, static_cast<std::uint32_t>(recorder::CallState::kPosted));
    slot.collective = names.collective;
    slot.algorithm = names.algorithm;
    recorder::store(slot.record, record, std::memory_order_release);
    recorder::store(header_->records, record, std::memory_order_release);
    return {&slot, record};
  }
  // Marks `entry` ended with `status`, unless the ring has reused its slot since.
  static void ended(const Entry& entry, const Status& status) noexcept {
    if (recorder::load(entry.slot->record) != entry.record) return;  // the ring moved on
    const recorder::CallState state = status.ok() ? recorder::CallState::kCompleted
                                      : status.code == ErrorCode::kTimeout
                                          ? recorder::CallState::kTimedOut
                                          : recorder::CallState::kFailed;
    recorder::store(entry.slot->state, static_cast<std::uint32_t>(state),
                    std::memory_order_release);
  }
  // HALYARD_COLL_TIMEOUT gave up: `world_ranks` are the ranks this process still waited for
  // (kAnySource entries are left out); every call still posted is marked timed out.
  void waiting_for(const std::vector<int>& world_ranks) noexcept;

 private:
  explicit FlightRecorder(recorder::Header* header) : header_(header), mask_(header->slots - 1) {}
  recorder::Slot& slot_of(std::uint64_t record) noexcept {
    return recorder::slots_of(header_)[(record - 1) & mask_];
  }
  struct CachedPair {
    const void* key = nullptr;
    CallNames names;
  };

  recorder::Header* header_;
  std::uint64_t mask_;         // slots - 1
  std::uint64_t records_ = 0;  // kept here too: the header's copy is only ever written
  std::array<CachedPair, 64> pairs_{};
};

}  // namespace halyard
