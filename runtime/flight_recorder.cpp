#include "runtime/flight_recorder.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstring>
#include <string>

#include "runtime/support/config.hpp"
#include "runtime/support/log.hpp"

namespace halyard {

std::unique_ptr<FlightRecorder> FlightRecorder::open_from_environment(int rank) {
  std::optional<std::string> dir = config::env_string("HALYARD_RECORDER_DIR");
  if (!dir || dir->empty()) return nullptr;
  // On by default: a call costs a handful of stores (docs/reliability.md, "Finding the hung
  // rank", has the A/B figures).
  std::int64_t slots = config::env_int("HALYARD_RECORDER_SIZE", recorder::kDefaultSlots);
  if (slots < 0 || slots > recorder::kMaxSlots) {
    throw Error(ErrorCode::kInvalidArgument, "HALYARD_RECORDER_SIZE=" + std::to_string(slots) +
                                                 ": expected 0 to " +
                                                 std::to_string(recorder::kMaxSlots) + " calls");
  }
  if (slots == 0) return nullptr;
  slots = static_cast<std::int64_t>(std::bit_ceil(static_cast<std::uint64_t>(slots)));
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

std::uint16_t FlightRecorder::name_index(std::string_view name) noexcept {
  const std::size_t length = std::min(name.size(), recorder::kNameBytes - 1);
  const std::uint32_t count = header_->name_count;
  for (std::uint32_t i = 0; i < count; ++i) {
    if (std::strncmp(header_->names[i], name.data(), length) == 0 &&
        header_->names[i][length] == '\0') {
      return static_cast<std::uint16_t>(i);
    }
  }
  if (count == recorder::kMaxNames) return recorder::kUnnamed;
  std::memcpy(header_->names[count], name.data(), length);  // the rest is already NUL
  recorder::store(header_->name_count, count + 1, std::memory_order_release);
  return static_cast<std::uint16_t>(count);
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
    if (recorder::load(slot.state) == static_cast<std::uint32_t>(recorder::CallState::kPosted)) {
      recorder::store(slot.state, static_cast<std::uint32_t>(recorder::CallState::kTimedOut),
                      std::memory_order_release);
    }
  }
}

}  // namespace halyard
