#include "runtime/router.hpp"

#include <algorithm>
#include <string>

#include "runtime/self_transport.hpp"
#include "runtime/support/config.hpp"
#include "runtime/support/error.hpp"
#include "runtime/support/log.hpp"

namespace halyard {

std::vector<TransportKind> plan_routes(int my_rank, const TopologyTable& topology, bool use_shm) {
  std::vector<TransportKind> plan(static_cast<std::size_t>(topology.size()), TransportKind::kOfi);
  for (int peer = 0; peer < topology.size(); ++peer) {
    auto& kind = plan[static_cast<std::size_t>(peer)];
    if (peer == my_rank)
      kind = TransportKind::kSelf;
    else if (use_shm && topology.same_node(my_rank, peer))
      kind = TransportKind::kShm;
  }
  return plan;
}

bool shm_enabled() {
  return config::env_int("HALYARD_SHM", 1) != 0;
}

Router::Router(int world_rank, int world_size)
    : world_rank_(world_rank), routes_(static_cast<std::size_t>(world_size), nullptr) {
  if (world_size <= 0 || world_rank < 0 || world_rank >= world_size) {
    throw Error(ErrorCode::kInvalidArgument, "Router: world_rank " + std::to_string(world_rank) +
                                                 " is not a rank of a job of " +
                                                 std::to_string(world_size));
  }
}

std::unique_ptr<Router> Router::for_job(const TransportSettings& settings,
                                        const TopologyTable& topology,
                                        const TransportRegistry& transports) {
  const LaunchInfo& info = settings.info;
  if (topology.size() != info.size) {
    throw Error(ErrorCode::kInternal, "topology table has " + std::to_string(topology.size()) +
                                          " rows for a job of " + std::to_string(info.size));
  }
  auto router = std::make_unique<Router>(info.rank, info.size);
  const bool use_shm = shm_enabled() && transports.has(TransportKind::kShm);
  std::vector<TransportKind> plan = plan_routes(info.rank, topology, use_shm);
  for (TransportKind kind : {TransportKind::kSelf, TransportKind::kShm, TransportKind::kOfi}) {
    // shm takes part in the job-wide wiring on every rank (its segment is set up
    // collectively), even on a rank alone on its node; the others only where a peer needs them.
    bool needed = std::find(plan.begin(), plan.end(), kind) != plan.end() ||
                  (kind == TransportKind::kShm && use_shm);
    if (!needed) continue;
    Transport& t =
        router->add(kind == TransportKind::kSelf ? std::make_unique<SelfTransport>(info.rank)
                                                 : transports.make(kind, settings));
    for (int peer = 0; peer < info.size; ++peer) {
      if (plan[static_cast<std::size_t>(peer)] == kind) router->set_route(peer, t);
    }
    log::debug("router: {} carries {} peer(s)", t.name(),
               std::count(plan.begin(), plan.end(), kind));
  }
  return router;
}

Transport& Router::add(std::unique_ptr<Transport> transport) {
  if (!transport) throw Error(ErrorCode::kInvalidArgument, "Router::add: transport is null");
  transports_.push_back(std::move(transport));
  return *transports_.back();
}

void Router::set_route(int world_peer, Transport& transport) {
  if (world_peer < 0 || world_peer >= world_size()) {
    throw Error(ErrorCode::kInvalidArgument,
                "Router::set_route: world_peer " + std::to_string(world_peer) + " out of range");
  }
  routes_[static_cast<std::size_t>(world_peer)] = &transport;
}

void Router::no_route(int world_peer) const {
  if (world_peer < 0 || world_peer >= world_size()) {
    throw Error(ErrorCode::kInvalidArgument,
                "Router::route: world_peer " + std::to_string(world_peer) + " out of range");
  }
  throw Error(ErrorCode::kInternal,
              "no transport routes to world rank " + std::to_string(world_peer));
}

void Router::clear() {
  std::fill(routes_.begin(), routes_.end(), nullptr);
  transports_.clear();
}

}  // namespace halyard
