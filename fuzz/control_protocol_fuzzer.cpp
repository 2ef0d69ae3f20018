// libFuzzer target: the control protocol as hlaunch's bootstrap server sees it.
//
// Each input is one client connection, greeted with the server's challenge. The first byte
// chooses whether the harness first answers it with a valid hello (so the fuzzer also reaches the
// key-value, fence, barrier and abort paths behind authentication, which it could never reach by
// guessing the token) and how the rest is cut into reads. The bytes go through
// ControlSession::consume, the very code that handles socket reads: the frame parser, the message
// decoders, authentication, the bounds, the key-value store and the fence/barrier gates. Any crash,
// sanitizer report or escaped exception is a bug; a closed connection is the expected answer to
// garbage. One server lives across inputs, as hlaunch's does across connections, until the
// rank of an input with a valid hello already had its one session on it.
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "launcher/bootstrap_server.hpp"
#include "launcher/control_session.hpp"
#include "runtime/bootstrap/control_messages.hpp"
#include "runtime/bootstrap/hello_proof.hpp"

namespace {

using halyard::launcher::BootstrapServer;
using halyard::launcher::ControlSession;

constexpr int kRanks = 4;
const std::string kToken = "fuzz-token-0123456789abcdef01234";

struct Harness {
  boost::asio::io_context io;
  std::unique_ptr<BootstrapServer> server = fresh_server();

  std::unique_ptr<BootstrapServer> fresh_server() {
    return std::make_unique<BootstrapServer>(io, kRanks, kToken,
                                             [](int, int, const std::string&) {});
  }
};

Harness& harness() {
  static Harness h;
  return h;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  Harness& h = harness();
  const std::uint8_t control = data[0];
  ++data;
  --size;
  // A socket that was never connected: replies queued by the server fail to send and close
  // the session from the io_context, as a vanished client would.
  const bool valid_hello = (control & 1) != 0;
  const int rank = (control >> 1) % kRanks;
  // A rank gets one session per server, ever: once the input's rank is taken, a fresh server
  // (the old one has no open session left), or no valid hello would get past it again.
  if (valid_hello && h.server->connected(rank)) h.server = h.fresh_server();
  auto session = std::make_shared<ControlSession>(boost::asio::ip::tcp::socket(h.io), *h.server);
  h.server->greet(*session);
  bool open = true;
  if (valid_hello) {
    // The harness knows the token, so it answers the server's challenge as a rank would.
    const std::string client_nonce(halyard::control::kNonceBytes, 'c');
    std::string hello = halyard::control::encode_hello(
        {rank, client_nonce,
         halyard::control::client_proof(kToken, session->challenge(), rank, client_nonce)});
    open = session->consume(hello.data(), hello.size());
  }
  // Reads of 1 to 32 bytes, or everything at once, as the network may deliver them.
  const std::size_t piece = (control >> 3) == 0 ? size : (control >> 3);
  for (std::size_t at = 0; open && at < size; at += piece) {
    std::size_t n = piece < size - at ? piece : size - at;
    open = session->consume(reinterpret_cast<const char*>(data + at), n);
  }
  session->close("input consumed");
  h.io.restart();
  h.io.poll();
  return 0;
}
