// MPI graph and distributed graph topologies: MPI_Graph_* and MPI_Dist_graph_*. The state
// lives in shim/topology.hpp. Reorder and info are accepted and ignored.
#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include "collectives/collectives.hpp"
#include "shim/call_guard.hpp"
#include "shim/intercomm.hpp"
#include "shim/shim_state.hpp"
#include "shim/topology.hpp"
#include "shim/topology_checks.hpp"

using namespace halyard::mpi_shim;

namespace {

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
}  // namespace

extern "C" {

int MPI_Graph_create(MPI_Comm comm_old, int nnodes, const int index[], const int edges[],
                     int reorder, MPI_Comm* comm_graph) {
  (void)reorder;
  return guarded("MPI_Graph_create", comm_old, [&] {
    const CommEntry& entry = shim_state().comm(comm_old);
    refuse_intercomm(entry.comm, "MPI_Graph_create");
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
    refuse_intercomm(entry.comm, "MPI_Dist_graph_create_adjacent");
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
    refuse_intercomm(entry.comm, "MPI_Dist_graph_create");
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

}  // extern "C"
