// MPI cartesian topologies: MPI_Dims_create, MPI_Cart_* and MPI_Topo_test. The state lives in
// shim/topology.hpp. Reorder is accepted and ignored.
#include <mpi.h>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "shim/call_guard.hpp"
#include "shim/intercomm.hpp"
#include "shim/shim_state.hpp"
#include "shim/topology.hpp"
#include "shim/topology_checks.hpp"

using namespace halyard::mpi_shim;

namespace {

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
    refuse_intercomm(entry.comm, "MPI_Cart_create");
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

int MPI_Topo_test(MPI_Comm comm, int* status) {
  return guarded("MPI_Topo_test", comm, [&] {
    const Topology* topology = topology_of(shim_state().comm(comm).comm);
    check_pointer(status, "status");
    *status = topology != nullptr ? topology->kind : MPI_UNDEFINED;
  });
}

}  // extern "C"
