#include "launcher/job_secrets.hpp"

#include <unistd.h>

#include "runtime/support/random_bytes.hpp"

namespace halyard::launcher {

std::string random_hex(std::size_t bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(2 * bytes);
  for (char c : random_bytes(bytes)) {
    auto b = static_cast<unsigned char>(c);
    hex.push_back(kDigits[b >> 4]);
    hex.push_back(kDigits[b & 0xf]);
  }
  return hex;
}

std::string make_job_id() {
  return "hl" + std::to_string(::getpid()) + "-" + random_hex(4);
}

}  // namespace halyard::launcher
