#include "shim/topology_checks.hpp"

#include <algorithm>
#include <string>

#include "shim/mpi_error.hpp"

namespace halyard::mpi_shim {

void check_pointer(const void* pointer, const char* name) {
  if (pointer == nullptr) fail(MPI_ERR_ARG, std::string(name) + " is NULL");
}

void check_rank_in(int rank, int size, const char* what) {
  if (rank < 0 || rank >= size) {
    fail(MPI_ERR_RANK, std::string("invalid ") + what + " " + std::to_string(rank) +
                           " (topology of " + std::to_string(size) + " ranks)");
  }
}

MPI_Comm make_topology_comm(const CommEntry& entry, int members, Topology topology) {
  const int rank = entry.comm.rank();
  halyard::Communicator comm = entry.comm.split(rank < members ? 0 : -1, rank);
  if (!comm.valid()) return MPI_COMM_NULL;
  attach_topology(comm, std::move(topology));
  return shim_state().add_comm(std::move(comm), entry.errhandler);
}

void copy_out(const std::vector<int>& values, int max, int out[], const char* name) {
  if (max < 0) fail(MPI_ERR_ARG, "invalid max" + std::string(name) + " " + std::to_string(max));
  std::size_t n = std::min(values.size(), static_cast<std::size_t>(max));
  if (n > 0) check_pointer(out, name);
  std::copy_n(values.begin(), n, out);
}

}  // namespace halyard::mpi_shim
