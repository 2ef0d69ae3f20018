// MPI process topologies: MPI_Dims_create, cartesian, graph and distributed graph communicators
// and their queries. The state lives in shim/topology.hpp. Reorder is accepted and ignored.
#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "collectives/collectives.hpp"
#include "shim/argument_checks.hpp"
#include "shim/call_guard.hpp"
#include "shim/shim_state.hpp"
#include "shim/topology.hpp"

using namespace halyard::mpi_shim;

namespace {

void check_pointer(const void* pointer, const char* name) {
  if (pointer == nullptr) fail(MPI_ERR_ARG, std::string(name) + " is NULL");
}

void check_rank_in(int rank, int size, const char* what) {
  if (rank < 0 || rank >= size) {
    fail(MPI_ERR_RANK, std::string("invalid ") + what + " " + std::to_string(rank) +
                           " (topology of " + std::to_string(size) + " ranks)");
  }
}

// The first `members` ranks of `entry`'s communicator in a new one with `topology`; the others
// get MPI_COMM_NULL. Collective over the old communicator.
MPI_Comm make_topology_comm(const CommEntry& entry, int members, Topology topology) {
  const int rank = entry.comm.rank();
  halyard::Communicator comm = entry.comm.split(rank < members ? 0 : -1, rank);
  if (!comm.valid()) return MPI_COMM_NULL;
  attach_topology(comm, std::move(topology));
  return shim_state().add_comm(std::move(comm), entry.errhandler);
}

std::vector<int> checked_dims(int ndims, const int dims[], const char* name) {
  if (ndims < 0) fail(MPI_ERR_DIMS, "invalid ndims " + std::to_string(ndims));
  if (ndims > 0) check_pointer(dims, name);
  return std::vector<int>(dims, dims + ndims);
}

long long product(const std::vector<int>& dims) {
  long long p = 1;
  for (int d : dims) p *= d;
  return p;
}

// The prime factors of n, largest first.
std::vector<int> prime_factors(int n) {
  std::vector<int> factors;
  for (int p = 2; static_cast<long long>(p) * p <= n; ++p) {
    while (n % p == 0) {
      factors.push_back(p);
      n /= p;
    }
  }
  if (n > 1) factors.push_back(n);
  std::reverse(factors.begin(), factors.end());
  return factors;
}

int weights_at(const int weights[], int i) {
  return weights == MPI_UNWEIGHTED || weights == MPI_WEIGHTS_EMPTY ? 1 : weights[i];
}

// The edges of one side of a distributed graph, checked: `degree` ranks of `size`.
std::vector<int> checked_edges(int degree, const int ranks[], int size, const char* name) {
  if (degree < 0)
    fail(MPI_ERR_ARG, "invalid " + std::string(name) + " degree " + std::to_string(degree));
  if (degree > 0) check_pointer(ranks, name);
  std::vector<int> edges(ranks, ranks + degree);
  for (int r : edges) check_rank_in(r, size, name);
  return edges;
}

// The topology of the communicator being made from distributed-graph arguments.
Topology dist_graph(std::vector<int> sources, std::vector<int> source_weights,
                    std::vector<int> destinations, std::vector<int> destination_weights,
                    bool weighted) {
  Topology topology;
  topology.kind = MPI_DIST_GRAPH;
  topology.sources = std::move(sources);
  topology.source_weights = std::move(source_weights);
  topology.destinations = std::move(destinations);
  topology.destination_weights = std::move(destination_weights);
  topology.weighted = weighted;
  return topology;
}

// Copies up to `max` values to `out` (MPI's "maxdims" / "maxindex" outputs).
void copy_out(const std::vector<int>& values, int max, int out[], const char* name) {
  if (max < 0) fail(MPI_ERR_ARG, "invalid max" + std::string(name) + " " + std::to_string(max));
  std::size_t n = std::min(values.size(), static_cast<std::size_t>(max));
  if (n > 0) check_pointer(out, name);
  std::copy_n(values.begin(), n, out);
}

}  // namespace

extern "C" {

int MPI_Dims_create(int nnodes, int ndims, int dims[]) {
  return guarded("MPI_Dims_create", MPI_COMM_WORLD, [&] {
    if (nnodes < 1) fail(MPI_ERR_ARG, "invalid nnodes " + std::to_string(nnodes));
    std::vector<int> given = checked_dims(ndims, dims, "dims");
    long long fixed = 1;
    std::vector<std::size_t> free_dims;
    for (std::size_t d = 0; d < given.size(); ++d) {
      if (given[d] < 0)
        fail(MPI_ERR_DIMS, "invalid dims[" + std::to_string(d) + "] " + std::to_string(given[d]));
      if (given[d] == 0)
        free_dims.push_back(d);
      else
        fixed *= given[d];
    }
    if (nnodes % fixed != 0 || (free_dims.empty() && fixed != nnodes)) {
      fail(MPI_ERR_DIMS, "the given dims (product " + std::to_string(fixed) +
                             ") do not divide nnodes " + std::to_string(nnodes));
    }
    if (free_dims.empty()) return;
    // Each prime, largest first, goes to the free dimension that is smallest so far; the
    // results are then written in non-increasing order, as MPI requires.
    std::vector<int> sizes(free_dims.size(), 1);
    for (int p : prime_factors(static_cast<int>(nnodes / fixed))) {
      *std::min_element(sizes.begin(), sizes.end()) *= p;
    }
    std::sort(sizes.begin(), sizes.end(), std::greater<>());
    for (std::size_t i = 0; i < free_dims.size(); ++i) dims[free_dims[i]] = sizes[i];
  });
}

int MPI_Cart_create(MPI_Comm comm_old, int ndims, const int dims[], const int periods[],
                    int reorder, MPI_Comm* comm_cart) {
  (void)reorder;
  return guarded("MPI_Cart_create", comm_old, [&] {
    const CommEntry& entry = shim_state().comm(comm_old);
    check_pointer(comm_cart, "comm_cart");
    Topology topology;
    topology.kind = MPI_CART;
    topology.dims = checked_dims(ndims, dims, "dims");
    if (ndims > 0) check_pointer(periods, "periods");
    for (int d = 0; d < ndims; ++d) {
      if (dims[d] <= 0)
        fail(MPI_ERR_DIMS, "invalid dims[" + std::to_string(d) + "] " + std::to_string(dims[d]));
      topology.periods.push_back(periods[d] != 0 ? 1 : 0);
    }
    long long members = product(topology.dims);
    if (members > entry.comm.size()) {
      fail(MPI_ERR_DIMS, "the grid has " + std::to_string(members) +
                             " ranks, more than the communicator's " +
                             std::to_string(entry.comm.size()));
    }
    *comm_cart = make_topology_comm(entry, static_cast<int>(members), std::move(topology));
  });
}

int MPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[]) {
  return guarded("MPI_Cart_coords", comm, [&] {
    const halyard::Communicator& c = shim_state().comm(comm).comm;
    const Topology& topology = checked_topology(c, MPI_CART);
    check_rank_in(rank, c.size(), "rank");
    if (maxdims < static_cast<int>(topology.dims.size())) {
      fail(MPI_ERR_ARG, "maxdims " + std::to_string(maxdims) + " is below ndims " +
                            std::to_string(topology.dims.size()));
    }
    copy_out(topology.coords_of(rank), maxdims, coords, "coords");
  });
}

int MPI_Cart_rank(MPI_Comm comm, const int coords[], int* rank) {
  return guarded("MPI_Cart_rank", comm, [&] {
    const Topology& topology = checked_topology(shim_state().comm(comm).comm, MPI_CART);
    check_pointer(rank, "rank");
    std::vector<int> at = checked_dims(static_cast<int>(topology.dims.size()), coords, "coords");
    *rank = topology.rank_at(at);
    if (*rank == MPI_PROC_NULL) fail(MPI_ERR_ARG, "coords outside a non-periodic dimension");
  });
}

int MPI_Cart_shift(MPI_Comm comm, int direction, int disp, int* rank_source, int* rank_dest) {
  return guarded("MPI_Cart_shift", comm, [&] {
    const halyard::Communicator& c = shim_state().comm(comm).comm;
    const Topology& topology = checked_topology(c, MPI_CART);
    check_pointer(rank_source, "rank_source");
    check_pointer(rank_dest, "rank_dest");
    if (direction < 0 || direction >= static_cast<int>(topology.dims.size())) {
      fail(MPI_ERR_ARG, "invalid direction " + std::to_string(direction) + " (ndims " +
                            std::to_string(topology.dims.size()) + ")");
    }
    std::vector<int> at = topology.coords_of(c.rank());
    const int here = at[static_cast<std::size_t>(direction)];
    at[static_cast<std::size_t>(direction)] = here + disp;
    *rank_dest = topology.rank_at(at);
    at[static_cast<std::size_t>(direction)] = here - disp;
    *rank_source = topology.rank_at(at);
  });
}

int MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm* newcomm) {
  return guarded("MPI_Cart_sub", comm, [&] {
    const CommEntry& entry = shim_state().comm(comm);
    const Topology& topology = checked_topology(entry.comm, MPI_CART);
    check_pointer(newcomm, "newcomm");
    const std::size_t ndims = topology.dims.size();
    if (ndims > 0) check_pointer(remain_dims, "remain_dims");
    // Ranks that agree on every dropped coordinate form one sub-grid, ordered as before.
    std::vector<int> coords = topology.coords_of(entry.comm.rank());
    Topology sub;
    sub.kind = MPI_CART;
    int color = 0;
    for (std::size_t d = 0; d < ndims; ++d) {
      if (remain_dims[d] != 0) {
        sub.dims.push_back(topology.dims[d]);
        sub.periods.push_back(topology.periods[d]);
      } else {
        color = color * topology.dims[d] + coords[d];
      }
    }
    halyard::Communicator split = entry.comm.split(color, entry.comm.rank());
    attach_topology(split, std::move(sub));
    *newcomm = shim_state().add_comm(std::move(split), entry.errhandler);
  });
}

int MPI_Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[]) {
  return guarded("MPI_Cart_get", comm, [&] {
    const halyard::Communicator& c = shim_state().comm(comm).comm;
    const Topology& topology = checked_topology(c, MPI_CART);
    copy_out(topology.dims, maxdims, dims, "dims");
    copy_out(topology.periods, maxdims, periods, "periods");
    copy_out(topology.coords_of(c.rank()), maxdims, coords, "coords");
  });
}

int MPI_Cartdim_get(MPI_Comm comm, int* ndims) {
  return guarded("MPI_Cartdim_get", comm, [&] {
    const Topology& topology = checked_topology(shim_state().comm(comm).comm, MPI_CART);
    check_pointer(ndims, "ndims");
    *ndims = static_cast<int>(topology.dims.size());
  });
}

int MPI_Graph_create(MPI_Comm comm_old, int nnodes, const int index[], const int edges[],
                     int reorder, MPI_Comm* comm_graph) {
  (void)reorder;
  return guarded("MPI_Graph_create", comm_old, [&] {
    const CommEntry& entry = shim_state().comm(comm_old);
    check_pointer(comm_graph, "comm_graph");
    if (nnodes < 0 || nnodes > entry.comm.size()) {
      fail(MPI_ERR_ARG, "invalid nnodes " + std::to_string(nnodes) + " (communicator size " +
                            std::to_string(entry.comm.size()) + ")");
    }
    Topology topology;
    topology.kind = MPI_GRAPH;
    if (nnodes > 0) check_pointer(index, "index");
    topology.index.assign(index, index + nnodes);
    int previous = 0;
    for (int end : topology.index) {
      if (end < previous) fail(MPI_ERR_ARG, "index is not non-decreasing from 0");
      previous = end;
    }
    if (previous > 0) check_pointer(edges, "edges");
    topology.edges.assign(edges, edges + previous);
    for (int e : topology.edges) check_rank_in(e, nnodes, "edge");
    *comm_graph = make_topology_comm(entry, nnodes, std::move(topology));
  });
}

int MPI_Graphdims_get(MPI_Comm comm, int* nnodes, int* nedges) {
  return guarded("MPI_Graphdims_get", comm, [&] {
    const Topology& topology = checked_topology(shim_state().comm(comm).comm, MPI_GRAPH);
    check_pointer(nnodes, "nnodes");
    check_pointer(nedges, "nedges");
    *nnodes = static_cast<int>(topology.index.size());
    *nedges = static_cast<int>(topology.edges.size());
  });
}

int MPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[]) {
  return guarded("MPI_Graph_get", comm, [&] {
    const Topology& topology = checked_topology(shim_state().comm(comm).comm, MPI_GRAPH);
    copy_out(topology.index, maxindex, index, "index");
    copy_out(topology.edges, maxedges, edges, "edges");
  });
}

int MPI_Graph_neighbors_count(MPI_Comm comm, int rank, int* nneighbors) {
  return guarded("MPI_Graph_neighbors_count", comm, [&] {
    const halyard::Communicator& c = shim_state().comm(comm).comm;
    const Topology& topology = checked_topology(c, MPI_GRAPH);
    check_rank_in(rank, c.size(), "rank");
    check_pointer(nneighbors, "nneighbors");
    *nneighbors = static_cast<int>(topology.graph_neighbors(rank).size());
  });
}

int MPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors, int neighbors[]) {
  return guarded("MPI_Graph_neighbors", comm, [&] {
    const halyard::Communicator& c = shim_state().comm(comm).comm;
    const Topology& topology = checked_topology(c, MPI_GRAPH);
    check_rank_in(rank, c.size(), "rank");
    copy_out(topology.graph_neighbors(rank), maxneighbors, neighbors, "neighbors");
  });
}

int MPI_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int sources[],
                                   const int sourceweights[], int outdegree,
                                   const int destinations[], const int destweights[], MPI_Info info,
                                   int reorder, MPI_Comm* comm_dist_graph) {
  (void)info, (void)reorder;
  return guarded("MPI_Dist_graph_create_adjacent", comm_old, [&] {
    const CommEntry& entry = shim_state().comm(comm_old);
    check_pointer(comm_dist_graph, "comm_dist_graph");
    const int size = entry.comm.size();
    std::vector<int> in = checked_edges(indegree, sources, size, "source");
    std::vector<int> out = checked_edges(outdegree, destinations, size, "destination");
    const bool weighted = sourceweights != MPI_UNWEIGHTED && destweights != MPI_UNWEIGHTED;
    if (weighted && indegree > 0) check_pointer(sourceweights, "sourceweights");
    if (weighted && outdegree > 0) check_pointer(destweights, "destweights");
    std::vector<int> in_weights;
    std::vector<int> out_weights;
    for (int i = 0; i < indegree; ++i) in_weights.push_back(weights_at(sourceweights, i));
    for (int i = 0; i < outdegree; ++i) out_weights.push_back(weights_at(destweights, i));
    halyard::Communicator dup = entry.comm.dup();
    attach_topology(dup, dist_graph(std::move(in), std::move(in_weights), std::move(out),
                                    std::move(out_weights), weighted));
    *comm_dist_graph = shim_state().add_comm(std::move(dup), entry.errhandler);
  });
}

int MPI_Dist_graph_create(MPI_Comm comm_old, int n, const int sources[], const int degrees[],
                          const int destinations[], const int weights[], MPI_Info info, int reorder,
                          MPI_Comm* comm_dist_graph) {
  (void)info, (void)reorder;
  return guarded("MPI_Dist_graph_create", comm_old, [&] {
    const CommEntry& entry = shim_state().comm(comm_old);
    check_pointer(comm_dist_graph, "comm_dist_graph");
    const int size = entry.comm.size();
    // This rank's edges as (source, destination, weight) triples.
    std::vector<int> mine;
    std::vector<int> sources_given = checked_edges(n, sources, size, "source");
    if (n > 0) check_pointer(degrees, "degrees");
    int edge = 0;
    for (int i = 0; i < n; ++i) {
      if (degrees[i] < 0) fail(MPI_ERR_ARG, "invalid degrees[" + std::to_string(i) + "]");
      std::vector<int> to = checked_edges(degrees[i], destinations + edge, size, "destination");
      for (int d : to) {
        mine.insert(mine.end(),
                    {sources_given[static_cast<std::size_t>(i)], d, weights_at(weights, edge)});
        ++edge;
      }
    }
    // Every rank learns every edge (two allgathers: the counts, then the triples padded to
    // the largest count) and keeps those that start or end at it, in the order given.
    const int count = static_cast<int>(mine.size());
    std::vector<int> counts(static_cast<std::size_t>(size));
    halyard::allgather(entry.comm, &count, counts.data(), 1, halyard::Datatype::kInt32);
    const std::size_t widest =
        static_cast<std::size_t>(*std::max_element(counts.begin(), counts.end()));
    mine.resize(widest);
    std::vector<int> all(widest * static_cast<std::size_t>(size));
    halyard::allgather(entry.comm, mine.data(), all.data(), widest, halyard::Datatype::kInt32);
    std::vector<int> in, in_weights, out, out_weights;
    const int me = entry.comm.rank();
    for (int r = 0; r < size; ++r) {
      const int* triples = all.data() + static_cast<std::size_t>(r) * widest;
      for (int t = 0; t + 2 < counts[static_cast<std::size_t>(r)]; t += 3) {
        if (triples[t] == me) out.push_back(triples[t + 1]), out_weights.push_back(triples[t + 2]);
        if (triples[t + 1] == me) in.push_back(triples[t]), in_weights.push_back(triples[t + 2]);
      }
    }
    halyard::Communicator dup = entry.comm.dup();
    attach_topology(dup, dist_graph(std::move(in), std::move(in_weights), std::move(out),
                                    std::move(out_weights), weights != MPI_UNWEIGHTED));
    *comm_dist_graph = shim_state().add_comm(std::move(dup), entry.errhandler);
  });
}

int MPI_Dist_graph_neighbors_count(MPI_Comm comm, int* indegree, int* outdegree, int* weighted) {
  return guarded("MPI_Dist_graph_neighbors_count", comm, [&] {
    const Topology& topology = checked_topology(shim_state().comm(comm).comm, MPI_DIST_GRAPH);
    check_pointer(indegree, "indegree");
    check_pointer(outdegree, "outdegree");
    check_pointer(weighted, "weighted");
    *indegree = static_cast<int>(topology.sources.size());
    *outdegree = static_cast<int>(topology.destinations.size());
    *weighted = topology.weighted ? 1 : 0;
  });
}

int MPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree, int sources[], int sourceweights[],
                             int maxoutdegree, int destinations[], int destweights[]) {
  return guarded("MPI_Dist_graph_neighbors", comm, [&] {
    const Topology& topology = checked_topology(shim_state().comm(comm).comm, MPI_DIST_GRAPH);
    copy_out(topology.sources, maxindegree, sources, "sources");
    copy_out(topology.destinations, maxoutdegree, destinations, "destinations");
    if (topology.weighted && sourceweights != MPI_UNWEIGHTED) {
      copy_out(topology.source_weights, maxindegree, sourceweights, "sourceweights");
    }
    if (topology.weighted && destweights != MPI_UNWEIGHTED) {
      copy_out(topology.destination_weights, maxoutdegree, destweights, "destweights");
    }
  });
}

int MPI_Topo_test(MPI_Comm comm, int* status) {
  return guarded("MPI_Topo_test", comm, [&] {
    const Topology* topology = topology_of(shim_state().comm(comm).comm);
    check_pointer(status, "status");
    *status = topology != nullptr ? topology->kind : MPI_UNDEFINED;
  });
}

}  // extern "C"
