// CommShape: what the built-in rules know of a communicator besides its size: how its members
// spread over nodes, which decides whether HAN's two levels exist, and whether the ranks of the
// host share CPUs, which changes which one-node algorithm wins above 16 KiB.
#pragma once

#include "runtime/communicator.hpp"

namespace halyard::core {

struct CommShape {
  int size = 1;
  int nodes = 1;               // distinct nodes among the members
  int max_ranks_per_node = 1;  // the most members on one node
  // The host's ranks outnumber the CPUs they may use (EventLoop::cpu_shared): the same on every
  // member of a one-node communicator, so their choices agree.
  bool cpus_shared = false;

  // All members on one node (what a bare communicator size implies).
  static CommShape single_node(int comm_size, bool cpus_shared = false) {
    return {comm_size, 1, comm_size, cpus_shared};
  }
  // More than one node and more than one rank on some node: a two-level hierarchy exists.
  bool hierarchical() const { return nodes > 1 && max_ranks_per_node > 1; }

  friend bool operator==(const CommShape&, const CommShape&) = default;
};

// The shape of `comm`, from the node counts the communicator keeps.
CommShape shape_of(const Communicator& comm);

}  // namespace halyard::core
