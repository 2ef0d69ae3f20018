// libfabric, loaded when the first ofi transport needs it rather than when a process starts.
//
// Why not link it: Debian's libfabric links the psm providers, and libinfinipath's constructor
// calibrates a clock with usleep() loops on every CPU, 0.2 s at the start of every process that
// links the library (hlaunch and each rank, also in single-node jobs that never touch ofi).
// Only the functions libfabric exports are resolved here; everything else in its API is an
// inline wrapper over the objects these return.
//
// HALYARD_LIBFABRIC names the library to load (default "libfabric.so.1", found like any shared
// library), for a cluster whose libfabric lives elsewhere.
#pragma once

#include <rdma/fabric.h>

#include <cstdint>

namespace halyard::ofi {

// The libfabric API version every fi_getinfo of Halyard asks for.
inline constexpr std::uint32_t kLibfabricApiVersion = FI_VERSION(1, 17);

struct LibfabricLibrary {
  decltype(&::fi_getinfo) getinfo;
  decltype(&::fi_freeinfo) freeinfo;
  decltype(&::fi_dupinfo) dupinfo;
  decltype(&::fi_fabric) fabric;
  decltype(&::fi_strerror) strerror;
  decltype(&::fi_version) version;
};

// Loads the library on first use (thread-safe); throws Error(kUnsupported) naming the library
// and the loader's reason when it cannot be loaded or lacks a function.
const LibfabricLibrary& libfabric();

}  // namespace halyard::ofi
