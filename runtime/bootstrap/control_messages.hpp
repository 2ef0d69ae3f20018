// The typed messages of the control protocol and their encoding into frames
// (runtime/bootstrap/control_frame.hpp). Shared by the client in every rank and the server in
// hlaunch.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "runtime/bootstrap/bootstrap_client.hpp"
#include "runtime/bootstrap/control_frame.hpp"
#include "runtime/support/error.hpp"

namespace halyard::control {

// The hello's frames (runtime/bootstrap/hello_proof.hpp): the server's challenge, the
// client's hello proving it knows the job token, and the server's acceptance proving the same.
struct Challenge {
  std::string server_nonce;
};

struct Hello {
  int rank = -1;
  std::string client_nonce;
  std::string proof;  // client_proof(token, server nonce, rank, client nonce)
};

struct HelloOk {
  std::string proof;  // server_proof(token, server nonce, rank, client nonce)
};

// put (key, value), get (key), fence, barrier and finalize (neither). `id` pairs the reply with the
// caller waiting for it.
struct Request {
  FrameType type = FrameType::kPut;
  std::uint64_t id = 0;
  std::string key;
  std::string value;
};

struct Reply {
  std::uint64_t id = 0;
  ErrorCode code = ErrorCode::kSuccess;
  std::string body;  // the value for a get, the error message on failure, else empty
};

struct AbortRequest {
  int code = 1;
  std::string message;
};

// Bounds the bootstrap server enforces (docs/reliability.md). A hello is a rank, a nonce and a
// proof: a connection that has not sent one yet may not announce a bigger frame.
constexpr std::size_t kMaxHelloPayload = 1024;
// Keys are short names ("topo/3", "ofi/addr/12"); values are addresses and table rows.
constexpr std::size_t kMaxKeyBytes = 1024;
constexpr std::size_t kMaxValueBytes = 1u << 20;

// Reply id used to acknowledge an abort, which carries no request id of its own.
constexpr std::uint64_t kAbortReplyId = 0;

// Each encode_* returns a complete frame; each decode_* takes the payload of a frame of the
// matching type and throws Error(kBootstrap) when it is malformed.
std::string encode_challenge(const Challenge& challenge);
Challenge decode_challenge(std::string_view payload);

std::string encode_hello(const Hello& hello);
Hello decode_hello(std::string_view payload);

std::string encode_hello_ok(const HelloOk& hello_ok);
HelloOk decode_hello_ok(std::string_view payload);

// type must be kPut, kGet, kFence, kBarrier or kFinalize.
std::string encode_request(const Request& request);
Request decode_request(FrameType type, std::string_view payload);

std::string encode_reply(const Reply& reply);
Reply decode_reply(std::string_view payload);

std::string encode_abort(const AbortRequest& abort);
AbortRequest decode_abort(std::string_view payload);

std::string encode_notice(const ControlNotice& notice);
ControlNotice decode_notice(std::string_view payload);

// "put", "get", ... for logs and error messages.
std::string_view frame_type_name(FrameType type);

}  // namespace halyard::control
