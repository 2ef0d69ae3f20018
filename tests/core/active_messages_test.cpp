// ActiveMessages between two instances joined by a hand-driven link: eager dispatch,
// rendezvous with a receiver-chosen destination, handlers registered late, errors.
#include <gtest/gtest.h>

#include <cstring>
#include <deque>
#include <string>
#include <vector>

#include "runtime/active_messages.hpp"
#include "runtime/event_loop.hpp"
#include "runtime/point_to_point.hpp"

namespace halyard {
namespace {

// A message still in the sender's buffer until deliver() (like a transport's rendezvous).
class HeldMessage final : public IncomingMessage {
 public:
  HeldMessage(const Envelope& env, const void* data, Completion sender_done, int* pulls)
      : IncomingMessage(env), data_(data), sender_done_(std::move(sender_done)), pulls_(pulls) {}
  void deliver(void* dst, std::size_t capacity, Completion done) override {
    ++*pulls_;
    std::size_t n = std::min<std::size_t>(capacity, envelope().size);
    if (n > 0) std::memcpy(dst, data_, n);
    destination = dst;
    Status s;
    s.bytes = n;
    sender_done_(Status{});
    done(s);
  }
  void* destination = nullptr;

 private:
  const void* data_;
  Completion sender_done_;
  int* pulls_;
};

class AmTest : public ::testing::Test {
 protected:
  AmTest()
      : sender(
            loop,
            [this](int peer, const Envelope& env, const void* buf, Completion done) {
              EXPECT_EQ(peer, 1);
              Envelope e = env;
              e.source = 0;
              wire.push_back(std::make_unique<HeldMessage>(e, buf, std::move(done), &pulls));
            },
            64),
        receiver(
            loop, [](int, const Envelope&, const void*, Completion) {}, 64) {}

  // Hands everything on the wire to the receiver, then runs the loop a few passes.
  void transfer() {
    while (!wire.empty()) {
      receiver.arrive(std::move(wire.front()));
      wire.pop_front();
    }
    for (int i = 0; i < 6; ++i) loop.poll();
  }

  EventLoop loop{WaitPolicy::kSpin};
  std::deque<std::unique_ptr<IncomingMessage>> wire;
  int pulls = 0;
  ActiveMessages sender;
  ActiveMessages receiver;
};

std::span<const std::byte> as_span(const std::string& s) {
  return std::as_bytes(std::span(s.data(), s.size()));
}
std::string as_string(std::span<const std::byte> b) {
  return std::string(reinterpret_cast<const char*>(b.data()), b.size());
}

TEST_F(AmTest, EagerMessageRunsTheHandlerWithHeaderAndPayload) {
  std::vector<std::string> seen;
  receiver.register_handler(5, 2, [&](int source, auto header, auto payload) {
    seen.push_back(std::to_string(source) + ":" + as_string(header) + ":" + as_string(payload));
  });
  Status sent;
  sender.send(5, 1, 2, as_span("hdr"), as_span("body"), [&](const Status& s) { sent = s; });
  ASSERT_EQ(wire.size(), 1u);
  EXPECT_EQ(wire.front()->envelope().flags, kEnvelopeActiveMessage);
  EXPECT_EQ(wire.front()->envelope().tag, 2);
  transfer();
  EXPECT_EQ(seen, (std::vector<std::string>{"0:hdr:body"}));
  EXPECT_TRUE(sent.ok());
  EXPECT_EQ(sent.bytes, 4u);
  EXPECT_EQ(receiver.undispatched(), 0u);
}

TEST_F(AmTest, LargePayloadGoesByRendezvousIntoTheHandlersDestination) {
  std::string payload(1000, 'x');
  for (std::size_t i = 0; i < payload.size(); ++i) payload[i] = static_cast<char>('a' + i % 26);
  std::string landing(1000, '.');
  std::string got;
  bool destination_asked = false;
  receiver.register_handler(
      5, 7,
      [&](int source, auto header, auto data) {
        EXPECT_EQ(source, 0);
        EXPECT_EQ(as_string(header), "meta");
        EXPECT_EQ(static_cast<const void*>(data.data()), static_cast<const void*>(landing.data()));
        got = as_string(data);
      },
      [&](int source, auto header, std::size_t bytes) -> void* {
        EXPECT_EQ(source, 0);
        EXPECT_EQ(as_string(header), "meta");
        EXPECT_EQ(bytes, 1000u);
        EXPECT_EQ(pulls, 1) << "only the header may have moved before the destination is known";
        destination_asked = true;
        return landing.data();
      });
  bool sent = false;
  sender.send(5, 1, 7, as_span("meta"), as_span(payload), [&](const Status& s) { sent = s.ok(); });
  ASSERT_EQ(wire.size(), 2u);
  EXPECT_EQ(wire[0]->envelope().flags, kEnvelopeAmRendezvousHeader);
  EXPECT_EQ(wire[1]->envelope().flags, kEnvelopeAmRendezvousPayload);
  EXPECT_EQ(wire[1]->envelope().size, 1000u);
  transfer();
  EXPECT_TRUE(destination_asked);
  EXPECT_EQ(got, payload);
  EXPECT_EQ(landing, payload);
  EXPECT_TRUE(sent);
  EXPECT_EQ(pulls, 2);
}

TEST_F(AmTest, RendezvousWithoutDestinationUsesARuntimeBuffer) {
  std::string payload(500, 'q');
  std::string got;
  receiver.register_handler(5, 1, [&](int, auto, auto data) { got = as_string(data); });
  sender.send(5, 1, 1, {}, as_span(payload), {});
  transfer();
  EXPECT_EQ(got, payload);
}

TEST_F(AmTest, MessagesForUnregisteredHandlersWaitAndKeepOrder) {
  std::vector<std::string> seen;
  sender.send(5, 1, 4, {}, as_span("one"), {});
  sender.send(5, 1, 4, {}, as_span("two"), {});
  transfer();
  EXPECT_EQ(receiver.undispatched(), 2u);
  receiver.register_handler(5, 4, [&](int, auto, auto p) { seen.push_back(as_string(p)); });
  EXPECT_TRUE(seen.empty()) << "handlers never run inside register_handler";
  sender.send(5, 1, 4, {}, as_span("three"), {});
  transfer();
  EXPECT_EQ(seen, (std::vector<std::string>{"one", "two", "three"}));
  EXPECT_EQ(receiver.undispatched(), 0u);
}

TEST_F(AmTest, HandlersAreKeyedByContext) {
  int on_five = 0, on_six = 0;
  receiver.register_handler(5, 1, [&](int, auto, auto) { ++on_five; });
  receiver.register_handler(6, 1, [&](int, auto, auto) { ++on_six; });
  sender.send(6, 1, 1, {}, {}, {});
  transfer();
  EXPECT_EQ(on_five, 0);
  EXPECT_EQ(on_six, 1);
}

TEST_F(AmTest, RegistrationErrors) {
  receiver.register_handler(5, 1, [](int, auto, auto) {});
  try {
    receiver.register_handler(5, 1, [](int, auto, auto) {});
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "register_am_handler: id 1 is already registered");
  }
  try {
    receiver.register_handler(5, -1, [](int, auto, auto) {});
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "register_am_handler: id -1 is negative");
  }
  receiver.unregister_handler(5, 1);
  EXPECT_NO_THROW(receiver.register_handler(5, 1, [](int, auto, auto) {}));
}

}  // namespace
}  // namespace halyard
