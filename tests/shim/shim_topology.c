/* Process topologies and neighborhood collectives:
 * - MPI_Dims_create for several sizes, with and without fixed dimensions, and MPI_ERR_DIMS;
 * - cartesian grids: coords, rank, shift (periodic and not), sub, get, dim, dup, MPI_Topo_test;
 *   a grid smaller than the communicator (the rest get MPI_COMM_NULL);
 * - graphs and distributed graphs (adjacent, and built from edges given by any rank): every
 *   query;
 * - MPI_Neighbor_allgather(v) / alltoall(v, w) and their I-forms on each kind, element by
 *   element: block i must hold what neighbour i sent to this rank, and blocks of MPI_PROC_NULL
 *   neighbours must be left untouched. A periodic dimension of size 1 or 2 makes a rank its
 *   own neighbour or the same neighbour twice, which must still land each block right.
 *
 *   shim_topology
 */
#include <mpi.h>
#include <string.h>

#include "shim_check.h"

enum { K = 3, MAXN = 16, UNTOUCHED = -7 };

static int rank, size;

static void check_dims_create(void) {
  struct {
    int nnodes, ndims, given[3], want[3];
  } cases[] = {
      {6, 2, {0, 0}, {3, 2}},        {12, 2, {0, 0}, {4, 3}},      {16, 3, {0, 0, 0}, {4, 2, 2}},
      {7, 2, {0, 0}, {7, 1}},        {1, 3, {0, 0, 0}, {1, 1, 1}}, {24, 3, {0, 0, 0}, {4, 3, 2}},
      {12, 3, {0, 3, 0}, {2, 3, 2}}, {8, 2, {2, 4}, {2, 4}},       {36, 2, {0, 0}, {6, 6}},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
    int dims[3];
    memcpy(dims, cases[c].given, sizeof dims);
    CHECK_MPI(MPI_Dims_create(cases[c].nnodes, cases[c].ndims, dims));
    CHECK_ARRAY("dims_create", dims, cases[c].want, cases[c].ndims);
  }
  int bad[2] = {5, 0};
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  CHECK(MPI_Dims_create(12, 2, bad) == MPI_ERR_DIMS);
  int dims[2] = {0, 0}, source, dest;
  CHECK(MPI_Cart_shift(MPI_COMM_WORLD, 0, 1, &source, &dest) == MPI_ERR_TOPOLOGY);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  CHECK_MPI(MPI_Dims_create(size, 2, dims));
  CHECK(dims[0] * dims[1] == size && dims[0] >= dims[1]);
  int status = 0;
  CHECK_MPI(MPI_Topo_test(MPI_COMM_WORLD, &status));
  CHECK(status == MPI_UNDEFINED);
}

/* Every neighborhood collective on `comm`, whose in- and out-neighbours are given. */
static void check_neighbor_collectives(MPI_Comm comm, int in_count, const int* in_ranks,
                                       const int* in_slot_at_sender, int out_count,
                                       const int* out_ranks) {
  int me;
  MPI_Comm_rank(comm, &me);
  (void)out_ranks;
  /* allgather: K ints, me * 100 + k. */
  int mine[K], got[MAXN * K], want[MAXN * K];
  for (int k = 0; k < K; ++k) mine[k] = me * 100 + k;
  for (int i = 0; i < in_count; ++i) {
    for (int k = 0; k < K; ++k) {
      want[i * K + k] = in_ranks[i] == MPI_PROC_NULL ? UNTOUCHED : in_ranks[i] * 100 + k;
    }
  }
  for (int i = 0; i < MAXN * K; ++i) got[i] = UNTOUCHED;
  CHECK_MPI(MPI_Neighbor_allgather(mine, K, MPI_INT, got, K, MPI_INT, comm));
  CHECK_ARRAY("neighbor_allgather", got, want, in_count * K);

  /* alltoall: block j for out-neighbour j holds me * 1000 + j * 10 + k. */
  int send[MAXN * K];
  for (int j = 0; j < out_count; ++j) {
    for (int k = 0; k < K; ++k) send[j * K + k] = me * 1000 + j * 10 + k;
  }
  for (int i = 0; i < in_count; ++i) {
    for (int k = 0; k < K; ++k) {
      want[i * K + k] = in_ranks[i] == MPI_PROC_NULL
                            ? UNTOUCHED
                            : in_ranks[i] * 1000 + in_slot_at_sender[i] * 10 + k;
    }
  }
  for (int i = 0; i < MAXN * K; ++i) got[i] = UNTOUCHED;
  CHECK_MPI(MPI_Neighbor_alltoall(send, K, MPI_INT, got, K, MPI_INT, comm));
  CHECK_ARRAY("neighbor_alltoall", got, want, in_count * K);

  MPI_Request request;
  for (int i = 0; i < MAXN * K; ++i) got[i] = UNTOUCHED;
  CHECK_MPI(MPI_Ineighbor_alltoall(send, K, MPI_INT, got, K, MPI_INT, comm, &request));
  CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
  CHECK_ARRAY("ineighbor_alltoall", got, want, in_count * K);

  /* alltoallv / alltoallw: the same blocks, received in reverse order, K ints each, as bytes
   * on the receive side of the w form. */
  int counts[MAXN], sdispls[MAXN], rdispls[MAXN], rcounts_bytes[MAXN];
  MPI_Aint sdispls_bytes[MAXN], rdispls_bytes[MAXN];
  MPI_Datatype sendtypes[MAXN], recvtypes[MAXN];
  for (int j = 0; j < MAXN; ++j) {
    counts[j] = K;
    sdispls[j] = j * K;
    sdispls_bytes[j] = (MPI_Aint)(j * K * sizeof(int));
    sendtypes[j] = MPI_INT;
  }
  int reversed[MAXN * K];
  for (int i = 0; i < in_count; ++i) {
    rdispls[i] = (in_count - 1 - i) * K;
    rdispls_bytes[i] = (MPI_Aint)((in_count - 1 - i) * K * sizeof(int));
    rcounts_bytes[i] = K * (int)sizeof(int);
    recvtypes[i] = MPI_BYTE;
    memcpy(&reversed[(in_count - 1 - i) * K], &want[i * K], K * sizeof(int));
  }
  for (int i = 0; i < MAXN * K; ++i) got[i] = UNTOUCHED;
  CHECK_MPI(
      MPI_Neighbor_alltoallv(send, counts, sdispls, MPI_INT, got, counts, rdispls, MPI_INT, comm));
  CHECK_ARRAY("neighbor_alltoallv", got, reversed, in_count * K);
  for (int i = 0; i < MAXN * K; ++i) got[i] = UNTOUCHED;
  CHECK_MPI(MPI_Ineighbor_alltoallw(send, counts, sdispls_bytes, sendtypes, got, rcounts_bytes,
                                    rdispls_bytes, recvtypes, comm, &request));
  CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
  CHECK_ARRAY("ineighbor_alltoallw", got, reversed, in_count * K);
  for (int i = 0; i < MAXN * K; ++i) got[i] = UNTOUCHED;
  CHECK_MPI(MPI_Neighbor_alltoallw(send, counts, sdispls_bytes, sendtypes, got, rcounts_bytes,
                                   rdispls_bytes, recvtypes, comm));
  CHECK_ARRAY("neighbor_alltoallw", got, reversed, in_count * K);

  /* allgatherv: neighbour i's K ints at displacement (in_count - 1 - i) * K. */
  for (int i = 0; i < in_count; ++i) {
    for (int k = 0; k < K; ++k) {
      reversed[(in_count - 1 - i) * K + k] =
          in_ranks[i] == MPI_PROC_NULL ? UNTOUCHED : in_ranks[i] * 100 + k;
    }
  }
  for (int i = 0; i < MAXN * K; ++i) got[i] = UNTOUCHED;
  CHECK_MPI(
      MPI_Ineighbor_allgatherv(mine, K, MPI_INT, got, counts, rdispls, MPI_INT, comm, &request));
  CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
  CHECK_ARRAY("ineighbor_allgatherv", got, reversed, in_count * K);
  for (int i = 0; i < MAXN * K; ++i) got[i] = UNTOUCHED;
  CHECK_MPI(MPI_Neighbor_allgatherv(mine, K, MPI_INT, got, counts, rdispls, MPI_INT, comm));
  CHECK_ARRAY("neighbor_allgatherv", got, reversed, in_count * K);
  for (int i = 0; i < MAXN * K; ++i) got[i] = UNTOUCHED;
  CHECK_MPI(MPI_Ineighbor_allgather(mine, K, MPI_INT, got, K, MPI_INT, comm, &request));
  CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
  for (int i = 0; i < in_count; ++i) {
    for (int k = 0; k < K; ++k) {
      want[i * K + k] = in_ranks[i] == MPI_PROC_NULL ? UNTOUCHED : in_ranks[i] * 100 + k;
    }
  }
  CHECK_ARRAY("ineighbor_allgather", got, want, in_count * K);
}

/* A cartesian communicator: queries, then the neighborhood collectives. Neighbour 2d is the
 * -1 neighbour of dimension d, 2d + 1 the +1 one; the -1 neighbour sent us its block 2d + 1. */
static void check_cart(int ndims, const int* dims, const int* periods) {
  MPI_Comm cart;
  CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, ndims, dims, periods, 1, &cart));
  int status = 0, got_ndims = -1, me = -1, cart_size = 0;
  CHECK_MPI(MPI_Topo_test(cart, &status));
  CHECK(status == MPI_CART);
  CHECK_MPI(MPI_Cartdim_get(cart, &got_ndims));
  CHECK(got_ndims == ndims);
  CHECK_MPI(MPI_Comm_rank(cart, &me));
  CHECK_MPI(MPI_Comm_size(cart, &cart_size));
  CHECK(me == rank && cart_size == size);

  int coords[4], got_dims[4], got_periods[4], got_coords[4];
  int rest = me;
  for (int d = ndims - 1; d >= 0; --d) {
    coords[d] = rest % dims[d];
    rest /= dims[d];
  }
  CHECK_MPI(MPI_Cart_get(cart, 4, got_dims, got_periods, got_coords));
  CHECK_ARRAY("cart_get dims", got_dims, dims, ndims);
  CHECK_ARRAY("cart_get periods", got_periods, periods, ndims);
  CHECK_ARRAY("cart_get coords", got_coords, coords, ndims);
  for (int r = 0; r < size; ++r) {
    int c[4], back = -1;
    CHECK_MPI(MPI_Cart_coords(cart, r, 4, c));
    CHECK_MPI(MPI_Cart_rank(cart, c, &back));
    CHECK(back == r);
  }

  int in_ranks[8], slots[8];
  for (int d = 0; d < ndims; ++d) {
    int source = -99, dest = -99;
    CHECK_MPI(MPI_Cart_shift(cart, d, 1, &source, &dest));
    int c[4];
    memcpy(c, coords, sizeof c);
    c[d] = coords[d] - 1;
    int want_source = MPI_PROC_NULL, want_dest = MPI_PROC_NULL;
    if (c[d] >= 0 || periods[d]) {
      c[d] = (c[d] + dims[d]) % dims[d];
      MPI_Cart_rank(cart, c, &want_source);
    }
    c[d] = coords[d] + 1;
    if (c[d] < dims[d] || periods[d]) {
      c[d] %= dims[d];
      MPI_Cart_rank(cart, c, &want_dest);
    }
    CHECK(source == want_source && dest == want_dest);
    in_ranks[2 * d] = source;
    slots[2 * d] = 2 * d + 1;
    in_ranks[2 * d + 1] = dest;
    slots[2 * d + 1] = 2 * d;
  }
  check_neighbor_collectives(cart, 2 * ndims, in_ranks, slots, 2 * ndims, in_ranks);

  /* The copy keeps the topology. */
  MPI_Comm dup;
  CHECK_MPI(MPI_Comm_dup(cart, &dup));
  CHECK_MPI(MPI_Topo_test(dup, &status));
  CHECK(status == MPI_CART);
  CHECK_MPI(MPI_Comm_free(&dup));

  /* Sub-grid of the last dimension: ranks with the same leading coordinates. */
  if (ndims >= 2) {
    int remain[4] = {0};
    remain[ndims - 1] = 1;
    MPI_Comm row;
    CHECK_MPI(MPI_Cart_sub(cart, remain, &row));
    int row_size = 0, row_rank = -1, row_ndims = -1, row_coords[1] = {-1};
    CHECK_MPI(MPI_Comm_size(row, &row_size));
    CHECK_MPI(MPI_Comm_rank(row, &row_rank));
    CHECK(row_size == dims[ndims - 1] && row_rank == coords[ndims - 1]);
    CHECK_MPI(MPI_Cartdim_get(row, &row_ndims));
    CHECK(row_ndims == 1);
    CHECK_MPI(MPI_Cart_coords(row, row_rank, 1, row_coords));
    CHECK(row_coords[0] == coords[ndims - 1]);
    CHECK_MPI(MPI_Comm_free(&row));
  }
  CHECK_MPI(MPI_Comm_free(&cart));
}

static void check_small_cart(void) {
  if (size < 2) return;
  int dims[1] = {size - 1}, periods[1] = {0};
  MPI_Comm cart;
  CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &cart));
  CHECK((rank == size - 1) == (cart == MPI_COMM_NULL));
  if (cart != MPI_COMM_NULL) CHECK_MPI(MPI_Comm_free(&cart));
}

/* The complete graph: every other rank, in increasing order. */
static void check_graph(void) {
  int index[MAXN], edges[MAXN * MAXN], e = 0;
  for (int r = 0; r < size; ++r) {
    for (int n = 0; n < size; ++n) {
      if (n != r) edges[e++] = n;
    }
    index[r] = e;
  }
  MPI_Comm graph;
  CHECK_MPI(MPI_Graph_create(MPI_COMM_WORLD, size, index, edges, 0, &graph));
  int status = 0, nnodes = 0, nedges = 0, count = -1;
  CHECK_MPI(MPI_Topo_test(graph, &status));
  CHECK(status == MPI_GRAPH);
  CHECK_MPI(MPI_Graphdims_get(graph, &nnodes, &nedges));
  CHECK(nnodes == size && nedges == e);
  int got_index[MAXN], got_edges[MAXN * MAXN], neighbors[MAXN];
  CHECK_MPI(MPI_Graph_get(graph, MAXN, MAXN * MAXN, got_index, got_edges));
  CHECK_ARRAY("graph_get index", got_index, index, size);
  CHECK_ARRAY("graph_get edges", got_edges, edges, e);
  CHECK_MPI(MPI_Graph_neighbors_count(graph, rank, &count));
  CHECK(count == size - 1);
  CHECK_MPI(MPI_Graph_neighbors(graph, rank, MAXN, neighbors));
  CHECK_ARRAY("graph_neighbors", neighbors, &edges[rank == 0 ? 0 : index[rank - 1]], count);
  int slots[MAXN];
  for (int i = 0; i < count; ++i) slots[i] = rank < neighbors[i] ? rank : rank - 1;
  check_neighbor_collectives(graph, count, neighbors, slots, count, neighbors);
  CHECK_MPI(MPI_Comm_free(&graph));
}

/* A ring as a distributed graph: in from rank - 1, out to rank + 1, weighted. */
static void check_dist_graph_adjacent(void) {
  int source = (rank - 1 + size) % size, dest = (rank + 1) % size;
  int source_weight = 10 + source, dest_weight = 10 + rank;
  MPI_Comm ring;
  CHECK_MPI(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &source, &source_weight, 1, &dest,
                                           &dest_weight, 0, 0, &ring));
  int status = 0, indegree = -1, outdegree = -1, weighted = -1;
  CHECK_MPI(MPI_Topo_test(ring, &status));
  CHECK(status == MPI_DIST_GRAPH);
  CHECK_MPI(MPI_Dist_graph_neighbors_count(ring, &indegree, &outdegree, &weighted));
  CHECK(indegree == 1 && outdegree == 1 && weighted == 1);
  int s = -1, sw = -1, d = -1, dw = -1;
  CHECK_MPI(MPI_Dist_graph_neighbors(ring, 1, &s, &sw, 1, &d, &dw));
  CHECK(s == source && sw == source_weight && d == dest && dw == dest_weight);
  int slot = 0;
  check_neighbor_collectives(ring, 1, &source, &slot, 1, &dest);
  CHECK_MPI(MPI_Comm_free(&ring));
}

/* Edges rank -> rank + 2 given by each rank for itself, then all given by rank 0. */
static void check_dist_graph_create(void) {
  for (int by_root = 0; by_root < 2; ++by_root) {
    int sources[MAXN], degrees[MAXN], destinations[MAXN], n = 0;
    for (int r = 0; r < size; ++r) {
      if (by_root ? rank == 0 : r == rank) {
        sources[n] = r;
        degrees[n] = 1;
        destinations[n] = (r + 2) % size;
        ++n;
      }
    }
    MPI_Comm graph;
    CHECK_MPI(MPI_Dist_graph_create(MPI_COMM_WORLD, n, sources, degrees, destinations,
                                    MPI_UNWEIGHTED, 0, 0, &graph));
    int indegree = -1, outdegree = -1, weighted = -1, s = -1, d = -1;
    CHECK_MPI(MPI_Dist_graph_neighbors_count(graph, &indegree, &outdegree, &weighted));
    CHECK(indegree == 1 && outdegree == 1 && weighted == 0);
    CHECK_MPI(MPI_Dist_graph_neighbors(graph, 1, &s, MPI_UNWEIGHTED, 1, &d, MPI_UNWEIGHTED));
    int source = ((rank - 2) % size + size) % size;
    CHECK(s == source && d == (rank + 2) % size);
    int slot = 0;
    check_neighbor_collectives(graph, 1, &source, &slot, 1, &d);
    CHECK_MPI(MPI_Comm_free(&graph));
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  check_dims_create();
  int dims[2] = {0, 0};
  MPI_Dims_create(size, 2, dims);
  int periodic_rows[2] = {1, 0}, open[2] = {0, 0}, periodic[2] = {1, 1};
  check_cart(2, dims, periodic_rows);
  check_cart(2, dims, open);
  check_cart(2, dims, periodic); /* dimensions of size 1 or 2: self and double neighbours */
  int line[1] = {size}, ring[1] = {1};
  check_cart(1, line, ring);
  check_small_cart();
  check_graph();
  check_dist_graph_adjacent();
  check_dist_graph_create();
  MPI_Finalize();
  return finish_checks("shim_topology");
}
