// Errors and completion status shared by every layer.
//
// Invalid arguments throw halyard::Error at the call site; failures that happen while data moves
// (peer gone, truncation, transport error) complete the request with a non-ok Status instead,
// because by then the caller is no longer on the stack.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

namespace halyard {

enum class ErrorCode {
  kSuccess = 0,
  kInvalidArgument,  // a caller passed something the API does not accept
  kTruncated,        // a message was larger than the receive buffer
  kTransport,        // the transport (libfabric, shm, CUDA) reported a failure
  kPeerFailed,       // a rank of the job died or aborted
  kTimeout,          // an operation or the job ran past its limit
  kBootstrap,        // the control connection to hlaunch failed or was refused
  kUnsupported,      // a valid request this build or machine cannot serve
  kCancelled,        // the operation was cancelled before it completed
  kInternal,         // a broken invariant inside Halyard
};

// Short stable name of a code, e.g. "truncated"; used in messages and logs.
std::string_view error_code_name(ErrorCode code);

class Error : public std::runtime_error {
 public:
  Error(ErrorCode code, const std::string& message) : std::runtime_error(message), code_(code) {}
  ErrorCode code() const noexcept { return code_; }

 private:
  ErrorCode code_;
};

// Outcome of a completed operation. For receives it also says what arrived.
struct Status {
  ErrorCode code = ErrorCode::kSuccess;
  std::string message;    // empty on success; names the problem otherwise
  std::size_t bytes = 0;  // bytes transferred (received size for receives)
  int source = -1;        // sender's rank in the communicator (receives only)
  int tag = -1;           // matched tag (receives only)

  bool ok() const noexcept { return code == ErrorCode::kSuccess; }
  static Status failure(ErrorCode code, std::string message) {
    Status s;
    s.code = code;
    s.message = std::move(message);
    return s;
  }
  // Throws halyard::Error when the status is a failure.
  void raise_if_failed() const {
    if (!ok()) throw Error(code, message);
  }
};

}  // namespace halyard
