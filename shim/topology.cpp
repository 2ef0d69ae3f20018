#include "shim/topology.hpp"

#include <memory>

#include "shim/mpi_error.hpp"

// The objects whose addresses are MPI_UNWEIGHTED and MPI_WEIGHTS_EMPTY.
extern "C" {
int MPI_Halyard_unweighted[1];
int MPI_Halyard_weights_empty[1];
}

namespace halyard::mpi_shim {

namespace {

// The -1 neighbour's block comes in on the lane of messages that travel up the dimension, the
// +1 neighbour's on the lane of those that travel down; sends mirror it.
int lane_up(std::size_t dimension) {
  return static_cast<int>(2 * dimension);
}
int lane_down(std::size_t dimension) {
  return static_cast<int>(2 * dimension + 1);
}

std::vector<Neighbor> one_lane(const std::vector<int>& ranks) {
  std::vector<Neighbor> neighbors;
  neighbors.reserve(ranks.size());
  for (int rank : ranks) neighbors.push_back({rank, 0});
  return neighbors;
}

const char* kind_name(int kind) {
  switch (kind) {
    case MPI_CART:
      return "a cartesian";
    case MPI_GRAPH:
      return "a graph";
    case MPI_DIST_GRAPH:
      return "a distributed graph";
  }
  return "a";
}

}  // namespace

std::vector<int> Topology::coords_of(int rank) const {
  std::vector<int> coords(dims.size());
  for (std::size_t d = dims.size(); d-- > 0;) {
    coords[d] = rank % dims[d];
    rank /= dims[d];
  }
  return coords;
}

int Topology::rank_at(std::vector<int> coords) const {
  int rank = 0;
  for (std::size_t d = 0; d < dims.size(); ++d) {
    int c = coords[d];
    if (periods[d] != 0) {
      c = ((c % dims[d]) + dims[d]) % dims[d];
    } else if (c < 0 || c >= dims[d]) {
      return MPI_PROC_NULL;
    }
    rank = rank * dims[d] + c;
  }
  return rank;
}

std::vector<int> Topology::graph_neighbors(int rank) const {
  int begin = rank == 0 ? 0 : index[static_cast<std::size_t>(rank) - 1];
  int end = index[static_cast<std::size_t>(rank)];
  return {edges.begin() + begin, edges.begin() + end};
}

std::vector<Neighbor> Topology::in_neighbors(int rank) const {
  if (kind == MPI_GRAPH) return one_lane(graph_neighbors(rank));
  if (kind == MPI_DIST_GRAPH) return one_lane(sources);
  std::vector<Neighbor> neighbors;
  const std::vector<int> here = coords_of(rank);
  for (std::size_t d = 0; d < dims.size(); ++d) {
    std::vector<int> at = here;
    at[d] = here[d] - 1;
    neighbors.push_back({rank_at(at), lane_up(d)});
    at[d] = here[d] + 1;
    neighbors.push_back({rank_at(at), lane_down(d)});
  }
  return neighbors;
}

std::vector<Neighbor> Topology::out_neighbors(int rank) const {
  if (kind == MPI_GRAPH) return one_lane(graph_neighbors(rank));
  if (kind == MPI_DIST_GRAPH) return one_lane(destinations);
  std::vector<Neighbor> neighbors = in_neighbors(rank);
  for (std::size_t d = 0; d < dims.size(); ++d) {
    neighbors[2 * d].lane = lane_down(d);    // to the -1 neighbour: travels down
    neighbors[2 * d + 1].lane = lane_up(d);  // to the +1 neighbour: travels up
  }
  return neighbors;
}

int Topology::lanes() const {
  return kind == MPI_CART ? static_cast<int>(2 * dims.size()) : 1;
}

const Topology* topology_of(const Communicator& comm) {
  return comm.peek_attachment<Topology>();
}

const Topology& checked_topology(const Communicator& comm, int kind) {
  const Topology* topology = topology_of(comm);
  if (topology == nullptr) fail(MPI_ERR_TOPOLOGY, "communicator has no process topology");
  if (kind != MPI_UNDEFINED && topology->kind != kind) {
    fail(MPI_ERR_TOPOLOGY,
         std::string("communicator does not have ") + kind_name(kind) + " topology");
  }
  return *topology;
}

void attach_topology(const Communicator& comm, Topology topology) {
  comm.attach(std::make_shared<Topology>(std::move(topology)));
}

void inherit_topology(const Communicator& from, const Communicator& to) {
  if (const Topology* topology = topology_of(from)) attach_topology(to, *topology);
}

}  // namespace halyard::mpi_shim
