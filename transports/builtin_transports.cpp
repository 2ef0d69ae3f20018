// The transports of this build, for the runtime's TransportRegistry
// (runtime/transport_registry.hpp). Each transport registers itself through its own register_*
// function; this list is the one place that names them, and CMake compiles cuda_ipc's in only
// when the CUDA transport is built (HALYARD_WITH_CUDA_IPC). An ordinary function the runtime
// calls, so a static libhalyard registers the same transports as a shared one.
#include "runtime/transport_registry.hpp"
#include "transports/ofi/ofi_transport.hpp"
#include "transports/shm/shm_transport.hpp"
#ifdef HALYARD_WITH_CUDA_IPC
#include "transports/cuda_ipc/cuda_device_support.hpp"
#endif

namespace halyard {

void register_builtin_transports(TransportRegistry& registry) {
  register_shm_transport(registry);
  register_ofi_transport(registry);
#ifdef HALYARD_WITH_CUDA_IPC
  cuda_ipc::register_cuda_ipc(registry);
#endif
}

}  // namespace halyard
