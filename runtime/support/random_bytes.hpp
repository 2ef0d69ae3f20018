// Bytes from the kernel's random source, for secrets: the job token (launcher/job_secrets.hpp)
// and the nonces of the bootstrap's challenge-response (runtime/bootstrap/hello_proof.hpp).
#pragma once

#include <cstddef>
#include <string>

namespace halyard {

// `count` random bytes from the kernel (getrandom, the source of /dev/urandom). Throws
// Error(kInternal) when it cannot be read: a guessable secret would defeat its purpose.
std::string random_bytes(std::size_t count);

}  // namespace halyard
