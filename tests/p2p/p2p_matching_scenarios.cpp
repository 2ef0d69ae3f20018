// Probes, matched probes, synchronous sends and cancelled receives (the matching engine's
// look-without-taking, take-out and acknowledgement paths), run through hlaunch:
//   hlaunch -n N [--vnodes K] p2p_matching_scenarios probe|mprobe|ssend|cancel
// Ranks work in pairs (0,1), (2,3), ...; the lower rank sends. Large messages (8 MiB) take the
// transports' rendezvous paths. Every payload is checked byte by byte; a failure exits 1.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "halyard/halyard.hpp"
#include "tests/helpers/scenario_checks.hpp"

namespace {

using halyard::Communicator;
using halyard::ErrorCode;
using halyard::kAnySource;
using halyard::kAnyTag;
using halyard::MatchedMessage;
using halyard::Request;
using halyard::Runtime;
using halyard::Status;

using halyard::testing::expect_ok;
using halyard::testing::fail;

constexpr halyard::testing::BytePattern kPattern{29, 11, 9};
constexpr std::size_t kLarge = std::size_t{8} << 20;

void check(bool ok, const std::string& what) {
  if (!ok) fail(what);
}

void check_status(const Status& s, int source, int tag, std::size_t bytes,
                  const std::string& what) {
  check(s.source == source && s.tag == tag && s.bytes == bytes,
        what + ": source " + std::to_string(s.source) + " tag " + std::to_string(s.tag) +
            " bytes " + std::to_string(s.bytes) + ", expected " + std::to_string(source) + "/" +
            std::to_string(tag) + "/" + std::to_string(bytes));
}

int partner(const Communicator& c) {
  int p = c.rank() ^ 1;
  return p < c.size() ? p : -1;
}

// Sends `size` bytes of pattern `seed` and waits for the send.
void send_pattern(const Communicator& c, int peer, int tag, std::size_t size, std::uint32_t seed) {
  std::vector<std::byte> out(size);
  kPattern.fill(out.data(), size, seed);
  expect_ok(c.isend(peer, tag, out.data(), size), "send of tag " + std::to_string(tag));
}

// Posts the sends without waiting (so that they are all in flight before the receiver looks).
std::vector<Request> post_patterns(const Communicator& c, int peer,
                                   std::vector<std::vector<std::byte>>& buffers,
                                   const std::vector<std::pair<int, std::size_t>>& messages) {
  std::vector<Request> sends;
  for (std::size_t i = 0; i < messages.size(); ++i) {
    buffers.emplace_back(messages[i].second);
    kPattern.fill(buffers.back().data(), messages[i].second, static_cast<std::uint32_t>(i + 1));
    sends.push_back(c.isend(peer, messages[i].first, buffers.back().data(), messages[i].second));
  }
  return sends;
}

void probe(Runtime& rt) {
  const Communicator& w = rt.world();
  const int peer = partner(w);
  if (peer < 0) return;
  const std::vector<std::pair<int, std::size_t>> messages{{10, 0}, {11, 37}, {12, kLarge}};
  if (w.rank() < peer) {
    std::vector<std::vector<std::byte>> buffers;
    for (const Request& r : post_patterns(w, peer, buffers, messages)) expect_ok(r, "send");
    return;
  }
  check(!w.iprobe(peer, 99).has_value(), "iprobe found a message with tag 99 that nobody sent");
  // A probe with a tag finds that message even when others arrived before it; it takes nothing.
  for (int round = 0; round < 2; ++round)
    check_status(w.probe(peer, 12), peer, 12, kLarge, "probe(peer, 12)");
  // Wildcards see the first message in sending order, again and again until it is received.
  for (std::size_t i = 0; i < messages.size(); ++i) {
    const auto [tag, size] = messages[i];
    std::optional<Status> seen;
    while (!(seen = w.iprobe(kAnySource, kAnyTag))) {
    }
    check_status(*seen, peer, tag, size, "iprobe(any, any) before message " + std::to_string(i));
    check_status(w.probe(kAnySource, kAnyTag), peer, tag, size, "probe(any, any) again");
    std::vector<std::byte> in(seen->bytes);
    Status got = expect_ok(w.irecv(seen->source, seen->tag, in.data(), in.size()), "receive");
    check_status(got, peer, tag, size, "the receive after the probe");
    kPattern.verify(in.data(), size, static_cast<std::uint32_t>(i + 1), "probed message");
  }
  check(!w.iprobe(kAnySource, kAnyTag).has_value(), "iprobe found a message after all were read");
}

// Two receivers compete: a matched probe takes the first message, so the receive posted after
// it gets the second one, and only mrecv() gets the first.
void mprobe(Runtime& rt) {
  const Communicator& w = rt.world();
  const int peer = partner(w);
  if (peer < 0) return;
  const std::vector<std::pair<int, std::size_t>> messages{{20, kLarge}, {21, 64}, {22, kLarge}};
  if (w.rank() < peer) {
    std::vector<std::vector<std::byte>> buffers;
    for (const Request& r : post_patterns(w, peer, buffers, messages)) expect_ok(r, "send");
    return;
  }
  MatchedMessage first = w.mprobe(peer, kAnyTag);
  check_status(first.status, peer, 20, kLarge, "mprobe(peer, any)");
  std::vector<std::byte> competing(kLarge);
  Status got = expect_ok(w.irecv(peer, kAnyTag, competing.data(), competing.size()), "receive");
  check_status(got, peer, 21, 64, "the receive posted after mprobe");
  kPattern.verify(competing.data(), 64, 2, "the competing receive");
  std::optional<MatchedMessage> third;
  while (!(third = w.improbe(kAnySource, 22))) {
  }
  check_status(third->status, peer, 22, kLarge, "improbe(any, 22)");
  check(!w.iprobe(kAnySource, kAnyTag).has_value(), "a matched message is still visible to probes");
  std::vector<std::byte> in(kLarge);
  check_status(expect_ok(w.mrecv(std::move(*third), in.data(), in.size()), "mrecv third"), peer, 22,
               kLarge, "mrecv of the third");
  kPattern.verify(in.data(), kLarge, 3, "the third message");
  // Truncation reports like a receive's: 100 bytes of 8 MiB.
  Status truncated = w.mrecv(std::move(first), in.data(), 100).wait();
  check(truncated.code == ErrorCode::kTruncated && truncated.bytes == 100,
        "mrecv into 100 bytes: " + std::string(halyard::error_code_name(truncated.code)));
  kPattern.verify(in.data(), 100, 1, "the truncated first message");
}

// A synchronous send does not complete before the receive is posted, and then does.
void ssend(Runtime& rt) {
  const Communicator& w = rt.world();
  const int peer = partner(w);
  if (peer < 0) return;
  for (std::size_t size : {std::size_t{16}, kLarge}) {
    const std::string what = "ssend of " + std::to_string(size) + " bytes";
    const auto seed = static_cast<std::uint32_t>(size);
    if (w.rank() < peer) {
      std::vector<std::byte> out(size);
      kPattern.fill(out.data(), size, seed);
      Request sync = w.issend(peer, 30, out.data(), size);
      auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(30);
      while (std::chrono::steady_clock::now() < until) sync.test();
      check(!sync.done(), what + " completed before the receiver posted its receive");
      send_pattern(w, peer, 31, 0, 0);  // "post your receive now"
      check_status(expect_ok(sync, what), -1, -1, size, what + " (sender's status)");
    } else {
      expect_ok(w.irecv(peer, 31, nullptr, 0), "the go-ahead");
      std::vector<std::byte> in(size);
      check_status(expect_ok(w.irecv(peer, 30, in.data(), size), what), peer, 30, size, what);
      kPattern.verify(in.data(), size, seed, what);
    }
  }
}

// An unmatched receive is withdrawn (kCancelled, buffer untouched) and a later message goes to
// the next receive; a matched one cannot be.
void cancel(Runtime& rt) {
  const Communicator& w = rt.world();
  const int peer = partner(w);
  if (peer < 0) return;
  if (w.rank() < peer) {
    expect_ok(w.irecv(peer, 42, nullptr, 0), "the go-ahead");
    send_pattern(w, peer, 40, 64, 5);
    send_pattern(w, peer, 41, 8, 6);
    return;
  }
  std::vector<std::byte> withdrawn(64, std::byte{0x5a});
  halyard::CancellableReceive first = w.irecv_cancellable(peer, 40, withdrawn.data(), 64);
  check(w.cancel_receive(first), "an unmatched receive was not cancelled");
  Status s = first.request.wait();
  check(s.code == ErrorCode::kCancelled,
        "the cancelled receive ended with " + std::string(halyard::error_code_name(s.code)));
  check(w.posted_receives() == 0, "the cancelled receive is still posted");
  send_pattern(w, peer, 42, 0, 0);
  std::vector<std::byte> in(64);
  expect_ok(w.irecv(peer, 40, in.data(), 64), "the receive after the cancel");
  kPattern.verify(in.data(), 64, 5, "the message after the cancel");
  for (std::byte b : withdrawn) check(b == std::byte{0x5a}, "the cancelled buffer changed");
  halyard::CancellableReceive matched = w.irecv_cancellable(peer, 41, in.data(), 8);
  expect_ok(matched.request, "the receive of tag 41");
  check(!w.cancel_receive(matched), "a completed receive was cancelled");
  kPattern.verify(in.data(), 8, 6, "tag 41");
}

}  // namespace

int main(int argc, char** argv) {
  return halyard::testing::run_scenario_program(
      "p2p_matching_scenarios", argc, argv,
      {{"probe", probe}, {"mprobe", mprobe}, {"ssend", ssend}, {"cancel", cancel}});
}
