// SHA-256 (FIPS 180-4) and HMAC-SHA256 (RFC 2104), for the bootstrap's challenge-response
// (runtime/bootstrap/hello_proof.hpp). A few dozen lines here spare the runtime a dependency on
// a crypto library for the one primitive it needs; tests/support/sha256_test.cpp checks them
// against the FIPS and RFC 4231 vectors.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace halyard {

constexpr std::size_t kSha256Bytes = 32;

// The digest of `message` as 32 raw bytes.
std::string sha256(std::string_view message);

// HMAC-SHA256 of `message` under `key` as 32 raw bytes.
std::string hmac_sha256(std::string_view key, std::string_view message);

// Whether `a` and `b` are equal, in a time that depends only on their lengths: an attacker
// who can time the answer learns nothing about how many leading bytes of a guess were right.
bool equal_in_constant_time(std::string_view a, std::string_view b);

}  // namespace halyard
