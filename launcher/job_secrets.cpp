#include "launcher/job_secrets.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "runtime/support/error.hpp"

namespace halyard::launcher {

std::string random_hex(std::size_t bytes) {
  std::vector<unsigned char> raw(bytes);
  int fd = ::open("/dev/urandom", O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    throw Error(ErrorCode::kInternal,
                std::string("cannot open /dev/urandom: ") + std::strerror(errno));
  }
  std::size_t got = 0;
  while (got < bytes) {
    ssize_t n = ::read(fd, raw.data() + got, bytes - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      ::close(fd);
      throw Error(ErrorCode::kInternal, "cannot read /dev/urandom");
    }
    got += static_cast<std::size_t>(n);
  }
  ::close(fd);
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(2 * bytes);
  for (unsigned char b : raw) {
    hex.push_back(kDigits[b >> 4]);
    hex.push_back(kDigits[b & 0xf]);
  }
  return hex;
}

std::string make_job_id() {
  return "hl" + std::to_string(::getpid()) + "-" + random_hex(4);
}

}  // namespace halyard::launcher
