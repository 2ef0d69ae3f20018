// Multi-rank point-to-point and active-message checks, run through hlaunch:
//   hlaunch -n N [--vnodes K] p2p_scenarios <scenario>
// Every check compares real data element by element; any mismatch prints what differed and
// exits 1, so the job (and the ctest) fails.
#include <array>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "halyard/halyard.hpp"
#include "tests/helpers/scenario_checks.hpp"

namespace {

using halyard::Communicator;
using halyard::ErrorCode;
using halyard::Request;
using halyard::Runtime;
using halyard::Status;

using halyard::testing::expect_ok;
using halyard::testing::fail;

// This program's byte pattern for every payload it sends and checks.
constexpr halyard::testing::BytePattern kPattern{131, 7, 8};

void check(bool ok, const std::string& what) {
  if (!ok) fail(what);
}

// Zero-byte gather to rank 0 and release, over p2p (collectives come from another layer).
void barrier(const Communicator& c, int tag) {
  if (c.rank() == 0) {
    for (int r = 1; r < c.size(); ++r) expect_ok(c.irecv(r, tag, nullptr, 0), "barrier gather");
    for (int r = 1; r < c.size(); ++r) expect_ok(c.isend(r, tag, nullptr, 0), "barrier release");
  } else {
    expect_ok(c.isend(0, tag, nullptr, 0), "barrier arrive");
    expect_ok(c.irecv(0, tag, nullptr, 0), "barrier wait");
  }
}

// Pairs (0,1), (2,3), ...; an odd last rank has no partner.
int partner(const Communicator& c) {
  int p = c.rank() ^ 1;
  return p < c.size() ? p : -1;
}

void pingpong(Runtime& rt) {
  const Communicator& w = rt.world();
  int peer = partner(w);
  if (peer < 0) return;
  bool initiator = w.rank() < peer;
  std::vector<std::size_t> sizes{0, 1, 3};
  for (std::size_t s = 4; s <= (std::size_t{64} << 20); s *= 4) sizes.push_back(s);
  std::vector<std::byte> out(sizes.back()), in(sizes.back());
  for (std::size_t size : sizes) {
    int iterations = size <= (1u << 20) ? 3 : 1;
    for (int it = 0; it < iterations; ++it) {
      std::string what =
          "ping-pong of " + std::to_string(size) + " bytes, iteration " + std::to_string(it);
      auto seed = static_cast<std::uint32_t>(size + static_cast<std::size_t>(it) * 17);
      if (initiator) {
        kPattern.fill(out.data(), size, seed);
        std::memset(in.data(), 0, size);
        Request r = w.irecv(peer, 1, in.data(), size);
        expect_ok(w.isend(peer, 1, out.data(), size), what + " (send)");
        Status st = expect_ok(r, what + " (echo)");
        check(st.bytes == size && st.source == peer && st.tag == 1,
              what + ": echo status bytes=" + std::to_string(st.bytes) +
                  " source=" + std::to_string(st.source));
        kPattern.verify(in.data(), size, seed, what + " echo");
      } else {
        std::memset(in.data(), 0, size);
        Status st = expect_ok(w.irecv(peer, 1, in.data(), size), what + " (receive)");
        check(st.bytes == size, what + ": received " + std::to_string(st.bytes) + " bytes");
        kPattern.verify(in.data(), size, seed, what);
        expect_ok(w.isend(peer, 1, in.data(), size), what + " (echo)");
      }
    }
  }
}

void inflight(Runtime& rt) {
  const Communicator& w = rt.world();
  int peer = partner(w);
  if (peer < 0) return;
  constexpr int kMessages = 1000;
  std::vector<std::uint64_t> values(kMessages);
  int completed = 0, failed = 0;
  auto count = [&](const Status& s) { s.ok() ? ++completed : ++failed; };
  std::vector<Request> requests;
  // Both directions at once, all on one tag: per-pair ordering puts message i in receive i.
  std::vector<std::uint64_t> sent(kMessages);
  for (int i = 0; i < kMessages; ++i) {
    sent[static_cast<std::size_t>(i)] =
        (static_cast<std::uint64_t>(w.rank()) << 32) | static_cast<std::uint64_t>(i);
    requests.push_back(
        w.irecv(peer, 5, &values[static_cast<std::size_t>(i)], sizeof(std::uint64_t), count));
    requests.push_back(
        w.isend(peer, 5, &sent[static_cast<std::size_t>(i)], sizeof(std::uint64_t), count));
  }
  rt.loop().run_until([&] { return completed + failed == 2 * kMessages; });
  check(failed == 0,
        std::to_string(failed) + " of " + std::to_string(2 * kMessages) + " operations failed");
  for (int i = 0; i < kMessages; ++i) {
    std::uint64_t expected =
        (static_cast<std::uint64_t>(peer) << 32) | static_cast<std::uint64_t>(i);
    check(values[static_cast<std::size_t>(i)] == expected,
          "message " + std::to_string(i) + " holds " +
              std::to_string(values[static_cast<std::size_t>(i)]) + ", expected " +
              std::to_string(expected) + " (out of order?)");
  }
  for (const auto& r : requests) check(r.done(), "a request is not done after its callback ran");
}

void ordering(Runtime& rt) {
  const Communicator& w = rt.world();
  int peer = partner(w);
  if (peer < 0) return;
  bool sender = w.rank() < peer;
  for (std::size_t size : {std::size_t{64}, std::size_t{8} << 20}) {
    std::vector<std::byte> buf(size);
    auto seed = static_cast<std::uint32_t>(size);
    std::string what = std::to_string(size) + " bytes";
    // Send before receive: the data message precedes a "sent" notice on the same pair, so it
    // is unexpected by the time the receive is posted.
    if (sender) {
      kPattern.fill(buf.data(), size, seed);
      Request data = w.isend(peer, 10, buf.data(), size);
      expect_ok(w.isend(peer, 11, nullptr, 0), "sent notice");
      expect_ok(data, "send-before-receive " + what);
    } else {
      expect_ok(w.irecv(peer, 11, nullptr, 0), "sent notice");
      expect_ok(w.irecv(peer, 10, buf.data(), size), "send-before-receive " + what);
      kPattern.verify(buf.data(), size, seed, "send-before-receive " + what);
    }
    // Receive before send: the receiver posts, then tells the sender to go.
    seed += 1;
    if (sender) {
      expect_ok(w.irecv(peer, 12, nullptr, 0), "ready notice");
      kPattern.fill(buf.data(), size, seed);
      expect_ok(w.isend(peer, 13, buf.data(), size), "receive-before-send " + what);
    } else {
      std::fill(buf.begin(), buf.end(), std::byte{0});
      Request data = w.irecv(peer, 13, buf.data(), size);
      expect_ok(w.isend(peer, 12, nullptr, 0), "ready notice");
      expect_ok(data, "receive-before-send " + what);
      kPattern.verify(buf.data(), size, seed, "receive-before-send " + what);
    }
  }
}

void anysource(Runtime& rt) {
  const Communicator& w = rt.world();
  // The rounds are separated by a barrier on another communicator: on this one its messages
  // would match the any-tag receives.
  Communicator sync = w.dup();
  for (int round = 0; round < 3; ++round) {
    if (w.rank() == 0) {
      std::vector<int> seen(static_cast<std::size_t>(w.size()), 0);
      for (int i = 1; i < w.size(); ++i) {
        std::int64_t v = -1;
        Status s = expect_ok(w.irecv(halyard::kAnySource, halyard::kAnyTag, &v, sizeof(v)),
                             "any-source receive");
        check(s.source >= 1 && s.source < w.size(),
              "any-source: bad source " + std::to_string(s.source));
        check(s.tag == 100 + s.source, "any-source: tag " + std::to_string(s.tag) + " from rank " +
                                           std::to_string(s.source));
        check(v == s.source * 1000 + round,
              "any-source: value " + std::to_string(v) + " from rank " + std::to_string(s.source));
        ++seen[static_cast<std::size_t>(s.source)];
      }
      for (int r = 1; r < w.size(); ++r) {
        check(seen[static_cast<std::size_t>(r)] == 1,
              "any-source: rank " + std::to_string(r) + " seen " +
                  std::to_string(seen[static_cast<std::size_t>(r)]) + " times");
      }
    } else {
      std::int64_t v = w.rank() * 1000 + round;
      expect_ok(w.isend(0, 100 + w.rank(), &v, sizeof(v)), "any-source send");
    }
    barrier(sync, 200);
  }
}

void truncation(Runtime& rt) {
  const Communicator& w = rt.world();
  int peer = partner(w);
  if (peer < 0) return;
  for (std::size_t size : {std::size_t{100}, std::size_t{4} << 20}) {
    std::vector<std::byte> buf(size);
    auto seed = static_cast<std::uint32_t>(size);
    std::string what = "truncation of " + std::to_string(size) + " bytes";
    if (w.rank() < peer) {
      kPattern.fill(buf.data(), size, seed);
      expect_ok(w.isend(peer, 3, buf.data(), size), what + ": the sender must succeed");
    } else {
      std::vector<std::byte> small(10);
      Status s = w.irecv(peer, 3, small.data(), small.size()).wait();
      check(s.code == ErrorCode::kTruncated,
            what + ": status " + std::string(halyard::error_code_name(s.code)));
      std::string expected = "message of " + std::to_string(size) +
                             " bytes (tag 3) truncated to the receive buffer of 10 bytes";
      check(s.message == expected,
            what + ": message '" + s.message + "', expected '" + expected + "'");
      check(s.bytes == 10 && s.source == peer, what + ": bytes " + std::to_string(s.bytes));
      kPattern.verify(small.data(), small.size(), seed, what + " (the part that fits)");
    }
    // The pair still works afterwards.
    int v = 0, token = 42;
    if (w.rank() < peer) {
      expect_ok(w.irecv(peer, 4, &v, sizeof(v)), "after truncation");
      check(v == 42, "after truncation got " + std::to_string(v));
    } else {
      expect_ok(w.isend(peer, 4, &token, sizeof(token)), "after truncation");
    }
  }
}

void active_messages(Runtime& rt) {
  const Communicator& w = rt.world();
  const std::vector<std::size_t> sizes{0, 100, std::size_t{4} << 20};
  const int expected = (w.size() - 1) * static_cast<int>(sizes.size());
  int handled = 0;
  std::map<int, std::vector<std::byte>> landing;  // per source, for the large payloads
  w.register_am_handler(
      7,
      [&](int source, std::span<const std::byte> header, std::span<const std::byte> payload) {
        check(header.size() == 2 * sizeof(std::uint64_t),
              "am header of " + std::to_string(header.size()) + " bytes");
        std::uint64_t h[2];
        std::memcpy(h, header.data(), sizeof(h));
        check(static_cast<int>(h[0]) == source, "am header names rank " + std::to_string(h[0]) +
                                                    ", source is " + std::to_string(source));
        check(payload.size() == h[1], "am payload of " + std::to_string(payload.size()) +
                                          " bytes, header says " + std::to_string(h[1]));
        kPattern.verify(payload.data(), payload.size(),
                        static_cast<std::uint32_t>(source * 7 + h[1]),
                        "am payload from rank " + std::to_string(source));
        if (payload.size() > 1000) {
          check(payload.data() == landing[source].data(),
                "rendezvous payload not in the handler's destination");
        }
        ++handled;
      },
      [&](int source, std::span<const std::byte>, std::size_t bytes) -> void* {
        auto& buf = landing[source];
        buf.assign(bytes, std::byte{0});
        return buf.data();
      });
  barrier(w, 300);  // every handler is registered (not required: early messages wait)
  std::vector<std::vector<std::byte>> payloads;
  std::vector<std::array<std::uint64_t, 2>> headers;
  payloads.reserve(sizes.size() * static_cast<std::size_t>(w.size()));
  headers.reserve(payloads.capacity());
  std::vector<Request> sends;
  for (int peer = 0; peer < w.size(); ++peer) {
    if (peer == w.rank()) continue;
    for (std::size_t size : sizes) {
      payloads.emplace_back(size);
      kPattern.fill(payloads.back().data(), size,
                    static_cast<std::uint32_t>(w.rank() * 7 + static_cast<int>(size)));
      headers.push_back({static_cast<std::uint64_t>(w.rank()), size});
      sends.push_back(
          w.am_send(peer, 7, std::as_bytes(std::span(headers.back())), payloads.back()));
    }
  }
  for (const auto& s : sends) expect_ok(s, "am_send");
  rt.loop().run_until([&] { return handled == expected; });
  barrier(w, 301);  // peers may still need our progress for their rendezvous
}

void split(Runtime& rt) {
  const Communicator& w = rt.world();
  Communicator half = w.split(w.rank() % 2, w.rank());
  Communicator copy = w.dup();
  Communicator node = w.node_comm();
  Communicator leaders = w.leader_comm();
  check(half.valid() && copy.valid() && node.valid(), "derived communicator is empty");
  check(half.size() == (w.size() + 1 - w.rank() % 2) / 2,
        "half has " + std::to_string(half.size()) + " ranks");
  for (int r = 0; r < node.size(); ++r) {
    check(node.topology_of(r).node_id == w.topology_of(w.rank()).node_id,
          "node_comm holds another node's rank");
  }
  check(leaders.valid() == (node.rank() == 0), "leader_comm membership does not match node rank 0");
  // The same tag, the same pairs, on three communicators at once: each receive must get the
  // message of its own communicator. Messages are posted in reverse communicator order.
  const Communicator* comms[] = {&w, &copy, &half};
  std::vector<std::int64_t> got(3, -1), sent(3);
  std::vector<Request> reqs;
  for (int i = 0; i < 3; ++i) {
    const Communicator& c = *comms[i];
    int from = (c.rank() + c.size() - 1) % c.size();
    reqs.push_back(c.irecv(from, 9, &got[static_cast<std::size_t>(i)], sizeof(std::int64_t)));
    sent[static_cast<std::size_t>(i)] = i * 1000 + c.world_rank(c.rank());
  }
  for (int i = 2; i >= 0; --i) {
    const Communicator& c = *comms[i];
    reqs.push_back(c.isend((c.rank() + 1) % c.size(), 9, &sent[static_cast<std::size_t>(i)],
                           sizeof(std::int64_t)));
  }
  for (const auto& r : reqs) expect_ok(r, "split traffic");
  for (int i = 0; i < 3; ++i) {
    const Communicator& c = *comms[i];
    std::int64_t expected = i * 1000 + c.world_rank((c.rank() + c.size() - 1) % c.size());
    check(got[static_cast<std::size_t>(i)] == expected,
          "communicator " + std::to_string(i) + " got " +
              std::to_string(got[static_cast<std::size_t>(i)]) + ", expected " +
              std::to_string(expected));
  }
  if (leaders.valid()) barrier(leaders, 5);
  barrier(node, 5);
  barrier(w, 5);
}

// Rank 1 dies; every other rank is waiting for a message from it and must see its receive
// fail with kPeerFailed (from hlaunch's notice) instead of hanging. The job still fails (rank
// 1 exited 3); the test passes on the survivors' report.
void peer_failure(Runtime& rt) {
  const Communicator& w = rt.world();
  check(w.size() >= 2, "peerfail needs at least 2 ranks");
  // hlaunch sends the notice and SIGTERM together, then SIGKILL after a grace period; ignore
  // SIGTERM so that what is tested is the notice failing the receive, not the signal.
  std::signal(SIGTERM, SIG_IGN);
  barrier(w, 400);
  if (w.rank() == 1) {
    std::fflush(nullptr);
    std::_Exit(3);
  }
  int v = 0;
  Status s = w.irecv(1, 401, &v, sizeof(v)).wait();
  check(s.code == ErrorCode::kPeerFailed,
        "receive from the dead rank ended with " + std::string(halyard::error_code_name(s.code)));
  Status later = w.isend(1, 402, &v, sizeof(v)).wait();
  check(later.code == ErrorCode::kPeerFailed, "a send after the failure did not fail");
  std::printf("p2p_scenarios peerfail: rank %d saw the failure: %s\n", w.rank(), s.message.c_str());
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  return halyard::testing::run_scenario_program("p2p_scenarios", argc, argv,
                                                {{"pingpong", pingpong},
                                                 {"inflight", inflight},
                                                 {"ordering", ordering},
                                                 {"anysource", anysource},
                                                 {"truncation", truncation},
                                                 {"am", active_messages},
                                                 {"split", split},
                                                 {"peerfail", peer_failure}});
}
