// The control protocol's framing and message encoding, without sockets.
#include <gtest/gtest.h>

#include <string>

#include "runtime/bootstrap/control_frame.hpp"
#include "runtime/bootstrap/control_messages.hpp"
#include "runtime/support/error.hpp"

namespace halyard::control {
namespace {

std::string error_of(auto&& fn) {
  try {
    fn();
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(ControlFrame, HeaderIsLittleEndianLengthThenType) {
  std::string frame = encode_frame(FrameType::kGet, "abc");
  ASSERT_EQ(frame.size(), kFrameHeaderBytes + 3);
  EXPECT_EQ(frame[0], 3);
  EXPECT_EQ(frame[1], 0);
  EXPECT_EQ(frame[2], 0);
  EXPECT_EQ(frame[3], 0);
  EXPECT_EQ(static_cast<FrameType>(frame[4]), FrameType::kGet);
  EXPECT_EQ(frame.substr(5), "abc");
}

TEST(ControlFrame, DecoderReassemblesFramesFedOneByteAtATime) {
  std::string stream = encode_frame(FrameType::kPut, "first") +
                       encode_frame(FrameType::kFence, "") +
                       encode_frame(FrameType::kReply, std::string(1000, 'z'));
  FrameDecoder decoder;
  std::vector<Frame> frames;
  for (char c : stream) {
    decoder.feed(&c, 1);
    while (auto f = decoder.next()) frames.push_back(std::move(*f));
  }
  ASSERT_EQ(frames.size(), 3u);
  EXPECT_EQ(frames[0].type, FrameType::kPut);
  EXPECT_EQ(frames[0].payload, "first");
  EXPECT_EQ(frames[1].type, FrameType::kFence);
  EXPECT_EQ(frames[1].payload, "");
  EXPECT_EQ(frames[2].type, FrameType::kReply);
  EXPECT_EQ(frames[2].payload, std::string(1000, 'z'));
  EXPECT_EQ(decoder.buffered(), 0u);
}

TEST(ControlFrame, DecoderHandlesManyFramesInOneFeed) {
  std::string stream;
  for (int i = 0; i < 50; ++i) stream += encode_frame(FrameType::kGet, std::to_string(i));
  stream += encode_frame(FrameType::kGet, "partial").substr(0, 7);
  FrameDecoder decoder;
  decoder.feed(stream.data(), stream.size());
  for (int i = 0; i < 50; ++i) {
    auto f = decoder.next();
    ASSERT_TRUE(f.has_value()) << "frame " << i;
    EXPECT_EQ(f->payload, std::to_string(i));
  }
  EXPECT_FALSE(decoder.next().has_value());
  EXPECT_EQ(decoder.buffered(), 7u);
}

TEST(ControlFrame, OversizedLengthIsRejected) {
  std::string header = {'\xff', '\xff', '\xff', '\x7f', 3};
  FrameDecoder decoder;
  EXPECT_EQ(error_of([&] { decoder.feed(header.data(), header.size()); }),
            "control frame announces 2147483647 payload bytes, more than the limit of 16777216");
}

TEST(ControlFrame, UnknownTypeIsRejected) {
  std::string header = {1, 0, 0, 0, 42};
  FrameDecoder decoder;
  EXPECT_EQ(error_of([&] { decoder.feed(header.data(), header.size()); }),
            "control frame has unknown type 42");
}

TEST(ControlFrame, EncodingAnOversizedPayloadIsAnInvalidArgument) {
  try {
    encode_frame(FrameType::kPut, std::string(kMaxFramePayload + 1, 'x'));
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument);
  }
}

TEST(ControlPayload, FieldsRoundTrip) {
  PayloadWriter w;
  w.u8(200).i32(-5).u64(0x0123456789abcdefULL).str("").str(std::string("a\0b", 3));
  PayloadReader r(w.bytes());
  EXPECT_EQ(r.u8("a"), 200);
  EXPECT_EQ(r.i32("b"), -5);
  EXPECT_EQ(r.u64("c"), 0x0123456789abcdefULL);
  EXPECT_EQ(r.str("d"), "");
  EXPECT_EQ(r.str("e"), std::string("a\0b", 3));
  EXPECT_NO_THROW(r.expect_end());
}

TEST(ControlPayload, ShortPayloadNamesTheField) {
  PayloadWriter w;
  w.str("long value");
  std::string cut = w.bytes().substr(0, 8);
  PayloadReader r(cut);
  EXPECT_EQ(error_of([&] { r.str("value"); }),
            "malformed control frame: payload ends inside field 'value'");
}

TEST(ControlPayload, TrailingBytesAreAnError) {
  PayloadWriter w;
  w.i32(1).u8(0);
  PayloadReader r(w.bytes());
  r.i32("x");
  EXPECT_EQ(error_of([&] { r.expect_end(); }),
            "malformed control frame: 1 unexpected trailing bytes");
}

// Decodes the single frame in `bytes`.
Frame only_frame(const std::string& bytes) {
  FrameDecoder decoder;
  decoder.feed(bytes.data(), bytes.size());
  auto f = decoder.next();
  EXPECT_TRUE(f.has_value());
  EXPECT_FALSE(decoder.next().has_value());
  return f.value_or(Frame{});
}

TEST(ControlMessages, HelloFramesRoundTrip) {
  Frame c = only_frame(encode_challenge({"server-nonce"}));
  ASSERT_EQ(c.type, FrameType::kChallenge);
  EXPECT_EQ(decode_challenge(c.payload).server_nonce, "server-nonce");
  Frame f = only_frame(encode_hello({7, "client-nonce", "proof"}));
  ASSERT_EQ(f.type, FrameType::kHello);
  Hello h = decode_hello(f.payload);
  EXPECT_EQ(h.rank, 7);
  EXPECT_EQ(h.client_nonce, "client-nonce");
  EXPECT_EQ(h.proof, "proof");
  Frame ok = only_frame(encode_hello_ok({"server-proof"}));
  ASSERT_EQ(ok.type, FrameType::kHelloOk);
  EXPECT_EQ(decode_hello_ok(ok.payload).proof, "server-proof");
  EXPECT_EQ(error_of([] { decode_hello(std::string(4, '\0')); }),
            "malformed control frame: payload ends inside field 'client nonce'");
}

TEST(ControlMessages, RequestsRoundTripForEveryType) {
  for (FrameType type : {FrameType::kPut, FrameType::kGet, FrameType::kFence, FrameType::kBarrier,
                         FrameType::kFinalize}) {
    Request in{type, 99, "key/1", "value 1"};
    Frame f = only_frame(encode_request(in));
    ASSERT_EQ(f.type, type);
    Request out = decode_request(f.type, f.payload);
    EXPECT_EQ(out.id, 99u);
    EXPECT_EQ(out.key, type == FrameType::kPut || type == FrameType::kGet ? "key/1" : "");
    EXPECT_EQ(out.value, type == FrameType::kPut ? "value 1" : "");
  }
}

TEST(ControlMessages, RequestOfWrongTypeIsRefused) {
  EXPECT_EQ(error_of([] {
              encode_request({FrameType::kNotice, 1, "", ""});
            }),
            "request type 'notice' is not one of put, get, fence, barrier, finalize");
  EXPECT_EQ(error_of([] { decode_request(FrameType::kHello, ""); }),
            "frame type 'hello' is not a request");
}

TEST(ControlMessages, ReplyRoundTripsWithErrorCode) {
  Frame f = only_frame(encode_reply({12, ErrorCode::kPeerFailed, "rank 2 is gone"}));
  Reply r = decode_reply(f.payload);
  EXPECT_EQ(r.id, 12u);
  EXPECT_EQ(r.code, ErrorCode::kPeerFailed);
  EXPECT_EQ(r.body, "rank 2 is gone");
}

TEST(ControlMessages, ReplyWithUnknownCodeIsMalformed) {
  PayloadWriter w;
  w.u64(1).u8(250).str("");
  EXPECT_EQ(error_of([&] { decode_reply(w.bytes()); }),
            "malformed control frame: unknown error code 250 in reply");
}

TEST(ControlMessages, AbortAndNoticeRoundTrip) {
  AbortRequest a = decode_abort(only_frame(encode_abort({-3, "bad input"})).payload);
  EXPECT_EQ(a.code, -3);
  EXPECT_EQ(a.message, "bad input");
  ControlNotice n = decode_notice(
      only_frame(encode_notice({ControlNotice::Kind::kPeerFailed, 3, 137, "rank 3 was killed"}))
          .payload);
  EXPECT_EQ(n.kind, ControlNotice::Kind::kPeerFailed);
  EXPECT_EQ(n.rank, 3);
  EXPECT_EQ(n.code, 137);
  EXPECT_EQ(n.message, "rank 3 was killed");
}

}  // namespace
}  // namespace halyard::control
