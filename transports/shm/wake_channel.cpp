#include "transports/shm/wake_channel.hpp"

#include <atomic>

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <functional>

#include "runtime/support/log.hpp"

namespace halyard::shm {
namespace {

// The abstract address "\0halyard-wake/<job>/<rank>"; long job ids are hashed to fit.
socklen_t wake_address(const std::string& job_id, int world_rank, sockaddr_un& out) {
  std::memset(&out, 0, sizeof out);
  out.sun_family = AF_UNIX;
  std::string job = job_id.size() <= 64 ? job_id : std::to_string(std::hash<std::string>{}(job_id));
  std::string name = "halyard-wake/" + job + "/" + std::to_string(world_rank);
  std::memcpy(out.sun_path + 1, name.data(), name.size());
  return static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + 1 + name.size());
}

}  // namespace

WakeChannel::WakeChannel(std::string job_id, int world_rank) : job_id_(std::move(job_id)) {
  receive_fd_ = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  send_fd_ = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  sockaddr_un address;
  socklen_t length = wake_address(job_id_, world_rank, address);
  if (receive_fd_ >= 0 &&
      ::bind(receive_fd_, reinterpret_cast<const sockaddr*>(&address), length) != 0) {
    log::debug("shm: cannot bind the wake socket of rank {} ({}); polling instead", world_rank,
               std::strerror(errno));
    ::close(receive_fd_);
    receive_fd_ = -1;
  }
}

WakeChannel::~WakeChannel() {
  if (receive_fd_ >= 0) ::close(receive_fd_);
  if (send_fd_ >= 0) ::close(send_fd_);
}

void WakeChannel::drain() {
  if (receive_fd_ < 0) return;
  char byte;
  while (::recv(receive_fd_, &byte, sizeof byte, MSG_DONTWAIT) >= 0) {
  }
}

void WakeChannel::poke(int world_rank) {
  if (send_fd_ < 0) return;
  sockaddr_un address;
  socklen_t length = wake_address(job_id_, world_rank, address);
  // Errors are fine: EAGAIN means wake-ups are already queued, ECONNREFUSED a peer without a
  // socket (it polls instead).
  (void)::sendto(send_fd_, nullptr, 0, MSG_DONTWAIT, reinterpret_cast<const sockaddr*>(&address),
                 length);
}

void WakeChannel::poke_if_sleeping(std::uint32_t& sleeping, int world_rank) {
  std::atomic_ref<std::uint32_t> flag(sleeping);
  if (flag.load(std::memory_order_relaxed) == 0) return;
  std::uint32_t expected = 1;
  if (flag.compare_exchange_strong(expected, 0, std::memory_order_acq_rel)) poke(world_rank);
}

}  // namespace halyard::shm
