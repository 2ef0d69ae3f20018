// TransportRegistry: how the runtime builds the transports it does not own.
//
// The runtime sits below the transports (layers import only downward), so it names none of
// them: each transport (transports/ofi, transports/shm, transports/cuda_ipc) registers its
// factory here, and the Router and the Runtime build what the job needs from the registry. The
// transports layer fills the builtin registry in one function, register_builtin_transports()
// (transports/builtin_transports.cpp, part of libhalyard), which the registry calls the first
// time it is asked: an ordinary call that the linker must resolve, so registration never
// depends on static initializers that a static link could leave out.
//
// A factory receives what the runtime decided (TransportSettings), never the loop's environment
// variables: the event loop's wait policy and whether a progress thread runs are the runtime's
// to choose (RuntimeParts), and a transport that reads them itself could disagree.
#pragma once

#include <array>
#include <cstddef>
#include <memory>
#include <string_view>

#include "runtime/bootstrap/launch_info.hpp"
#include "runtime/event_loop.hpp"
#include "runtime/transport.hpp"

namespace halyard {

class DeviceSupport;

enum class TransportKind { kSelf, kShm, kOfi };

std::string_view transport_kind_name(TransportKind kind);

// What a transport factory is given.
struct TransportSettings {
  LaunchInfo info;
  int host_ranks = 1;  // ranks of the job on this machine
  long host_cpus = 0;  // the CPUs they may run on; 0: the machine's online CPUs
  WaitPolicy wait_policy = WaitPolicy::kBlock;  // the event loop's
  bool progress_thread = false;                 // a progress thread drives the loop
};

class TransportRegistry {
 public:
  using MakeTransport = std::unique_ptr<Transport> (*)(const TransportSettings& settings);
  // Touches no GPU: CUDA starts on the first device buffer a collective sees. The result may
  // also be a CompletionSource, which the Runtime adds to the loop.
  using MakeDeviceSupport = std::unique_ptr<DeviceSupport> (*)(EventLoop& loop);

  // The self transport belongs to the runtime and is not registered. A second registration of a
  // kind replaces the first.
  void add(TransportKind kind, MakeTransport factory);
  void add_device_support(MakeDeviceSupport factory);

  bool has(TransportKind kind) const;
  // Throws Error(kUnsupported) naming the kind when this build registered none.
  std::unique_ptr<Transport> make(TransportKind kind, const TransportSettings& settings) const;
  // Null when no transport offers device support (a build without CUDA).
  std::unique_ptr<DeviceSupport> make_device_support(EventLoop& loop) const;

  // This build's transports (register_builtin_transports), registered on first use.
  static const TransportRegistry& builtin();

 private:
  std::array<MakeTransport, 3> transports_{};  // by TransportKind
  MakeDeviceSupport device_support_ = nullptr;
};

// Defined by the transports layer (transports/builtin_transports.cpp): registers every
// transport this build has.
void register_builtin_transports(TransportRegistry& registry);

}  // namespace halyard
