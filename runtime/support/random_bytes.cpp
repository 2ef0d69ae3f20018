#include "runtime/support/random_bytes.hpp"

#include <sys/random.h>

#include <cerrno>
#include <cstring>

#include "runtime/support/error.hpp"

namespace halyard {

std::string random_bytes(std::size_t count) {
  // getrandom(2) draws from the same pool as /dev/urandom but needs no file descriptor, so a
  // server that is short of descriptors (a flood of connections) still gets its nonces.
  std::string raw(count, '\0');
  std::size_t got = 0;
  while (got < count) {
    ssize_t n = ::getrandom(raw.data() + got, count - got, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      throw Error(ErrorCode::kInternal,
                  std::string("cannot read the kernel's random source: ") + std::strerror(errno));
    }
    got += static_cast<std::size_t>(n);
  }
  return raw;
}

}  // namespace halyard
