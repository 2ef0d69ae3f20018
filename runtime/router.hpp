// Router: which transport carries the traffic to each world peer.
//
// Rules (DESIGN.md, "Transports"): oneself -> self; a peer with the same node_id -> shm when
// this build has it and HALYARD_SHM is not 0, else ofi; a peer on another node -> ofi. The
// rules depend only on the topology table and the job-wide environment, so both ends of every
// pair pick the same transport. The router builds shm and ofi from the TransportRegistry
// (transport_registry.hpp): it names no transport of the layer above.
#pragma once

#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "runtime/bootstrap/topology.hpp"
#include "runtime/transport.hpp"
#include "runtime/transport_registry.hpp"

namespace halyard {

// The transport kind for each world rank, as seen from `my_rank`.
std::vector<TransportKind> plan_routes(int my_rank, const TopologyTable& topology, bool use_shm);

// Whether HALYARD_SHM (default 1) allows the shm transport.
bool shm_enabled();

class Router {
 public:
  Router(int world_rank, int world_size);

  // Builds the transports the job needs per plan_routes(): self, shm on every rank when
  // enabled and registered (its wiring is job-wide), ofi when some peer needs it. Throws
  // Error(kUnsupported) when a peer needs a transport `transports` does not have.
  static std::unique_ptr<Router> for_job(
      const TransportSettings& settings, const TopologyTable& topology,
      const TransportRegistry& transports = TransportRegistry::builtin());

  // Takes ownership; returns the transport for set_route().
  Transport& add(std::unique_ptr<Transport> transport);
  void set_route(int world_peer, Transport& transport);

  // The transport for `world_peer`; throws Error(kInvalidArgument) for a rank outside the job.
  // Inline: every message asks.
  Transport& route(int world_peer) const {
    if (world_peer < 0 || world_peer >= world_size() ||
        routes_[static_cast<std::size_t>(world_peer)] == nullptr) [[unlikely]]
      no_route(world_peer);
    return *routes_[static_cast<std::size_t>(world_peer)];
  }

  std::span<const std::unique_ptr<Transport>> transports() const { return transports_; }
  int world_rank() const noexcept { return world_rank_; }
  int world_size() const noexcept { return static_cast<int>(routes_.size()); }

  // Destroys every transport (finalize).
  void clear();

 private:
  [[noreturn]] void no_route(int world_peer) const;

  int world_rank_;
  std::vector<std::unique_ptr<Transport>> transports_;
  std::vector<Transport*> routes_;
};

}  // namespace halyard
