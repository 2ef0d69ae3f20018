// Random identifiers of one job: the token ranks prove they know to the bootstrap server, and the
// job id that names the job's shared segments.
#pragma once

#include <string>

namespace halyard::launcher {

// `bytes` random bytes from the kernel (random_bytes) as lower-case hex. Throws Error(kInternal)
// when the kernel's random source cannot be read: a guessable token would defeat its purpose.
std::string random_hex(std::size_t bytes);

// 16 random bytes (128 bits) as 32 hex digits.
inline std::string make_job_token() {
  return random_hex(16);
}

// "hl<pid>-<8 hex digits>": short and filesystem-safe, unique among concurrent jobs.
std::string make_job_id();

}  // namespace halyard::launcher
