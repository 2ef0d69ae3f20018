// Process topologies of the MPI shim: what MPI_Cart_create, MPI_Graph_create and
// MPI_Dist_graph_create(_adjacent) attach to the communicator they make (the runtime's typed
// per-communicator attachment, so it goes with the communicator; MPI_Comm_dup copies it), and
// the neighbour lists the neighborhood collectives run on. Reorder is ignored: ranks keep their
// order in the old communicator.
#pragma once

#include <mpi.h>

#include <vector>

#include "runtime/communicator.hpp"

namespace halyard::mpi_shim {

// One neighbour of a neighborhood collective: the rank (MPI_PROC_NULL at a non-periodic edge)
// and the engine lane its messages take (collectives/neighbor/neighbor_exchange.hpp).
struct Neighbor {
  int rank;
  int lane;
};

struct Topology {
  int kind = MPI_UNDEFINED;  // MPI_CART, MPI_GRAPH or MPI_DIST_GRAPH
  // MPI_CART
  std::vector<int> dims;
  std::vector<int> periods;  // 0 or 1 per dimension
  // MPI_GRAPH: MPI_Graph_create's index and edges, for every rank
  std::vector<int> index;
  std::vector<int> edges;
  // MPI_DIST_GRAPH: this rank's edges
  std::vector<int> sources;
  std::vector<int> source_weights;
  std::vector<int> destinations;
  std::vector<int> destination_weights;
  bool weighted = false;

  // The coordinates of `rank` in a cartesian topology (row-major: the last dimension varies
  // fastest).
  std::vector<int> coords_of(int rank) const;
  // The rank at `coords` with periodic dimensions wrapped; MPI_PROC_NULL when a coordinate of
  // a non-periodic dimension is outside it.
  int rank_at(std::vector<int> coords) const;
  // A graph rank's neighbours (MPI_Graph_neighbors).
  std::vector<int> graph_neighbors(int rank) const;

  // Whose blocks a neighborhood collective receives, in block order, and whom it sends to:
  // cart: per dimension the -1 then the +1 neighbour; graph: the neighbours both ways;
  // dist graph: sources, destinations.
  std::vector<Neighbor> in_neighbors(int rank) const;
  std::vector<Neighbor> out_neighbors(int rank) const;
  // How many engine lanes the neighbour lists use (2 per dimension of a cart, else 1).
  int lanes() const;
};

// The topology of `comm`, or null.
const Topology* topology_of(const Communicator& comm);
// The topology of `comm` when it is of `kind` (MPI_UNDEFINED: any kind); else MPI_ERR_TOPOLOGY.
const Topology& checked_topology(const Communicator& comm, int kind);
// Attaches `topology` to a communicator just made.
void attach_topology(const Communicator& comm, Topology topology);
// MPI_Comm_dup: the copy keeps the topology.
void inherit_topology(const Communicator& from, const Communicator& to);

}  // namespace halyard::mpi_shim
