// What a survivor of a peer failure checks once its request reported the error: it refills
// its buffers and watches them, byte by byte, for kWatch while the library keeps progressing.
// No byte may change: a request completes only after every transfer into (or out of) its
// buffers has finished or been cancelled (docs/reliability.md, "No byte after the error").
// Shared by the C++ API and MPI shim programs of buffers_quiet_after_failure.
#pragma once

#include <chrono>
#include <csignal>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace quiet {

// What rank R refills its buffers with: a byte of its own, so that a transfer that goes on
// reading a survivor's refilled send buffer still shows up in the receiver's; none is a byte of
// the floats the tests send (1.0f, 2.0f, ... and their sums have zero low bytes).
inline unsigned char refill_byte(int rank) {
  return static_cast<unsigned char>(0x51 + rank % 64);
}
inline constexpr std::chrono::seconds kWatch{2};
// The victim takes part this long before it dies: its peers are mid-transfer then (64 MiB
// take far longer).
inline constexpr std::chrono::milliseconds kVictimDelay{5};

// Survivors wait the way an application that computes between MPI_Test calls does: one pass
// of the library, then this pause. Transfers then take long enough (hundreds of ms) to be in
// flight when the failure notice arrives, which is the case the rule is about.
inline constexpr std::chrono::milliseconds kPause{1};

struct Buffer {
  void* data;
  std::size_t bytes;
};

// hlaunch sends SIGTERM 2 s after the failure notice (SIGKILL 2 s later): a survivor that must
// watch its buffers for 2 s ignores it. Call it once the library is initialized: a library it
// loads (libfabric's providers) may install a SIGTERM handler of its own.
inline void survive_sigterm() {
  std::signal(SIGTERM, SIG_IGN);
}

inline long long now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

[[noreturn]] inline void die_by_sigkill(int rank) {
  std::printf("victim %d dies at %lld by sigkill\n", rank, now_ms());
  std::fflush(nullptr);
  std::raise(SIGKILL);
  std::abort();
}

// Bytes of `buffers` that differ from `fill`: blocks are compared whole first (memcmp), so
// the common quiet case costs a pass at memory speed.
inline std::size_t changed_bytes(const std::vector<Buffer>& buffers, unsigned char fill) {
  constexpr std::size_t kBlock = 64 * 1024;
  const std::vector<unsigned char> refill(kBlock, fill);
  std::size_t changed = 0;
  for (const Buffer& b : buffers) {
    const auto* bytes = static_cast<const unsigned char*>(b.data);
    for (std::size_t at = 0; at < b.bytes; at += kBlock) {
      const std::size_t n = b.bytes - at < kBlock ? b.bytes - at : kBlock;
      if (std::memcmp(bytes + at, refill.data(), n) == 0) continue;
      for (std::size_t i = at; i < at + n; ++i) changed += bytes[i] != fill;
    }
  }
  return changed;
}

// Refills `buffers`, then for kWatch calls `progress` (so the transports keep running) and
// compares every byte with the refill (a byte once overwritten stays so: the last comparison
// counts them all). Prints "rank R: N of M bytes changed in 2 s after the error (at MS)" and
// returns N.
template <typename Progress>
std::size_t watch_after_refill(int rank, const std::vector<Buffer>& buffers, Progress&& progress) {
  const unsigned char fill = refill_byte(rank);
  std::size_t total = 0;
  for (const Buffer& b : buffers) {
    std::memset(b.data, fill, b.bytes);
    total += b.bytes;
  }
  const auto start = std::chrono::steady_clock::now();
  std::size_t changed = 0;
  for (auto looked = start; looked - start < kWatch;) {
    progress();
    const auto now = std::chrono::steady_clock::now();
    if (now - looked >= std::chrono::milliseconds(500) || now - start >= kWatch) {
      changed = changed_bytes(buffers, fill);
      looked = now;
    }
  }
  std::printf("rank %d: %zu of %zu bytes changed in 2 s after the error (at %lld)\n", rank, changed,
              total, now_ms());
  std::fflush(nullptr);
  return changed;
}

}  // namespace quiet
