#include "runtime/flight_recorder.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>

#include "runtime/support/config.hpp"
#include "runtime/support/log.hpp"

namespace halyard {

namespace {

void copy_name(char (&to)[recorder::kNameBytes], std::string_view name) noexcept {
  std::size_t n = std::min(name.size(), recorder::kNameBytes - 1);
  std::memcpy(to, name.data(), n);
  to[n] = '\0';
}

}  // namespace

std::unique_ptr<FlightRecorder> FlightRecorder::open_from_environment(int rank, bool watchdog_on) {
  std::optional<std::string> dir = config::env_string("HALYARD_RECORDER_DIR");
  if (!dir || dir->empty()) return nullptr;
  // Off unless asked for, or unless HALYARD_COLL_TIMEOUT is on: recording costs about 260
  // instructions a call, a measurable 5-10% of a 4-byte collective on one node (as PyTorch's
  // NCCL flight recorder, which is off by default too).
  std::int64_t slots =
      config::env_int("HALYARD_RECORDER_SIZE", watchdog_on ? recorder::kDefaultSlots : 0);
  if (slots < 0 || slots > recorder::kMaxSlots) {
    throw Error(ErrorCode::kInvalidArgument, "HALYARD_RECORDER_SIZE=" + std::to_string(slots) +
                                                 ": expected 0 to " +
                                                 std::to_string(recorder::kMaxSlots) + " calls");
  }
  if (slots == 0) return nullptr;
  const std::string path = *dir + "/rank-" + std::to_string(rank);
  const std::size_t bytes = recorder::file_bytes(static_cast<std::uint32_t>(slots));
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0 || ::ftruncate(fd, static_cast<off_t>(bytes)) != 0) {
    // The directory is on hlaunch's host: a rank elsewhere goes without a recorder.
    log::debug("flight recorder off: cannot create {}: {}", path, std::strerror(errno));
    if (fd >= 0) ::close(fd);
    return nullptr;
  }
  void* map = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  ::close(fd);
  if (map == MAP_FAILED) return nullptr;
  auto* header = static_cast<recorder::Header*>(map);
  header->slots = static_cast<std::uint32_t>(slots);
  header->rank = rank;
  header->pid = static_cast<std::int32_t>(::getpid());
  recorder::store(header->magic, recorder::kMagic, std::memory_order_release);
  return std::unique_ptr<FlightRecorder>(new FlightRecorder(header));
}

std::uint64_t FlightRecorder::posted(std::uint32_t comm, std::uint32_t comm_size,
                                     std::uint64_t sequence, std::string_view collective,
                                     std::string_view algorithm, std::uint64_t bytes) noexcept {
  const std::uint64_t record = ++records_;
  recorder::Slot& slot = slot_of(record);
  recorder::store(slot.record, std::uint64_t{0});
  slot.sequence = sequence;
  slot.bytes = bytes;
  slot.comm = comm;
  slot.comm_size = comm_size;
  slot.state = static_cast<std::uint32_t>(recorder::CallState::kPosted);
  copy_name(slot.collective, collective);
  copy_name(slot.algorithm, algorithm);
  recorder::store(slot.record, record, std::memory_order_release);
  recorder::store(header_->records, record, std::memory_order_release);
  return record;
}

void FlightRecorder::ended(std::uint64_t record, const Status& status) noexcept {
  recorder::Slot& slot = slot_of(record);
  if (recorder::load(slot.record) != record) return;  // the ring moved on
  recorder::CallState state = status.ok()                          ? recorder::CallState::kCompleted
                              : status.code == ErrorCode::kTimeout ? recorder::CallState::kTimedOut
                                                                   : recorder::CallState::kFailed;
  recorder::store(slot.state, static_cast<std::uint32_t>(state), std::memory_order_release);
}

void FlightRecorder::waiting_for(const std::vector<int>& world_ranks) noexcept {
  for (int r : world_ranks) {
    if (r < 0 || r >= recorder::kWaitsForRanks) continue;  // kAnySource, or beyond the set
    std::uint64_t& word = header_->waits_for[r / 64];
    recorder::store(word, recorder::load(word) | (std::uint64_t{1} << (r % 64)));
  }
  recorder::store(header_->waits_for_record, records_, std::memory_order_release);
  // The process fails now: every call still posted ends timed out. Marked here, not by the
  // calls' completion callbacks, which a rank that exits on the error may never run.
  const std::uint64_t first = records_ > header_->slots ? records_ - header_->slots + 1 : 1;
  for (std::uint64_t record = first; record <= records_; ++record) {
    recorder::Slot& slot = slot_of(record);
    if (slot.state == static_cast<std::uint32_t>(recorder::CallState::kPosted)) {
      recorder::store(slot.state, static_cast<std::uint32_t>(recorder::CallState::kTimedOut),
                      std::memory_order_release);
    }
  }
}

}  // namespace halyard
