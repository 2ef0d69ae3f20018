// The challenge-response that opens every bootstrap connection, keyed by the job token, so the
// token itself never crosses the network (docs/cluster.md):
//
//   server -> client  challenge  server nonce (32 random bytes, new for every connection)
//   client -> server  hello      rank, client nonce, client proof
//   server -> client  hello-ok   server proof
//
// client proof = HMAC-SHA256(token, "halyard hello client" | server nonce | rank | client nonce)
// server proof = HMAC-SHA256(token, "halyard hello server" | server nonce | rank | client nonce)
//
// where | joins the fields as a frame payload does (strings length-prefixed, the rank as a
// little-endian i32), so no two different field lists give the same message.
//
// The server's fresh nonce makes a captured hello useless on any other connection; the
// client's nonce and the server proof let the rank check that it talks to its own job's
// hlaunch, not to something listening at the address. The two labels keep one side's proof
// from serving as the other's. Both sides compare proofs in constant time.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace halyard::control {

constexpr std::size_t kNonceBytes = 32;

// A fresh random nonce (kNonceBytes bytes).
std::string make_nonce();

std::string client_proof(std::string_view token, std::string_view server_nonce, int rank,
                         std::string_view client_nonce);
std::string server_proof(std::string_view token, std::string_view server_nonce, int rank,
                         std::string_view client_nonce);

}  // namespace halyard::control
