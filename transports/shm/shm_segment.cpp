#include "transports/shm/shm_segment.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <utility>

#include "runtime/support/error.hpp"

namespace halyard::shm {
namespace {

std::size_t round_up(std::size_t n, std::size_t to) {
  return (n + to - 1) / to * to;
}

[[noreturn]] void fail(const std::string& what, int error_number) {
  throw Error(ErrorCode::kTransport, "shm: " + what + ": " + std::strerror(error_number));
}

std::byte* map_shared(int fd, std::size_t bytes, const std::string& what) {
  void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (p == MAP_FAILED) fail("mmap of " + what, errno);
  return static_cast<std::byte*>(p);
}

}  // namespace

SegmentLayout::SegmentLayout(const SegmentGeometry& g) : g_(g) {
  std::size_t n = g.local_size;
  // Page-aligned regions and strides keep every ring on its own pages (no false sharing, and
  // a ring that is never used is never touched, so it costs no memory).
  const std::size_t page = 4096;
  blocks_ = round_up(sizeof(SegmentHeader), page);
  ring_stride_ = round_up(SpscCellRing::shared_bytes(g.ring_cells, g.cell_size), page);
  staging_stride_ = round_up(SpscCellRing::shared_bytes(g.staging_slots, g.staging_chunk), page);
  rings_ = blocks_ + round_up(n * sizeof(ProcessBlock), page);
  staging_ = rings_ + n * n * ring_stride_;
  scratch_ = staging_ + n * n * staging_stride_;
  channels_ = scratch_ + n * round_up(kScratchSlotBytes, page);
  total_ = channels_ + n * round_up(kChannelRegionBytes, page);
}

std::size_t SegmentLayout::process_block(std::uint32_t local) const {
  return blocks_ + local * sizeof(ProcessBlock);
}
std::size_t SegmentLayout::ring(std::uint32_t sender, std::uint32_t receiver) const {
  return rings_ + (std::size_t{sender} * g_.local_size + receiver) * ring_stride_;
}
std::size_t SegmentLayout::staging(std::uint32_t sender, std::uint32_t receiver) const {
  return staging_ + (std::size_t{sender} * g_.local_size + receiver) * staging_stride_;
}

std::size_t SegmentLayout::scratch(std::uint32_t local) const {
  return scratch_ + local * round_up(kScratchSlotBytes, 4096);
}

std::size_t SegmentLayout::channels(std::uint32_t local) const {
  return channels_ + local * round_up(kChannelRegionBytes, 4096);
}

SharedSegment& SharedSegment::operator=(SharedSegment&& other) noexcept {
  if (this != &other) {
    reset();
    base_ = std::exchange(other.base_, nullptr);
    size_ = std::exchange(other.size_, 0);
    fd_ = std::exchange(other.fd_, -1);
  }
  return *this;
}

SharedSegment::~SharedSegment() {
  reset();
}

void SharedSegment::reset() {
  if (base_ != nullptr) ::munmap(base_, size_);
  close_descriptor();
  base_ = nullptr;
  size_ = 0;
}

void SharedSegment::close_descriptor() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

SharedSegment SharedSegment::create(const std::string& debug_name, std::size_t bytes) {
  SharedSegment s;
  s.fd_ = ::memfd_create(debug_name.c_str(), MFD_CLOEXEC);
  if (s.fd_ < 0) fail("memfd_create(" + debug_name + ")", errno);
  // memfd starts as 0777; only this user's processes may open it through /proc.
  if (::fchmod(s.fd_, 0600) != 0) fail("fchmod of the segment", errno);
  if (::ftruncate(s.fd_, static_cast<off_t>(bytes)) != 0) {
    fail("ftruncate of the segment to " + std::to_string(bytes) + " bytes", errno);
  }
  s.size_ = bytes;
  s.base_ = map_shared(s.fd_, bytes, "the new segment");
  return s;
}

SharedSegment SharedSegment::open(const std::string& locator, int creator_pid) {
  int pid = 0, fd = 0;
  auto colon = locator.find(':');
  const char* end = locator.data() + locator.size();
  if (colon == std::string::npos ||
      std::from_chars(locator.data(), locator.data() + colon, pid).ec != std::errc() ||
      std::from_chars(locator.data() + colon + 1, end, fd).ec != std::errc()) {
    throw Error(ErrorCode::kInternal, "shm: malformed segment locator '" + locator + "'");
  }
  if (pid != creator_pid) {
    throw Error(ErrorCode::kTransport,
                "shm: the segment locator '" + locator + "' names pid " + std::to_string(pid) +
                    ", not the node's first rank (pid " + std::to_string(creator_pid) + ")");
  }
  std::string path = "/proc/" + std::to_string(pid) + "/fd/" + std::to_string(fd);
  SharedSegment s;
  s.fd_ = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (s.fd_ < 0) fail("open " + path + " (the node's segment)", errno);
  struct stat st {};
  if (::fstat(s.fd_, &st) != 0) fail("fstat " + path, errno);
  if (st.st_uid != ::geteuid()) {
    throw Error(ErrorCode::kTransport, "shm: " + path + " belongs to uid " +
                                           std::to_string(st.st_uid) + ", not to this user (uid " +
                                           std::to_string(::geteuid()) + ")");
  }
  s.size_ = static_cast<std::size_t>(st.st_size);
  if (s.size_ < sizeof(SegmentHeader)) {
    throw Error(ErrorCode::kTransport, "shm: " + path + " is not a Halyard segment (too small)");
  }
  s.base_ = map_shared(s.fd_, s.size_, path);
  s.close_descriptor();  // the mapping keeps the memory alive
  return s;
}

std::string SharedSegment::locator() const {
  return std::to_string(::getpid()) + ":" + std::to_string(fd_);
}

}  // namespace halyard::shm
