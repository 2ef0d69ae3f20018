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

std::unique_ptr<FlightRecorder> FlightRecorder::open_from_environment(int rank, bool watchdog_on) {
  std::optional<std::string> dir = config::env_string("HALYARD_RECORDER_DIR");
  if (!dir || dir->empty()) return nullptr;
  // Off unless asked for, or unless HALYARD_COLL_TIMEOUT is on: recording costs about 140
  // instructions a call, a measurable 10-15% of a 4-byte collective on one node
  // (docs/reliability.md; PyTorch's NCCL flight recorder is off by default too).
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

FlightRecorder::Name FlightRecorder::name_of(std::string_view name) noexcept {
  Name out{};
  std::memcpy(out.data(), name.data(), std::min(name.size(), recorder::kNameBytes - 1));
  return out;
}

const FlightRecorder::Name& FlightRecorder::static_name(std::string_view name) noexcept {
  CachedName& cached = names_[(reinterpret_cast<std::uintptr_t>(name.data()) >> 3) % names_.size()];
  if (cached.data != name.data() || cached.size != name.size()) {
    cached = {name.data(), name.size(), name_of(name)};
  }
  return cached.name;
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
