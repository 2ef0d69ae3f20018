// Cross-Memory Attach: copying straight out of (or into) another process's memory
// (process_vm_readv / process_vm_writev): the single copy of the shm transport's rendezvous, of
// the intra-node collectives and of one-sided operations on windows in another process's
// memory (rma/). In the runtime so that every layer above shares one copy that places its
// bounce buffer for speed (cma_copy.cpp).
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>

namespace halyard {

// Copies `bytes` from `remote_address` in process `pid` to `local`. Returns 0 on success,
// else the errno of the failing call.
int cma_read(pid_t pid, std::uint64_t remote_address, void* local, std::size_t bytes);
// The other direction (process_vm_writev): copies `bytes` from `local` to `remote_address` in
// process `pid`. Returns 0 on success, else the errno of the failing call.
int cma_write(pid_t pid, std::uint64_t remote_address, const void* local, std::size_t bytes);

// True for the errors that mean "this kernel or policy does not let us use CMA here" (as
// opposed to a bad address): the transport then falls back to the staged copy.
bool cma_refused(int error_number);

}  // namespace halyard
