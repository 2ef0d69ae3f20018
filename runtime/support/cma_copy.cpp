#include "runtime/support/cma_copy.hpp"

#include <sys/uio.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <memory>
#include <thread>

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

// The kernel's copy runs at a third of its speed where the two sides lie at different offsets
// modulo 32 bytes (2 ranks, 2026-11-27: a 16 KiB reduce by one CMA read 12.9-14.7 us with recv at
// +0 or +8 from send's +0 or +16, 5.2-6.4 us at +0/+0, +16/+16, +16/+48 or +64/+0; 256 KiB
// 174-189 us against 48-51), and two heap buffers often do. Such a copy goes through a
// per-thread bounce buffer placed like the remote side, in pieces; the copy in user space that
// this adds costs far less (the same 256 KiB bcast: 36-42 us against 174-178).
constexpr std::size_t kCopyAlignment = 32;
constexpr std::size_t kBounceBytes = 256 * 1024;
constexpr std::size_t kBounceMinBytes = 1024;

bool placed_alike(std::uint64_t remote_address, const void* local) {
  return (remote_address - reinterpret_cast<std::uintptr_t>(local)) % kCopyAlignment == 0;
}

// kBounceBytes of this thread's bounce buffer, at the offset modulo kCopyAlignment of
// `remote_address`.
std::byte* bounce_for(std::uint64_t remote_address) {
  thread_local const std::unique_ptr<std::byte[]> buffer(
      new std::byte[kBounceBytes + kCopyAlignment]);
  std::byte* base = buffer.get();
  return base + (remote_address - reinterpret_cast<std::uintptr_t>(base)) % kCopyAlignment;
}

}  // namespace

int cma_read(pid_t pid, std::uint64_t remote_address, void* local, std::size_t bytes) {
  if (bytes < kBounceMinBytes || placed_alike(remote_address, local)) {
    return read_direct(pid, remote_address, local, bytes);
  }
  auto* dst = static_cast<std::byte*>(local);
  for (std::size_t done = 0; done < bytes;) {
    const std::size_t piece = std::min(kBounceBytes, bytes - done);
    std::byte* bounce = bounce_for(remote_address + done);
    if (const int error = read_direct(pid, remote_address + done, bounce, piece)) return error;
    std::memcpy(dst + done, bounce, piece);
    done += piece;
  }
  return 0;
}

int cma_write(pid_t pid, std::uint64_t remote_address, const void* local, std::size_t bytes) {
  if (bytes < kBounceMinBytes || placed_alike(remote_address, local)) {
    return write_direct(pid, remote_address, local, bytes);
  }
  const auto* src = static_cast<const std::byte*>(local);
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
