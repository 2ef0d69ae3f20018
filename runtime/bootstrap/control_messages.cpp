#include "runtime/bootstrap/control_messages.hpp"

namespace halyard::control {
namespace {

bool is_request_type(FrameType type) {
  return type == FrameType::kPut || type == FrameType::kGet || type == FrameType::kFence ||
         type == FrameType::kBarrier || type == FrameType::kFinalize;
}

// The challenge and the hello-ok: a payload of one string field.
std::string encode_one_string(FrameType type, std::string_view value) {
  PayloadWriter w;
  w.str(value);
  return encode_frame(type, w.bytes());
}

std::string decode_one_string(std::string_view payload, std::string_view field) {
  PayloadReader r(payload);
  std::string value = r.str(field);
  r.expect_end();
  return value;
}

}  // namespace

std::string_view frame_type_name(FrameType type) {
  switch (type) {
    case FrameType::kChallenge:
      return "challenge";
    case FrameType::kHello:
      return "hello";
    case FrameType::kHelloOk:
      return "hello-ok";
    case FrameType::kPut:
      return "put";
    case FrameType::kGet:
      return "get";
    case FrameType::kFence:
      return "fence";
    case FrameType::kBarrier:
      return "barrier";
    case FrameType::kAbort:
      return "abort";
    case FrameType::kReply:
      return "reply";
    case FrameType::kNotice:
      return "notice";
    case FrameType::kFinalize:
      return "finalize";
  }
  return "unknown";
}

std::string encode_challenge(const Challenge& challenge) {
  return encode_one_string(FrameType::kChallenge, challenge.server_nonce);
}

Challenge decode_challenge(std::string_view payload) {
  return {decode_one_string(payload, "server nonce")};
}

std::string encode_hello(const Hello& hello) {
  PayloadWriter w;
  w.i32(hello.rank).str(hello.client_nonce).str(hello.proof);
  return encode_frame(FrameType::kHello, w.bytes());
}

Hello decode_hello(std::string_view payload) {
  PayloadReader r(payload);
  Hello hello;
  hello.rank = r.i32("rank");
  hello.client_nonce = r.str("client nonce");
  hello.proof = r.str("proof");
  r.expect_end();
  return hello;
}

std::string encode_hello_ok(const HelloOk& hello_ok) {
  return encode_one_string(FrameType::kHelloOk, hello_ok.proof);
}

HelloOk decode_hello_ok(std::string_view payload) {
  return {decode_one_string(payload, "proof")};
}

std::string encode_request(const Request& request) {
  if (!is_request_type(request.type)) {
    throw Error(ErrorCode::kInvalidArgument,
                "request type '" + std::string(frame_type_name(request.type)) +
                    "' is not one of put, get, fence, barrier, finalize");
  }
  PayloadWriter w;
  w.u64(request.id);
  if (request.type == FrameType::kPut || request.type == FrameType::kGet) w.str(request.key);
  if (request.type == FrameType::kPut) w.str(request.value);
  return encode_frame(request.type, w.bytes());
}

Request decode_request(FrameType type, std::string_view payload) {
  if (!is_request_type(type)) {
    throw Error(ErrorCode::kBootstrap,
                "frame type '" + std::string(frame_type_name(type)) + "' is not a request");
  }
  PayloadReader r(payload);
  Request request;
  request.type = type;
  request.id = r.u64("id");
  if (type == FrameType::kPut || type == FrameType::kGet) request.key = r.str("key");
  if (type == FrameType::kPut) request.value = r.str("value");
  r.expect_end();
  return request;
}

std::string encode_reply(const Reply& reply) {
  PayloadWriter w;
  w.u64(reply.id).u8(static_cast<std::uint8_t>(reply.code)).str(reply.body);
  return encode_frame(FrameType::kReply, w.bytes());
}

Reply decode_reply(std::string_view payload) {
  PayloadReader r(payload);
  Reply reply;
  reply.id = r.u64("id");
  std::uint8_t code = r.u8("code");
  if (code > static_cast<std::uint8_t>(ErrorCode::kInternal)) {
    throw Error(ErrorCode::kBootstrap, "malformed control frame: unknown error code " +
                                           std::to_string(code) + " in reply");
  }
  reply.code = static_cast<ErrorCode>(code);
  reply.body = r.str("body");
  r.expect_end();
  return reply;
}

std::string encode_abort(const AbortRequest& abort) {
  PayloadWriter w;
  w.i32(abort.code).str(abort.message);
  return encode_frame(FrameType::kAbort, w.bytes());
}

AbortRequest decode_abort(std::string_view payload) {
  PayloadReader r(payload);
  AbortRequest abort;
  abort.code = r.i32("code");
  abort.message = r.str("message");
  r.expect_end();
  return abort;
}

std::string encode_notice(const ControlNotice& notice) {
  PayloadWriter w;
  w.u8(static_cast<std::uint8_t>(notice.kind))
      .i32(notice.rank)
      .i32(notice.code)
      .str(notice.message);
  return encode_frame(FrameType::kNotice, w.bytes());
}

ControlNotice decode_notice(std::string_view payload) {
  PayloadReader r(payload);
  std::uint8_t kind = r.u8("kind");
  if (kind > static_cast<std::uint8_t>(ControlNotice::Kind::kJobAbort)) {
    throw Error(ErrorCode::kBootstrap,
                "malformed control frame: unknown notice kind " + std::to_string(kind));
  }
  ControlNotice notice{static_cast<ControlNotice::Kind>(kind), -1, 0, {}};
  notice.rank = r.i32("rank");
  notice.code = r.i32("code");
  notice.message = r.str("message");
  r.expect_end();
  return notice;
}

}  // namespace halyard::control
