// FlightRecorder: this rank's last N collective calls, in a file hlaunch reads to say which rank
// a hung job waits for (docs/reliability.md, "Finding the hung rank").
//
// hlaunch names a private directory in HALYARD_RECORDER_DIR; the rank creates its file there
// (rank-<world rank>, mode 0600) and maps it shared. Each call costs a few stores into a fixed
// ring (no allocation, no lock, no system call); its end, one more. Nothing here runs when a
// dump is asked for: hlaunch reads the mapping itself, which is why a stopped rank or one busy
// in computation is reported as well as a waiting one.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>
#include <vector>

#include "runtime/flight_recorder_layout.hpp"
#include "runtime/support/error.hpp"

namespace halyard {

class FlightRecorder {
 public:
  // The recorder of world rank `rank`, or null when hlaunch gave no directory, when
  // HALYARD_RECORDER_SIZE is 0 (its default unless `watchdog_on`: HALYARD_COLL_TIMEOUT), or when
  // the file cannot be made (a rank on another host: the directory is hlaunch's). Throws
  // Error(kInvalidArgument) for a malformed size.
  static std::unique_ptr<FlightRecorder> open_from_environment(int rank, bool watchdog_on);

  // The mapping is never unmapped: completions that run late still write into it.
  ~FlightRecorder() = default;
  FlightRecorder(const FlightRecorder&) = delete;
  FlightRecorder& operator=(const FlightRecorder&) = delete;

  // A name as a slot holds it: cut to kNameBytes - 1 characters, NUL-padded, so that recording
  // it is one fixed-size copy.
  using Name = std::array<char, recorder::kNameBytes>;
  static Name name_of(std::string_view name) noexcept;
  // The Name of a string that lives as long as the process (a catalog entry's name), looked up
  // by its address in a small per-recorder cache: no copy of its characters per call.
  const Name& static_name(std::string_view name) noexcept;

  // Records a posted call and returns its record number (for ended()).
  std::uint64_t posted(std::uint32_t comm, std::uint32_t comm_size, std::uint64_t sequence,
                       const Name& collective, const Name& algorithm,
                       std::uint64_t bytes) noexcept {
    const std::uint64_t record = ++records_;
    recorder::Slot& slot = slot_of(record);
    recorder::store(slot.record, std::uint64_t{0});
    slot.sequence = sequence;
    slot.bytes = bytes;
    slot.comm = comm;
    slot.comm_size = comm_size;
    slot.state = static_cast<std::uint32_t>(recorder::CallState::kPosted);
    std::memcpy(slot.collective, collective.data(), recorder::kNameBytes);
    std::memcpy(slot.algorithm, algorithm.data(), recorder::kNameBytes);
    recorder::store(slot.record, record, std::memory_order_release);
    recorder::store(header_->records, record, std::memory_order_release);
    return record;
  }
  // Marks record `record` ended with `status`, unless the ring has reused its slot since.
  void ended(std::uint64_t record, const Status& status) noexcept;
  // HALYARD_COLL_TIMEOUT gave up: `world_ranks` are the ranks this process still waited for
  // (kAnySource entries are left out); every call still posted is marked timed out.
  void waiting_for(const std::vector<int>& world_ranks) noexcept;

 private:
  explicit FlightRecorder(recorder::Header* header) : header_(header) {}
  recorder::Slot& slot_of(std::uint64_t record) noexcept {
    return recorder::slots_of(header_)[(record - 1) % header_->slots];
  }
  struct CachedName {
    const char* data = nullptr;
    std::size_t size = 0;
    Name name{};
  };

  recorder::Header* header_;
  std::uint64_t records_ = 0;  // kept here too: the header's copy is only ever written
  std::array<CachedName, 32> names_{};
};

}  // namespace halyard
