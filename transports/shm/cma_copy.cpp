#include "transports/shm/cma_copy.hpp"

#include <sys/uio.h>

#include <cerrno>

namespace halyard::shm {

int cma_read(pid_t pid, std::uint64_t remote_address, void* local, std::size_t bytes) {
  auto* dst = static_cast<char*>(local);
  // One iovec each side, so IOV_MAX never binds; the kernel may still return short counts for
  // huge requests (it caps one call near 2 GiB), hence the loop.
  while (bytes > 0) {
    iovec to{dst, bytes};
    iovec from{reinterpret_cast<void*>(static_cast<std::uintptr_t>(remote_address)), bytes};
    ssize_t n = ::process_vm_readv(pid, &to, 1, &from, 1, 0);
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    if (n == 0) return EFAULT;  // no progress: treat as an unreadable range, never spin
    dst += n;
    remote_address += static_cast<std::uint64_t>(n);
    bytes -= static_cast<std::size_t>(n);
  }
  return 0;
}

bool cma_refused(int error_number) {
  // EPERM: ptrace access denied (Yama ptrace_scope, other user, non-dumpable); ESRCH: the pid is
  // not visible (another pid namespace); ENOSYS: kernel without CMA or a seccomp filter.
  return error_number == EPERM || error_number == ESRCH || error_number == ENOSYS ||
         error_number == EACCES;
}

}  // namespace halyard::shm
