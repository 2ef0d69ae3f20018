#include "runtime/sleep_on_fds.hpp"

#include <cerrno>
#include <cstring>
#include <ctime>

#include "runtime/support/log.hpp"

namespace halyard {

void sleep_on_fds(std::vector<pollfd>& fds, std::chrono::nanoseconds timeout, const char* who) {
  timespec ts{};
  ts.tv_sec = static_cast<time_t>(timeout.count() / 1'000'000'000);
  ts.tv_nsec = static_cast<long>(timeout.count() % 1'000'000'000);
  if (::ppoll(fds.data(), fds.size(), &ts, nullptr) < 0 && errno != EINTR) {
    log::warn("{}: ppoll failed: {}", who, std::strerror(errno));
  }
}

}  // namespace halyard
