// copy_bytes: std::memcpy without its worst case. On the AMD EPYC machines this project runs on
// (and other CPUs whose `rep movsb` is fast), glibc copies from a few KiB up to its non-temporal
// threshold with `rep movsb`, and so does the kernel's copy to and from user memory (CMA); both
// run 5-15x slower where the destination lies 1 to 31 bytes after the source modulo 4 KiB (the
// stores' page offsets alias the loads that follow: a 256 KiB memcpy 90-133 us against 7-13, see
// docs/bench-data/2026-11-27-copy-aliasing/). Buffers of user programs land there by chance,
// and a 2-rank allgather of 32 KiB took 27 us instead of 6.0 at such offsets. copy_bytes copies
// such a pair backward, 64 bytes a step, at memcpy's usual speed; every other pair is memcpy.
// From 1 MiB up to 64 MiB on AMD CPUs with `rep movsb` (ERMS), copy_bytes uses that instruction
// itself, 256 KiB at a time: glibc stops using it above the L2 size there
// (`rep_movsb_stop_threshold`) and copies with vector loops, which ran up to 30% slower on this
// project's EPYC VM (1 MiB hot: 20.7 us against 19.1; 2 MiB from memory 91 against 61) and made
// a 1 MiB MPI_Get 1.15-1.18x Open MPI's (docs/mpi-shim.md, "The quick put and get"). One
// `rep movsb` of 4 MiB whose source and destination stay in cache ran slower than memcpy
// (osu_put_latency 110-169 us against 80-83); in 256 KiB pieces, as Open MPI's datatype engine
// copies in 128 KiB ones, it ran faster than both (86-90 against memcpy's 105-108, and 4 MiB
// osu_put_bw 10-20% higher). Above 64 MiB glibc's own copy is left alone: from its non-temporal
// threshold on it streams past the caches, which a copy that large needs.
// The runtime's data copies go through it: eager arrivals (EagerPayload, the self and ofi
// transports), the shm transport's rings and staging, the shm engine's cells, the intranode
// scratch slots, windows, the one-member collectives and derived datatypes' packing.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace halyard {

// A forward copy is slow where the destination lies 1 to kAliasedAheadBytes - 1 bytes after the
// source modulo kAliasPeriod (cma_copy.cpp places its bounce buffer by the same figure).
inline constexpr std::uintptr_t kAliasPeriod = 4096;
inline constexpr std::uintptr_t kAliasedAheadBytes = 32;

// Whether a forward copy from `source` to `destination` is one of the slow ones above.
inline bool copy_aliases(std::uintptr_t destination, std::uintptr_t source) {
  const std::uintptr_t ahead = (destination - source) % kAliasPeriod;
  return ahead != 0 && ahead < kAliasedAheadBytes;
}

// Copies `bytes` from the end down; the ranges must not overlap.
void copy_backward(void* destination, const void* source, std::size_t bytes);

// Whether copies of kStringCopyMinBytes up to (not including) kStringCopyMaxBytes use
// `rep movsb`, kStringCopyPieceBytes at a time (see above): set once, before main.
inline constexpr std::size_t kStringCopyMinBytes = std::size_t{1} << 20;
inline constexpr std::size_t kStringCopyMaxBytes = std::size_t{64} << 20;
inline constexpr std::size_t kStringCopyPieceBytes = std::size_t{256} << 10;
extern const bool g_large_string_copy;

// `rep movsb` of `bytes` (x86-64 only; memcpy elsewhere).
inline void string_copy(void* destination, const void* source, std::size_t bytes) {
#if defined(__x86_64__)
  asm volatile("rep movsb" : "+D"(destination), "+S"(source), "+c"(bytes) : : "memory");
#else
  std::memcpy(destination, source, bytes);
#endif
}

// std::memcpy(destination, source, bytes) for ranges that do not overlap.
inline void copy_bytes(void* destination, const void* source, std::size_t bytes) {
  // Below this glibc copies with vector loops, which alias much less.
  constexpr std::size_t kAliasedMinBytes = 2048;
  if (bytes >= kAliasedMinBytes && copy_aliases(reinterpret_cast<std::uintptr_t>(destination),
                                                reinterpret_cast<std::uintptr_t>(source)))
      [[unlikely]] {
    copy_backward(destination, source, bytes);
    return;
  }
  if (bytes >= kStringCopyMinBytes && bytes < kStringCopyMaxBytes && g_large_string_copy) {
    auto* to = static_cast<std::byte*>(destination);
    const auto* from = static_cast<const std::byte*>(source);
    for (std::size_t at = 0; at < bytes; at += kStringCopyPieceBytes) {
      string_copy(to + at, from + at, std::min(kStringCopyPieceBytes, bytes - at));
    }
    return;
  }
  std::memcpy(destination, source, bytes);
}

}  // namespace halyard
