#include "runtime/support/error.hpp"

namespace halyard {

std::string_view error_code_name(ErrorCode code) {
  switch (code) {
    case ErrorCode::kSuccess:
      return "success";
    case ErrorCode::kInvalidArgument:
      return "invalid argument";
    case ErrorCode::kTruncated:
      return "truncated";
    case ErrorCode::kTransport:
      return "transport error";
    case ErrorCode::kPeerFailed:
      return "peer failed";
    case ErrorCode::kTimeout:
      return "timeout";
    case ErrorCode::kBootstrap:
      return "bootstrap error";
    case ErrorCode::kUnsupported:
      return "unsupported";
    case ErrorCode::kCancelled:
      return "cancelled";
    case ErrorCode::kInternal:
      return "internal error";
  }
  return "unknown";
}

}  // namespace halyard
