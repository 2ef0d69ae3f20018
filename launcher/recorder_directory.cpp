#include "launcher/recorder_directory.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "runtime/support/error.hpp"

namespace halyard::launcher {

namespace {

// The state letter of /proc/PID/stat ("PID (COMM) S ..."; COMM may hold spaces and parens).
char process_state(pid_t pid) {
  if (pid <= 0) return '?';
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::size_t close = text.rfind(')');
  if (close == std::string::npos || close + 2 >= text.size()) return '?';
  return text[close + 2];
}

// A consistent copy of the slot of `record`, or false when the writer was refilling it.
bool copy_slot(const recorder::Slot& slot, std::uint64_t record, recorder::Slot& out) {
  if (recorder::load(slot.record, std::memory_order_acquire) != record) return false;
  std::memcpy(&out, &slot, sizeof out);
  std::atomic_thread_fence(std::memory_order_acquire);
  out.state = recorder::load(slot.state, std::memory_order_acquire);
  return recorder::load(slot.record) == record;
}

// Name `index` of the header's table (published before any slot that refers to it), cut to
// fit `out`; "?" for kUnnamed or an index beyond what was published.
void copy_name(const recorder::Header* header, std::uint32_t name_count, std::uint16_t index,
               char (&out)[recorder::kNameBytes]) {
  if (index >= name_count) {
    std::strcpy(out, "?");
    return;
  }
  std::memcpy(out, header->names[index], recorder::kNameBytes);
  out[recorder::kNameBytes - 1] = '\0';
}

void read_mapping(const recorder::Header* header, std::size_t bytes, RankRecord& out) {
  if (recorder::load(header->magic, std::memory_order_acquire) != recorder::kMagic) return;
  const std::uint32_t slots = header->slots;
  if (slots == 0 || recorder::file_bytes(slots) > bytes) return;
  out.has_recorder = true;
  const std::uint64_t records = recorder::load(header->records, std::memory_order_acquire);
  const std::uint32_t name_count =
      std::min(recorder::load(header->name_count, std::memory_order_acquire), recorder::kMaxNames);
  const std::uint64_t first = records > slots ? records - slots + 1 : 1;
  for (std::uint64_t r = first; r <= records; ++r) {
    recorder::Slot copy{};
    if (!copy_slot(recorder::slots_of(header)[(r - 1) % slots], r, copy)) continue;
    recorder::Call call;
    call.record = copy.record;
    call.sequence = copy.sequence;
    call.bytes = copy.bytes;
    call.comm = copy.comm;
    call.comm_size = copy.comm_size;
    call.state = copy.state;
    copy_name(header, name_count, copy.collective, call.collective);
    copy_name(header, name_count, copy.algorithm, call.algorithm);
    out.calls.push_back(call);
  }
  out.waits_for_record = recorder::load(header->waits_for_record, std::memory_order_acquire);
  for (int r = 0; r < recorder::kWaitsForRanks; ++r) {
    if (recorder::load(header->waits_for[r / 64]) & (std::uint64_t{1} << (r % 64))) {
      out.waits_for.push_back(r);
    }
  }
}

}  // namespace

RecorderDirectory::RecorderDirectory() {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/halyard-recorder-XXXXXX";
  if (::mkdtemp(pattern.data()) == nullptr) {
    throw Error(ErrorCode::kInternal, "cannot make the flight recorder directory " + pattern +
                                          ": " + std::strerror(errno));
  }
  path_ = pattern;
}

RecorderDirectory::~RecorderDirectory() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

RankRecord RecorderDirectory::read(int rank, pid_t pid) const {
  RankRecord out;
  out.rank = rank;
  out.process_state = process_state(pid);
  const std::string file = path_ + "/rank-" + std::to_string(rank);
  int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return out;
  struct stat st {};
  if (::fstat(fd, &st) != 0 || st.st_uid != ::geteuid() ||
      static_cast<std::size_t>(st.st_size) < sizeof(recorder::Header)) {
    ::close(fd);
    return out;
  }
  const auto bytes = static_cast<std::size_t>(st.st_size);
  void* map = ::mmap(nullptr, bytes, PROT_READ, MAP_SHARED, fd, 0);
  ::close(fd);
  if (map == MAP_FAILED) return out;
  read_mapping(static_cast<const recorder::Header*>(map), bytes, out);
  ::munmap(map, bytes);
  return out;
}

}  // namespace halyard::launcher
