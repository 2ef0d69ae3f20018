#include "rma/window_segment.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "rma/window_error.hpp"

namespace halyard {

namespace {

[[noreturn]] void refuse(const char* what, const std::string& name) {
  window_fault(WindowFault::kNoMemory,
               std::string(what) + " " + name + ": " + std::strerror(errno));
}

}  // namespace

NodeSegment::NodeSegment(const std::string& name, std::size_t bytes, bool create)
    : name_(name), bytes_(bytes) {
  int flags = create ? O_RDWR | O_CREAT | O_EXCL : O_RDWR;
  int fd = shm_open(name.c_str(), flags, 0600);
  if (fd < 0) refuse("shm_open", name);
  if (create && ftruncate(fd, static_cast<off_t>(bytes)) != 0) {
    close(fd);
    shm_unlink(name.c_str());
    refuse("ftruncate", name);
  }
  void* mapped = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  close(fd);
  if (mapped == MAP_FAILED) {
    if (create) shm_unlink(name.c_str());
    refuse("mmap", name);
  }
  data_ = static_cast<std::byte*>(mapped);
  if (!create) name_.clear();  // only the creator unlinks
}

NodeSegment::~NodeSegment() {
  unlink();
  if (data_ != nullptr) munmap(data_, bytes_);
}

NodeSegment::NodeSegment(NodeSegment&& other) noexcept
    : name_(std::move(other.name_)),
      data_(std::exchange(other.data_, nullptr)),
      bytes_(std::exchange(other.bytes_, 0)) {
  other.name_.clear();
}

NodeSegment& NodeSegment::operator=(NodeSegment&& other) noexcept {
  if (this != &other) {
    NodeSegment old(std::move(*this));
    name_ = std::move(other.name_);
    other.name_.clear();
    data_ = std::exchange(other.data_, nullptr);
    bytes_ = std::exchange(other.bytes_, 0);
  }
  return *this;
}

void NodeSegment::unlink() {
  if (name_.empty()) return;
  shm_unlink(name_.c_str());
  name_.clear();
}

}  // namespace halyard
