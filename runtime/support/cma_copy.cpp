#include "runtime/support/cma_copy.hpp"

#include <sys/uio.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <memory>
#include <thread>

#include "runtime/support/copy_bytes.hpp"

namespace halyard {

namespace {

// One iovec each side, so IOV_MAX never binds; the kernel may still return short counts for
// huge requests (it caps one call near 2 GiB), hence the loop.
//
// EFAULT (or a call that moved nothing) is tried again for a while before it is believed: the
// kernel pins the peer's pages for the copy, and CI saw a 1 MiB read of a live peer's buffer,
// valid before and after, fail with EFAULT while a third process reading the same pages was
// being SIGKILLed; three tries a yield apart were not always enough on a loaded machine (the
// dying process's teardown takes longer there), so the tries span kFaultPatience. A range that
// is really unreadable fails every try, so the error stands, that much later.
constexpr std::chrono::milliseconds kFaultPatience{100};
constexpr std::chrono::microseconds kFaultPause{500};

template <typename Call>
int cma_copy(std::uint64_t remote_address, std::size_t bytes, Call call) {
  std::size_t moved = 0;
  std::chrono::steady_clock::time_point give_up{};
  while (moved < bytes) {
    ssize_t n =
        call(moved, reinterpret_cast<void*>(static_cast<std::uintptr_t>(remote_address + moved)),
             bytes - moved);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno != EFAULT) return errno;
    if (n <= 0) {  // EFAULT, or no progress: never spin
      const auto now = std::chrono::steady_clock::now();
      if (give_up == std::chrono::steady_clock::time_point{}) give_up = now + kFaultPatience;
      if (now >= give_up) return EFAULT;
      std::this_thread::sleep_for(kFaultPause);
      continue;
    }
    moved += static_cast<std::size_t>(n);
  }
  return 0;
}

int read_direct(pid_t pid, std::uint64_t remote_address, void* local, std::size_t bytes) {
  auto* dst = static_cast<char*>(local);
  return cma_copy(remote_address, bytes, [&](std::size_t done, void* remote, std::size_t left) {
    iovec to{dst + done, left};
    iovec from{remote, left};
    return ::process_vm_readv(pid, &to, 1, &from, 1, 0);
  });
}

int write_direct(pid_t pid, std::uint64_t remote_address, const void* local, std::size_t bytes) {
  const auto* src = static_cast<const char*>(local);
  return cma_copy(remote_address, bytes, [&](std::size_t done, void* remote, std::size_t left) {
    iovec from{const_cast<char*>(src) + done, left};
    iovec to{remote, left};
    return ::process_vm_writev(pid, &from, 1, &to, 1, 0);
  });
}

// The kernel's copy to and from user memory is a `rep movsb` too, slow where the destination lies
// 1 to 31 bytes after the source modulo 4 KiB (copy_aliases in copy_bytes.hpp): a 1 MiB
// process_vm_readv at such offsets took 593-703 us against 114-139 at any other
// (docs/bench-data/2026-11-27-window-cma/copy_speed_by_offset.txt). Such a copy goes through a
// per-thread bounce buffer, in pieces, placed kAliasedAheadBytes bytes after the destination modulo
// a 64-byte line: the copy into the bounce buffer then has its destination 33 to 63 bytes ahead
// (modulo 64, so never 1-31 modulo 4 KiB), the copy out of it 32 behind, and both run at full
// speed. (Before, a bounce placed like the remote side modulo 32 fixed reads and left writes
// slow, or made them so: a 1 MiB window put from +8 to +0 went from 141 to 804 us.)
constexpr std::size_t kLine = 64;
constexpr std::size_t kBounceBytes = 256 * 1024;
constexpr std::size_t kBounceMinBytes = 1024;

// kBounceBytes of this thread's bounce buffer, kAliasedAheadBytes bytes after `destination` modulo
// kLine.
std::byte* bounce_for(std::uintptr_t destination) {
  thread_local const std::unique_ptr<std::byte[]> buffer(new std::byte[kBounceBytes + kLine]);
  std::byte* base = buffer.get();
  return base + (destination + kAliasedAheadBytes - reinterpret_cast<std::uintptr_t>(base)) % kLine;
}

}  // namespace

int cma_read(pid_t pid, std::uint64_t remote_address, void* local, std::size_t bytes) {
  auto* dst = static_cast<std::byte*>(local);
  if (bytes < kBounceMinBytes ||
      !copy_aliases(reinterpret_cast<std::uintptr_t>(dst), remote_address)) {
    return read_direct(pid, remote_address, local, bytes);
  }
  for (std::size_t done = 0; done < bytes;) {
    const std::size_t piece = std::min(kBounceBytes, bytes - done);
    std::byte* bounce = bounce_for(reinterpret_cast<std::uintptr_t>(dst + done));
    if (const int error = read_direct(pid, remote_address + done, bounce, piece)) return error;
    std::memcpy(dst + done, bounce, piece);
    done += piece;
  }
  return 0;
}

int cma_write(pid_t pid, std::uint64_t remote_address, const void* local, std::size_t bytes) {
  const auto* src = static_cast<const std::byte*>(local);
  if (bytes < kBounceMinBytes ||
      !copy_aliases(remote_address, reinterpret_cast<std::uintptr_t>(src))) {
    return write_direct(pid, remote_address, local, bytes);
  }
  for (std::size_t done = 0; done < bytes;) {
    const std::size_t piece = std::min(kBounceBytes, bytes - done);
    std::byte* bounce = bounce_for(remote_address + done);
    std::memcpy(bounce, src + done, piece);
    if (const int error = write_direct(pid, remote_address + done, bounce, piece)) return error;
    done += piece;
  }
  return 0;
}

bool cma_refused(int error_number) {
  // EPERM: ptrace access denied (Yama ptrace_scope, other user, non-dumpable); ESRCH: the pid is
  // not visible (another pid namespace); ENOSYS: kernel without CMA or a seccomp filter.
  return error_number == EPERM || error_number == ESRCH || error_number == ENOSYS ||
         error_number == EACCES;
}

}  // namespace halyard
