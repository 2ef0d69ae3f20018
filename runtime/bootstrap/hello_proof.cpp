#include "runtime/bootstrap/hello_proof.hpp"

#include "runtime/bootstrap/control_frame.hpp"
#include "runtime/support/random_bytes.hpp"
#include "runtime/support/sha256.hpp"

namespace halyard::control {
namespace {

std::string proof(std::string_view label, std::string_view token, std::string_view server_nonce,
                  int rank, std::string_view client_nonce) {
  PayloadWriter message;
  message.str(label).str(server_nonce).i32(rank).str(client_nonce);
  return hmac_sha256(token, message.bytes());
}

}  // namespace

std::string make_nonce() {
  return random_bytes(kNonceBytes);
}

std::string client_proof(std::string_view token, std::string_view server_nonce, int rank,
                         std::string_view client_nonce) {
  return proof("halyard hello client", token, server_nonce, rank, client_nonce);
}

std::string server_proof(std::string_view token, std::string_view server_nonce, int rank,
                         std::string_view client_nonce) {
  return proof("halyard hello server", token, server_nonce, rank, client_nonce);
}

}  // namespace halyard::control
