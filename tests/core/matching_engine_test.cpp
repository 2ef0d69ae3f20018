// MatchingEngine: MPI matching rules with hand-made arrivals.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "runtime/event_loop.hpp"
#include "runtime/matching_engine.hpp"
#include "tests/core/fake_message.hpp"

namespace halyard {
namespace {

using testing::fake_message;

// A rendezvous the "transport" is still moving: deliver() keeps the completion, finish() runs
// it, as a transport's progress() would once its copy into the buffer is over.
class HeldMessage final : public IncomingMessage {
 public:
  HeldMessage(const Envelope& env, Completion* held, int* deliveries)
      : IncomingMessage(env), held_(held), deliveries_(deliveries) {}
  void deliver(void*, std::size_t, Completion done) override {
    ++*deliveries_;
    *held_ = std::move(done);
  }

 private:
  Completion* held_;
  int* deliveries_;
};

std::unique_ptr<IncomingMessage> held_message(int source, int tag, Completion* held,
                                              int* deliveries) {
  Envelope env{7, source, tag, 0, 4};
  return std::make_unique<HeldMessage>(env, held, deliveries);
}

// A posted receive and what it got.
struct Slot {
  std::string buffer = std::string(16, '.');
  bool done = false;
  Status status;
  Completion completion() {
    return [this](const Status& s) {
      done = true;
      status = s;
    };
  }
  std::string text() const { return buffer.substr(0, status.bytes); }
};

class MatchingTest : public ::testing::Test {
 protected:
  void post(Slot& slot, int source, int tag, std::uint32_t context = 7) {
    engine.post(context, source, tag, slot.buffer.data(), slot.buffer.size(), slot.completion());
  }
  void settle() {
    for (int i = 0; i < 4; ++i) loop.poll();
  }
  EventLoop loop{WaitPolicy::kSpin};
  MatchingEngine engine{loop};
};

TEST_F(MatchingTest, PostedReceiveTakesAMatchingArrival) {
  Slot a;
  post(a, 3, 5);
  engine.arrive(fake_message(7, 3, 5, "hello"));
  EXPECT_FALSE(a.done) << "delivery must wait for the loop, outside the transport's progress";
  settle();
  ASSERT_TRUE(a.done);
  EXPECT_TRUE(a.status.ok());
  EXPECT_EQ(a.text(), "hello");
  EXPECT_EQ(a.status.source, 3);
  EXPECT_EQ(a.status.tag, 5);
  EXPECT_EQ(engine.posted_count(), 0u);
}

// The eager short cut (EagerMatcher): a payload offered while the transport still holds it,
// here in two pieces as a ring that wraps hands it over.
TEST_F(MatchingTest, OfferedEagerPayloadGoesStraightIntoThePostedReceive) {
  Slot any, exact;
  post(any, kAnySource, 4);
  post(exact, 2, 4);
  const std::string head = "wrap", tail = "ped!";
  Envelope env{7, 2, 4, 0, 8};
  EagerPayload payload{reinterpret_cast<const std::byte*>(head.data()), head.size(),
                       reinterpret_cast<const std::byte*>(tail.data()), tail.size()};
  ASSERT_TRUE(engine.take_eager(env, payload));
  // The first posted receive that matches takes it, at once, inside the offer.
  ASSERT_TRUE(any.done);
  EXPECT_FALSE(exact.done);
  EXPECT_TRUE(any.status.ok()) << any.status.message;
  EXPECT_EQ(any.text(), "wrapped!");
  EXPECT_EQ(any.status.source, 2);
  EXPECT_EQ(any.status.tag, 4);
  EXPECT_EQ(engine.posted_count(), 1u);
}

TEST_F(MatchingTest, OfferedEagerPayloadWithoutAReceiveIsLeftToTheTransport) {
  Slot other;
  post(other, 1, 4);
  const std::string text = "nobody";
  Envelope wrong_source{7, 2, 4, 0, text.size()}, wrong_context{8, 1, 4, 0, text.size()};
  EagerPayload payload{reinterpret_cast<const std::byte*>(text.data()), text.size()};
  EXPECT_FALSE(engine.take_eager(wrong_source, payload));
  EXPECT_FALSE(engine.take_eager(wrong_context, payload));
  EXPECT_FALSE(other.done);
  EXPECT_EQ(other.buffer, std::string(16, '.')) << "a refused offer must write nothing";
  EXPECT_EQ(engine.posted_count(), 1u);
  EXPECT_EQ(engine.unexpected_count(), 0u);
}

TEST_F(MatchingTest, OfferedEagerPayloadLargerThanTheReceiveIsTruncated) {
  Slot small;
  small.buffer = std::string(4, '.');
  post(small, 3, 6);
  const std::string text = "truncated";
  Envelope env{7, 3, 6, 0, text.size()};
  EagerPayload payload{reinterpret_cast<const std::byte*>(text.data()), 2,
                       reinterpret_cast<const std::byte*>(text.data() + 2), text.size() - 2};
  ASSERT_TRUE(engine.take_eager(env, payload));
  ASSERT_TRUE(small.done);
  EXPECT_EQ(small.status.code, ErrorCode::kTruncated);
  EXPECT_EQ(small.status.bytes, 4u);
  EXPECT_EQ(small.buffer, "trun");
  EXPECT_EQ(small.status.message,
            "message of 9 bytes (tag 6) truncated to the receive buffer of 4 bytes");
}

TEST_F(MatchingTest, UnexpectedArrivalsWaitForTheirReceive) {
  engine.arrive(fake_message(7, 1, 9, "early"));
  EXPECT_EQ(engine.unexpected_count(7), 1u);
  Slot a;
  post(a, 1, 9);
  settle();
  ASSERT_TRUE(a.done);
  EXPECT_EQ(a.text(), "early");
  EXPECT_EQ(engine.unexpected_count(), 0u);
}

TEST_F(MatchingTest, SamePairSameTagMatchesInSendOrder) {
  engine.arrive(fake_message(7, 2, 1, "first"));
  engine.arrive(fake_message(7, 2, 1, "second"));
  Slot a, b, c;
  post(a, 2, 1);
  post(b, 2, 1);
  post(c, 2, 1);
  engine.arrive(fake_message(7, 2, 1, "third"));
  settle();
  EXPECT_EQ(a.text(), "first");
  EXPECT_EQ(b.text(), "second");
  EXPECT_EQ(c.text(), "third");
}

TEST_F(MatchingTest, PostedReceivesMatchInPostOrder) {
  Slot any, exact;
  post(any, kAnySource, kAnyTag);
  post(exact, 4, 2);
  engine.arrive(fake_message(7, 4, 2, "one"));
  engine.arrive(fake_message(7, 4, 2, "two"));
  settle();
  EXPECT_EQ(any.text(), "one");
  EXPECT_EQ(exact.text(), "two");
}

TEST_F(MatchingTest, AnySourceAndAnyTagReportWhatMatched) {
  Slot a, b;
  post(a, kAnySource, 3);
  post(b, 6, kAnyTag);
  engine.arrive(fake_message(7, 6, 8, "tag8"));
  engine.arrive(fake_message(7, 5, 3, "from5"));
  settle();
  EXPECT_EQ(b.text(), "tag8");
  EXPECT_EQ(b.status.tag, 8);
  EXPECT_EQ(a.text(), "from5");
  EXPECT_EQ(a.status.source, 5);
}

TEST_F(MatchingTest, AnyTagNeverMatchesLibraryTags) {
  Slot user, library;
  post(user, kAnySource, kAnyTag);
  engine.arrive(fake_message(7, 1, kCommCreateTag, "internal"));
  settle();
  EXPECT_FALSE(user.done);
  EXPECT_EQ(engine.unexpected_count(7), 1u);
  post(library, 1, kCommCreateTag);
  settle();
  EXPECT_EQ(library.text(), "internal");
}

TEST_F(MatchingTest, ContextsDoNotMix) {
  Slot a;
  post(a, 1, 1, /*context=*/3);
  engine.arrive(fake_message(4, 1, 1, "other comm"));
  settle();
  EXPECT_FALSE(a.done);
  EXPECT_EQ(engine.unexpected_count(4), 1u);
  engine.arrive(fake_message(3, 1, 1, "this comm"));
  settle();
  EXPECT_EQ(a.text(), "this comm");
}

TEST_F(MatchingTest, TruncationCompletesWithKTruncatedAndPartialData) {
  std::string small(4, '.');
  bool done = false;
  Status status;
  engine.post(7, 0, 0, small.data(), small.size(), [&](const Status& s) {
    done = true;
    status = s;
  });
  engine.arrive(fake_message(7, 0, 0, "0123456789"));
  settle();
  ASSERT_TRUE(done);
  EXPECT_EQ(status.code, ErrorCode::kTruncated);
  EXPECT_EQ(status.message,
            "message of 10 bytes (tag 0) truncated to the receive buffer of 4 bytes");
  EXPECT_EQ(status.bytes, 4u);
  EXPECT_EQ(small, "0123");
}

TEST_F(MatchingTest, ZeroByteMessagesMatchWithNullBuffers) {
  bool done = false;
  Status status;
  engine.post(7, 2, 0, nullptr, 0, [&](const Status& s) {
    done = true;
    status = s;
  });
  engine.arrive(fake_message(7, 2, 0, ""));
  settle();
  ASSERT_TRUE(done);
  EXPECT_TRUE(status.ok());
  EXPECT_EQ(status.bytes, 0u);
  EXPECT_EQ(status.source, 2);
}

TEST_F(MatchingTest, CancelRemovesAnUnmatchedReceive) {
  Slot a;
  auto id = engine.post(7, 1, 1, a.buffer.data(), a.buffer.size(), a.completion());
  EXPECT_TRUE(engine.cancel(id));
  EXPECT_FALSE(engine.cancel(id));
  engine.arrive(fake_message(7, 1, 1, "x"));
  settle();
  EXPECT_FALSE(a.done);
  EXPECT_EQ(engine.unexpected_count(7), 1u);
}

// A failed collective withdraws its receives by tag: the unmatched ones complete with
// kCancelled, those of other tags and contexts stay, and a matched one (being delivered) is
// not touched: it completes with its data.
TEST_F(MatchingTest, CancelUnmatchedWithdrawsTheReceivesOfOneTag) {
  Slot matched, first, second, other_tag, other_context;
  post(matched, 1, -20);
  post(first, 1, -20);
  post(second, 2, -20);
  post(other_tag, 1, -21);
  post(other_context, 1, -20, 8);
  engine.arrive(fake_message(7, 1, -20, "early"));  // matched now, delivered from the loop
  const Status cancelled = Status::failure(ErrorCode::kCancelled, "cancelled");
  EXPECT_EQ(engine.cancel_unmatched(7, -20, cancelled), 2u);
  EXPECT_TRUE(first.done);
  EXPECT_TRUE(second.done);
  EXPECT_EQ(first.status.code, ErrorCode::kCancelled);
  EXPECT_EQ(second.status.code, ErrorCode::kCancelled);
  EXPECT_FALSE(matched.done);
  EXPECT_FALSE(other_tag.done);
  EXPECT_FALSE(other_context.done);
  EXPECT_EQ(engine.posted_count(7), 1u);
  EXPECT_EQ(engine.posted_count(), 2u);
  settle();
  ASSERT_TRUE(matched.done);
  EXPECT_TRUE(matched.status.ok());
  EXPECT_EQ(matched.text(), "early");
  EXPECT_EQ(engine.cancel_unmatched(7, -20, cancelled), 0u);
  EXPECT_EQ(engine.cancel_unmatched(99, -20, cancelled), 0u);  // a context never used
}

TEST_F(MatchingTest, FailAllCompletesEveryPostedReceive) {
  Slot a, b;
  post(a, 1, 1);
  post(b, kAnySource, kAnyTag, 9);
  engine.fail_all(Status::failure(ErrorCode::kPeerFailed, "rank 1 exited with status 3"));
  EXPECT_TRUE(a.done);
  EXPECT_TRUE(b.done);
  EXPECT_EQ(a.status.code, ErrorCode::kPeerFailed);
  EXPECT_EQ(engine.posted_count(), 0u);
}

// No byte after the error: a receive the transport is still filling fails only once the
// transport finished (or cancelled) it, and `drained` waits for the last such delivery.
TEST_F(MatchingTest, FailAllWaitsForDeliveriesInFlight) {
  Slot moving, posted;
  Completion held;
  int deliveries = 0;
  post(moving, 1, 1);
  post(posted, 2, 1);
  engine.arrive(held_message(1, 1, &held, &deliveries));
  settle();
  ASSERT_EQ(deliveries, 1);
  EXPECT_EQ(engine.deliveries_in_flight(), 1u);

  bool drained = false;
  const Status failure = Status::failure(ErrorCode::kPeerFailed, "rank 3 was killed");
  engine.fail_all(failure, [&] { drained = true; });
  settle();
  EXPECT_TRUE(posted.done) << "nothing writes into a receive that never matched";
  EXPECT_FALSE(moving.done) << "completed while its transfer may still write into it";
  EXPECT_FALSE(drained);

  held(Status{});  // the transfer ends (here even successfully)
  settle();
  ASSERT_TRUE(moving.done);
  EXPECT_EQ(moving.status.code, ErrorCode::kPeerFailed) << "pending at the failure: it fails";
  EXPECT_TRUE(drained);
  EXPECT_EQ(engine.deliveries_in_flight(), 0u);
}

// A match whose delivery was deferred to the loop and had not started when the process failed
// is never started: its buffer stays untouched and `drained` waits for it.
TEST_F(MatchingTest, FailAllDropsDeliveriesNotStarted) {
  Slot a;
  post(a, 1, 1);
  engine.arrive(fake_message(7, 1, 1, "late"));  // delivered from the loop's next pass
  EXPECT_EQ(engine.deliveries_in_flight(), 1u);
  bool drained = false;
  engine.fail_all(Status::failure(ErrorCode::kTimeout, "stalled"), [&] { drained = true; });
  EXPECT_FALSE(drained);
  settle();
  ASSERT_TRUE(a.done);
  EXPECT_EQ(a.status.code, ErrorCode::kTimeout);
  EXPECT_EQ(a.buffer, std::string(16, '.'));
  EXPECT_TRUE(drained);
}

TEST_F(MatchingTest, FailAllWithNothingInFlightDrainsAtOnce) {
  bool drained = false;
  engine.fail_all(Status::failure(ErrorCode::kPeerFailed, "gone"), [&] { drained = true; });
  EXPECT_TRUE(drained);
}

// Probes: peek() reports the message a receive would take and leaves it; take() removes it so
// that a later receive gets the next one; deliver_taken() fills a buffer as a receive would.
TEST_F(MatchingTest, PeekLeavesTheMessageAndTakeRemovesIt) {
  EXPECT_FALSE(engine.peek(7, kAnySource, kAnyTag).has_value());
  engine.arrive(fake_message(7, 2, 4, "first"));
  engine.arrive(fake_message(7, 2, 5, "second!"));
  engine.arrive(fake_message(7, 3, kFirstCollectiveTag, "library"));
  std::optional<Envelope> seen = engine.peek(7, kAnySource, 5);
  ASSERT_TRUE(seen.has_value());
  EXPECT_EQ(seen->tag, 5);
  EXPECT_EQ(seen->size, 7u);
  seen = engine.peek(7, 2, kAnyTag);
  ASSERT_TRUE(seen.has_value());
  EXPECT_EQ(seen->tag, 4) << "wildcards see the first message in arrival order";
  EXPECT_FALSE(engine.peek(7, 3, kAnyTag).has_value()) << "kAnyTag never sees library tags";
  EXPECT_EQ(engine.unexpected_count(7), 3u);

  std::unique_ptr<IncomingMessage> taken = engine.take(7, kAnySource, kAnyTag);
  ASSERT_NE(taken, nullptr);
  EXPECT_EQ(taken->envelope().tag, 4);
  Slot competing, matched;
  post(competing, 2, kAnyTag);
  settle();
  ASSERT_TRUE(competing.done);
  EXPECT_EQ(competing.text(), "second!") << "a taken message is out of every receive's reach";
  engine.deliver_taken(std::move(taken), matched.buffer.data(), 3, matched.completion());
  settle();
  ASSERT_TRUE(matched.done);
  EXPECT_EQ(matched.status.code, ErrorCode::kTruncated);
  EXPECT_EQ(matched.text(), "fir");
  EXPECT_EQ(matched.status.source, 2);
}

// Every match of a synchronous sender's message is reported: a posted receive taking an
// arrival, a receive taking an unexpected message, an eager offer, a matched probe.
TEST_F(MatchingTest, SynchronousMatchesAreReportedOnEveryPath) {
  std::vector<int> reported;
  engine.on_synchronous_match([&](const Envelope& env) { reported.push_back(env.tag); });
  Slot posted, late;
  post(posted, 1, 10);
  engine.arrive(fake_message(7, 1, 10, "a", kEnvelopeSynchronous));
  engine.arrive(fake_message(7, 1, 11, "b", kEnvelopeSynchronous));
  engine.arrive(fake_message(7, 1, 12, "c", kEnvelopeSynchronous));
  engine.arrive(fake_message(7, 1, 14, "plain"));
  post(late, 1, 11);
  const std::string text = "d";
  Envelope offered{7, 1, 13, kEnvelopeSynchronous, 1};
  Slot eager;
  post(eager, 1, 13);
  ASSERT_TRUE(
      engine.take_eager(offered, EagerPayload{reinterpret_cast<const std::byte*>(text.data()), 1}));
  ASSERT_NE(engine.take(7, 1, 12), nullptr);
  Slot plain;
  post(plain, 1, 14);
  settle();
  EXPECT_EQ(reported, (std::vector<int>{10, 11, 13, 12}));
}

}  // namespace
}  // namespace halyard
