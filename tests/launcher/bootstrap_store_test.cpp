// The bootstrap server's key-value store and fence/barrier counting, without sockets.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "launcher/collective_gate.hpp"
#include "launcher/key_value_store.hpp"

namespace halyard::launcher {
namespace {

TEST(KeyValueStore, GetOfAnExistingKeyAnswersAtOnce) {
  KeyValueStore store;
  EXPECT_TRUE(store.put("a", "1"));
  std::string got = "unset";
  store.get("a", [&](const std::string& v) { got = v; });
  EXPECT_EQ(got, "1");
  EXPECT_EQ(store.waiting(), 0u);
}

TEST(KeyValueStore, GetWaitsUntilTheKeyIsPut) {
  KeyValueStore store;
  std::vector<std::string> answers;
  store.get("addr/3", [&](const std::string& v) { answers.push_back("first:" + v); });
  store.get("addr/3", [&](const std::string& v) { answers.push_back("second:" + v); });
  store.get("other", [&](const std::string& v) { answers.push_back("other:" + v); });
  EXPECT_EQ(store.waiting(), 3u);
  EXPECT_TRUE(answers.empty());
  EXPECT_TRUE(store.put("addr/3", "tcp://x"));
  EXPECT_EQ(answers, (std::vector<std::string>{"first:tcp://x", "second:tcp://x"}));
  EXPECT_EQ(store.waiting(), 1u);
}

TEST(KeyValueStore, SecondPutOfAKeyIsRefusedAndKeepsTheFirstValue) {
  KeyValueStore store;
  EXPECT_TRUE(store.put("k", "v1"));
  EXPECT_FALSE(store.put("k", "v2"));
  std::string got;
  store.get("k", [&](const std::string& v) { got = v; });
  EXPECT_EQ(got, "v1");
  EXPECT_EQ(store.size(), 1u);
}

TEST(KeyValueStore, HandlerMayPutAnotherKey) {
  KeyValueStore store;
  std::string chained;
  store.get("a", [&](const std::string& v) { store.put("b", v + "+b"); });
  store.get("b", [&](const std::string& v) { chained = v; });
  store.put("a", "a");
  EXPECT_EQ(chained, "a+b");
}

TEST(KeyValueStore, DroppedWaitersAreNeverCalled) {
  KeyValueStore store;
  int calls = 0;
  store.get("x", [&](const std::string&) { ++calls; });
  store.drop_waiters();
  store.put("x", "1");
  EXPECT_EQ(calls, 0);
  EXPECT_EQ(store.waiting(), 0u);
}

struct Outcome {
  int calls = 0;
  ErrorCode code = ErrorCode::kInternal;
  std::string message;
};

CollectiveGate::Handler record(Outcome& o) {
  return [&o](ErrorCode code, const std::string& message) {
    ++o.calls;
    o.code = code;
    o.message = message;
  };
}

TEST(CollectiveGate, ReleasesEveryRankWhenTheLastArrives) {
  CollectiveGate gate("fence", 3);
  Outcome o0, o1, o2;
  gate.arrive(2, record(o2));
  gate.arrive(0, record(o0));
  EXPECT_EQ(o0.calls + o2.calls, 0);
  EXPECT_EQ(gate.arrived(), 2);
  gate.arrive(1, record(o1));
  for (Outcome* o : {&o0, &o1, &o2}) {
    EXPECT_EQ(o->calls, 1);
    EXPECT_EQ(o->code, ErrorCode::kSuccess);
  }
  EXPECT_EQ(gate.arrived(), 0);
}

TEST(CollectiveGate, RoundsRepeat) {
  CollectiveGate gate("barrier", 2);
  for (int round = 0; round < 3; ++round) {
    Outcome a, b;
    gate.arrive(0, record(a));
    gate.arrive(1, record(b));
    EXPECT_EQ(a.calls, 1) << "round " << round;
    EXPECT_EQ(b.calls, 1) << "round " << round;
  }
}

TEST(CollectiveGate, EnteringTwiceIsAnError) {
  CollectiveGate gate("barrier", 2);
  Outcome first, second;
  gate.arrive(1, record(first));
  gate.arrive(1, record(second));
  EXPECT_EQ(first.calls, 0);
  EXPECT_EQ(second.calls, 1);
  EXPECT_EQ(second.code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(second.message, "rank 1 entered the same barrier twice");
}

TEST(CollectiveGate, RankGoneFailsTheWaitingRound) {
  CollectiveGate gate("fence", 3);
  Outcome o0, o1;
  gate.arrive(0, record(o0));
  gate.arrive(1, record(o1));
  gate.rank_gone(2, "exited with status 0");
  for (Outcome* o : {&o0, &o1}) {
    EXPECT_EQ(o->calls, 1);
    EXPECT_EQ(o->code, ErrorCode::kPeerFailed);
    EXPECT_EQ(o->message, "fence cannot complete: rank 2 exited with status 0 without entering it");
  }
}

TEST(CollectiveGate, RankGoneFailsLaterRoundsAtOnce) {
  CollectiveGate gate("barrier", 2);
  gate.rank_gone(1, "was killed by signal 9 (Killed)");
  Outcome o;
  gate.arrive(0, record(o));
  EXPECT_EQ(o.calls, 1);
  EXPECT_EQ(o.code, ErrorCode::kPeerFailed);
  EXPECT_EQ(o.message,
            "barrier cannot complete: rank 1 was killed by signal 9 (Killed) without entering it");
}

}  // namespace
}  // namespace halyard::launcher
