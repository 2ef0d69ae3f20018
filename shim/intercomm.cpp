#include "shim/intercomm.hpp"

#include <algorithm>
#include <atomic>
#include <memory>
#include <utility>

#include "collectives/core/collective_tag.hpp"
#include "runtime/event_loop.hpp"
#include "shim/argument_checks.hpp"
#include "shim/collective_starts.hpp"
#include "shim/mpi_error.hpp"
#include "shim/shim_state.hpp"

namespace halyard::mpi_shim {

namespace {

// Whether the process ever made an intercommunicator: until it does, every collective's question
// "is this an intercommunicator?" is answered without a look-up (a miss scans the
// communicator's attachments: some 80 instructions on every call).
std::atomic<bool> any_intercomm{false};

}  // namespace

const Intercomm* intercomm_of(const Communicator& comm) {
  if (!any_intercomm.load(std::memory_order_relaxed)) return nullptr;
  return comm.peek_attachment<Intercomm>();
}

const Communicator& local_group_of(const Communicator& comm) {
  const Intercomm* inter = intercomm_of(comm);
  return inter != nullptr ? inter->local : comm;
}

void refuse_intercomm(const Communicator& comm, const char* call) {
  if (intercomm_of(comm) != nullptr) {
    fail(MPI_ERR_COMM, std::string(call) + " is not defined on an intercommunicator");
  }
}

const Intercomm& checked_intercomm(const Communicator& comm) {
  const Intercomm* inter = intercomm_of(comm);
  if (inter == nullptr) fail(MPI_ERR_COMM, "the communicator is not an intercommunicator");
  return *inter;
}

Communicator make_intercomm(Communicator local, std::vector<int> remote_world) {
  // Every process is in MPI_COMM_WORLD (the shim has no dynamic processes), so the bridge is a
  // subset of it: the remote group first, then the local one, each side in its own order.
  const Communicator& world = shim_state().comm(MPI_COMM_WORLD).comm;
  std::vector<int> members = remote_world;
  for (int rank = 0; rank < local.size(); ++rank) members.push_back(local.world_rank(rank));
  Communicator bridge = world.subset(members);
  any_intercomm.store(true, std::memory_order_relaxed);
  bridge.attach(std::make_shared<Intercomm>(Intercomm{std::move(local), std::move(remote_world)}));
  return bridge;
}

Started nothing_posted(const Communicator& comm) {
  return {Request::make_completed(comm.loop(), {})};
}

int next_intercomm_tag(const Communicator& bridge) {
  EventLoop::Access access(bridge.loop());  // the call counter is the loop's state
  return next_collective_tag(bridge);
}

Started leaders_swap(const Communicator& bridge, const Communicator& local, int tag,
                     const void* send, std::size_t send_bytes, void* receive,
                     std::size_t receive_bytes) {
  if (local.rank() != 0) return nothing_posted(bridge);
  Request both[] = {bridge.irecv_internal(0, tag, receive, receive_bytes),
                    bridge.isend_internal(0, tag, send, send_bytes)};
  return {when_all(bridge.loop(), both)};
}

void swap_between_leaders(const Communicator& bridge, const void* send, std::size_t send_bytes,
                          void* receive, std::size_t receive_bytes) {
  const Intercomm& inter = checked_intercomm(bridge);
  int tag = next_intercomm_tag(bridge);
  wait_for(leaders_swap(bridge, inter.local, tag, send, send_bytes, receive, receive_bytes));
  wait_for(start_bcast(inter.local, receive, static_cast<int>(receive_bytes), MPI_BYTE, 0));
}

namespace {

// The world ranks of the members whose (color, key) pair is `color`, ordered by (key, rank).
std::vector<int> members_of_color(const std::vector<int>& pairs, const std::vector<int>& world,
                                  int color) {
  std::vector<std::pair<int, int>> chosen;  // (key, rank)
  for (std::size_t rank = 0; rank < world.size(); ++rank) {
    if (pairs[2 * rank] == color) chosen.emplace_back(pairs[2 * rank + 1], static_cast<int>(rank));
  }
  std::sort(chosen.begin(), chosen.end());
  std::vector<int> members;
  for (const auto& [key, rank] : chosen) members.push_back(world[static_cast<std::size_t>(rank)]);
  return members;
}

}  // namespace

Communicator split_intercomm(const Communicator& bridge, int color, int key) {
  const Intercomm& inter = checked_intercomm(bridge);
  int mine[2] = {color, key};
  std::vector<int> local_pairs(2 * static_cast<std::size_t>(inter.local.size()));
  wait_for(start_allgather(inter.local, mine, 2, MPI_INT, local_pairs.data(), 2, MPI_INT));
  std::vector<int> remote_pairs(2 * inter.remote_world.size());
  swap_between_leaders(bridge, local_pairs.data(), local_pairs.size() * sizeof(int),
                       remote_pairs.data(), remote_pairs.size() * sizeof(int));
  // Collective over the whole local group, whatever the colors.
  Communicator local = inter.local.split(color, key);
  if (color < 0) return {};
  std::vector<int> remote = members_of_color(remote_pairs, inter.remote_world, color);
  if (remote.empty()) return {};
  return make_intercomm(std::move(local), std::move(remote));
}

}  // namespace halyard::mpi_shim
