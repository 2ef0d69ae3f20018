#include "shim/intercomm_collectives.hpp"

#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "shim/argument_checks.hpp"
#include "shim/collective_starts.hpp"
#include "shim/intercomm.hpp"
#include "shim/mpi_error.hpp"
#include "shim/typed_buffer.hpp"

namespace halyard::mpi_shim {

namespace {

using Use = TypedBuffer::Use;

// What an intercommunicator form returns: it has finished when it returns.
Started done(const Communicator& bridge) {
  return {Request::make_completed(bridge.loop(), {})};
}

void refuse_in_place(const void* buffer, const char* name) {
  if (is_in_place(buffer)) {
    fail(MPI_ERR_BUFFER,
         std::string("MPI_IN_PLACE is not allowed as ") + name + " on an intercommunicator");
  }
}

// Where a rooted call's root is, as this process sees it.
enum class RootRole { kHere, kIdle, kRemote };

RootRole root_role(const Intercomm& inter, int root) {
  if (root == MPI_ROOT) return RootRole::kHere;
  if (root == MPI_PROC_NULL) return RootRole::kIdle;
  if (root < 0 || root >= inter.remote_size()) {
    fail(MPI_ERR_ROOT, "invalid root " + std::to_string(root) +
                           " (MPI_ROOT, MPI_PROC_NULL or a rank of the remote group of size " +
                           std::to_string(inter.remote_size()) + ")");
  }
  return RootRole::kRemote;
}

const int* checked_array(const int* values, const char* name) {
  check_out(values, name);
  return values;
}

std::vector<int> repeated(int value, int n) {
  return std::vector<int>(static_cast<std::size_t>(n), value);
}
// The displacements of `n` blocks of `step` items each, back to back.
std::vector<int> strided(int step, int n) {
  std::vector<int> displs;
  for (int j = 0; j < n; ++j) displs.push_back(j * step);
  return displs;
}
std::vector<MPI_Datatype> repeated_type(MPI_Datatype type, int n) {
  return std::vector<MPI_Datatype>(static_cast<std::size_t>(n), type);
}
// Byte displacements of `n` blocks: `displs[j]` extents of `type` (null: j * count extents).
std::vector<int> byte_displs(const int* displs, int count, MPI_Datatype type, int n) {
  auto extent = static_cast<int>(checked_datatype(type).extent);
  std::vector<int> bytes;
  for (int j = 0; j < n; ++j) bytes.push_back((displs != nullptr ? displs[j] : j * count) * extent);
  return bytes;
}

// `count` items of `type` at `offset` bytes from `buf`, to or from remote rank `peer`.
struct BlockAt {
  int peer;
  const void* buf;
  int offset;
  int count;
  MPI_Datatype type;
};

// Posts every receive and send between the groups, waits for them and unpacks what arrived.
Started move_blocks(const Communicator& bridge, const std::vector<BlockAt>& sends,
                    const std::vector<BlockAt>& receives) {
  std::vector<TypedBuffer> received;
  std::vector<TypedBuffer> sent;
  std::vector<Request> requests;
  auto typed = [](const BlockAt& b, const char* side, Use use) {
    std::string count_name = std::string(side) + "count";
    std::string type_name = std::string(side) + "type";
    std::string buffer_name = std::string(side) + "buf";
    std::size_t n = checked_count(b.count, count_name.c_str());
    const TypeObject& type = checked_datatype(b.type, type_name.c_str());
    check_buffer(b.buf, n, type, buffer_name.c_str());
    return TypedBuffer(address_at(b.buf, b.offset), n, type, use);
  };
  for (const BlockAt& b : receives) {
    received.push_back(typed(b, "recv", Use::kReceive));
    requests.push_back(bridge.irecv_internal(b.peer, kIntercommTag, received.back().data(),
                                             received.back().bytes()));
  }
  for (const BlockAt& b : sends) {
    sent.push_back(typed(b, "send", Use::kSend));
    requests.push_back(
        bridge.isend_internal(b.peer, kIntercommTag, sent.back().data(), sent.back().bytes()));
  }
  Status status = wait_all(requests);
  if (!status.ok()) throw Error(status.code, status.message);
  for (const TypedBuffer& b : received) b.complete();
  return done(bridge);
}

// The reduction of the local group's contributions, packed, at local rank 0 (empty elsewhere).
std::vector<std::byte> reduce_to_leader(const Intercomm& inter, const void* sendbuf, int count,
                                        MPI_Datatype datatype, MPI_Op op) {
  refuse_in_place(sendbuf, "sendbuf");
  std::size_t n = checked_count(count);
  const TypeObject& type = checked_datatype(datatype);
  bool leader = inter.local.rank() == 0;
  std::vector<std::byte> laid_out;  // the result in the type's own layout
  void* base = nullptr;
  if (leader && n > 0) {
    laid_out.resize(
        static_cast<std::size_t>(static_cast<MPI_Aint>(n - 1) * type.extent + type.true_extent));
    base = address_at(laid_out.data(), -type.true_lb);
  }
  std::vector<std::byte> scratch(1);  // a recvbuf for count 0 at the leader
  wait_for(start_reduce(inter.local, sendbuf, base != nullptr ? base : scratch.data(), count,
                        datatype, op, 0));
  if (!leader || n == 0) return {};
  TypedBuffer packed(base, n, type, Use::kSend);
  const auto* bytes = static_cast<const std::byte*>(packed.data());
  return {bytes, bytes + packed.bytes()};
}

}  // namespace

Started inter_barrier(const Communicator& bridge) {
  const Intercomm& inter = checked_intercomm(bridge);
  if (in_checking_only()) return done(bridge);
  // Every local member has arrived, then the leaders meet, then the leader releases its group
  // (a one-byte bcast: it cannot complete before the leader sends).
  wait_for(start_barrier(inter.local));
  char token = 1;
  char remote_token = 0;
  swap_between_leaders(bridge, &token, 1, &remote_token, 1);
  return done(bridge);
}

Started inter_bcast(const Communicator& bridge, void* buffer, int count, MPI_Datatype datatype,
                    int root) {
  const Intercomm& inter = checked_intercomm(bridge);
  RootRole role = root_role(inter, root);
  std::size_t n = checked_count(count);
  const TypeObject& type = checked_datatype(datatype);
  if (role != RootRole::kIdle) check_buffer(buffer, n, type, "buffer");
  if (in_checking_only() || role == RootRole::kIdle) return done(bridge);
  if (role == RootRole::kHere) {
    TypedBuffer data(buffer, n, type, Use::kSend);
    bridge.isend_internal(0, kIntercommTag, data.data(), data.bytes()).wait_ok();
    return done(bridge);
  }
  TypedBuffer data(buffer, n, type, Use::kReceive);
  if (inter.local.rank() == 0) {
    bridge.irecv_internal(root, kIntercommTag, data.data(), data.bytes()).wait_ok();
  }
  wait_for(start_bcast(inter.local, data.data(), static_cast<int>(data.bytes()), MPI_BYTE, 0));
  data.complete();
  return done(bridge);
}

Started inter_reduce(const Communicator& bridge, const void* sendbuf, void* recvbuf, int count,
                     MPI_Datatype datatype, MPI_Op op, int root) {
  const Intercomm& inter = checked_intercomm(bridge);
  RootRole role = root_role(inter, root);
  if (in_checking_only() || role == RootRole::kIdle) return done(bridge);
  if (role == RootRole::kHere) {
    std::size_t n = checked_count(count);
    const TypeObject& type = checked_datatype(datatype);
    check_buffer(recvbuf, n, type, "recvbuf");
    TypedBuffer result(recvbuf, n, type, Use::kReceive);
    bridge.irecv_internal(0, kIntercommTag, result.data(), result.bytes()).wait_ok();
    result.complete();
    return done(bridge);
  }
  std::vector<std::byte> reduced = reduce_to_leader(inter, sendbuf, count, datatype, op);
  if (inter.local.rank() == 0) {
    bridge.isend_internal(root, kIntercommTag, reduced.data(), reduced.size()).wait_ok();
  }
  return done(bridge);
}

Started inter_allreduce(const Communicator& bridge, const void* sendbuf, void* recvbuf, int count,
                        MPI_Datatype datatype, MPI_Op op) {
  const Intercomm& inter = checked_intercomm(bridge);
  if (in_checking_only()) return done(bridge);
  std::vector<std::byte> reduced = reduce_to_leader(inter, sendbuf, count, datatype, op);
  std::size_t n = checked_count(count);
  const TypeObject& type = checked_datatype(datatype);
  check_buffer(recvbuf, n, type, "recvbuf");
  TypedBuffer result(recvbuf, n, type, Use::kReceive);
  swap_between_leaders(bridge, reduced.data(), reduced.size(), result.data(), result.bytes());
  result.complete();
  return done(bridge);
}

Started inter_reduce_scatter(const Communicator& bridge, const void* sendbuf, void* recvbuf,
                             const int recvcounts[], MPI_Datatype datatype, MPI_Op op) {
  const Intercomm& inter = checked_intercomm(bridge);
  checked_array(recvcounts, "recvcounts");
  if (in_checking_only()) return done(bridge);
  int me = inter.local.rank();
  int total = 0;
  int before_me = 0;
  for (int i = 0; i < inter.local.size(); ++i) {
    checked_count(recvcounts[i], "recvcounts[i]");
    if (i == me) before_me = total;
    total += recvcounts[i];
  }
  const TypeObject& type = checked_datatype(datatype);
  std::vector<std::byte> reduced = reduce_to_leader(inter, sendbuf, total, datatype, op);
  // The other group's reduction reaches every member; each keeps its own part.
  std::vector<std::byte> remote(static_cast<std::size_t>(total) * type.size);
  swap_between_leaders(bridge, reduced.data(), reduced.size(), remote.data(), remote.size());
  auto mine = checked_count(recvcounts[me], "recvcount");
  check_buffer(recvbuf, mine, type, "recvbuf");
  TypedBuffer result(recvbuf, mine, type, Use::kReceive);
  std::memcpy(result.data(), remote.data() + static_cast<std::size_t>(before_me) * type.size,
              result.bytes());
  result.complete();
  return done(bridge);
}

Started inter_reduce_scatter_block(const Communicator& bridge, const void* sendbuf, void* recvbuf,
                                   int recvcount, MPI_Datatype datatype, MPI_Op op) {
  const Intercomm& inter = checked_intercomm(bridge);
  checked_count(recvcount, "recvcount");
  std::vector<int> counts = repeated(recvcount, inter.local.size());
  return inter_reduce_scatter(bridge, sendbuf, recvbuf, counts.data(), datatype, op);
}

Started inter_gatherv(const Communicator& bridge, const void* sendbuf, int sendcount,
                      MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                      const int displs[], MPI_Datatype recvtype, int root) {
  const Intercomm& inter = checked_intercomm(bridge);
  RootRole role = root_role(inter, root);
  if (in_checking_only() || role == RootRole::kIdle) return done(bridge);
  if (role == RootRole::kRemote) {
    refuse_in_place(sendbuf, "sendbuf");
    return move_blocks(bridge, {{root, sendbuf, 0, sendcount, sendtype}}, {});
  }
  checked_array(recvcounts, "recvcounts");
  std::vector<int> offsets =
      byte_displs(checked_array(displs, "displs"), 0, recvtype, inter.remote_size());
  std::vector<BlockAt> receives;
  for (int j = 0; j < inter.remote_size(); ++j) {
    receives.push_back({j, recvbuf, offsets[static_cast<std::size_t>(j)], recvcounts[j], recvtype});
  }
  return move_blocks(bridge, {}, receives);
}

Started inter_gather(const Communicator& bridge, const void* sendbuf, int sendcount,
                     MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                     int root) {
  const Intercomm& inter = checked_intercomm(bridge);
  int n = inter.remote_size();
  std::vector<int> counts = repeated(recvcount, n);
  std::vector<int> displs = strided(recvcount, n);
  return inter_gatherv(bridge, sendbuf, sendcount, sendtype, recvbuf, counts.data(), displs.data(),
                       recvtype, root);
}

Started inter_scatterv(const Communicator& bridge, const void* sendbuf, const int sendcounts[],
                       const int displs[], MPI_Datatype sendtype, void* recvbuf, int recvcount,
                       MPI_Datatype recvtype, int root) {
  const Intercomm& inter = checked_intercomm(bridge);
  RootRole role = root_role(inter, root);
  if (in_checking_only() || role == RootRole::kIdle) return done(bridge);
  if (role == RootRole::kRemote) {
    refuse_in_place(recvbuf, "recvbuf");
    return move_blocks(bridge, {}, {{root, recvbuf, 0, recvcount, recvtype}});
  }
  checked_array(sendcounts, "sendcounts");
  std::vector<int> offsets =
      byte_displs(checked_array(displs, "displs"), 0, sendtype, inter.remote_size());
  std::vector<BlockAt> sends;
  for (int j = 0; j < inter.remote_size(); ++j) {
    sends.push_back({j, sendbuf, offsets[static_cast<std::size_t>(j)], sendcounts[j], sendtype});
  }
  return move_blocks(bridge, sends, {});
}

Started inter_scatter(const Communicator& bridge, const void* sendbuf, int sendcount,
                      MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                      int root) {
  const Intercomm& inter = checked_intercomm(bridge);
  int n = inter.remote_size();
  std::vector<int> counts = repeated(sendcount, n);
  std::vector<int> displs = strided(sendcount, n);
  return inter_scatterv(bridge, sendbuf, counts.data(), displs.data(), sendtype, recvbuf, recvcount,
                        recvtype, root);
}

Started inter_alltoallw(const Communicator& bridge, const void* sendbuf, const int sendcounts[],
                        const int sdispls[], const MPI_Datatype sendtypes[], void* recvbuf,
                        const int recvcounts[], const int rdispls[],
                        const MPI_Datatype recvtypes[]) {
  const Intercomm& inter = checked_intercomm(bridge);
  refuse_in_place(sendbuf, "sendbuf");
  checked_array(sendcounts, "sendcounts");
  checked_array(sdispls, "sdispls");
  checked_array(recvcounts, "recvcounts");
  checked_array(rdispls, "rdispls");
  check_out(sendtypes, "sendtypes");
  check_out(recvtypes, "recvtypes");
  if (in_checking_only()) return done(bridge);
  std::vector<BlockAt> sends;
  std::vector<BlockAt> receives;
  for (int j = 0; j < inter.remote_size(); ++j) {
    sends.push_back({j, sendbuf, sdispls[j], sendcounts[j], sendtypes[j]});
    receives.push_back({j, recvbuf, rdispls[j], recvcounts[j], recvtypes[j]});
  }
  return move_blocks(bridge, sends, receives);
}

Started inter_alltoallv(const Communicator& bridge, const void* sendbuf, const int sendcounts[],
                        const int sdispls[], MPI_Datatype sendtype, void* recvbuf,
                        const int recvcounts[], const int rdispls[], MPI_Datatype recvtype) {
  int n = checked_intercomm(bridge).remote_size();
  refuse_in_place(sendbuf, "sendbuf");
  std::vector<int> send_offsets = byte_displs(checked_array(sdispls, "sdispls"), 0, sendtype, n);
  std::vector<int> recv_offsets = byte_displs(checked_array(rdispls, "rdispls"), 0, recvtype, n);
  std::vector<MPI_Datatype> sendtypes = repeated_type(sendtype, n);
  std::vector<MPI_Datatype> recvtypes = repeated_type(recvtype, n);
  return inter_alltoallw(bridge, sendbuf, sendcounts, send_offsets.data(), sendtypes.data(),
                         recvbuf, recvcounts, recv_offsets.data(), recvtypes.data());
}

Started inter_alltoall(const Communicator& bridge, const void* sendbuf, int sendcount,
                       MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype) {
  int n = checked_intercomm(bridge).remote_size();
  refuse_in_place(sendbuf, "sendbuf");
  std::vector<int> send_counts = repeated(sendcount, n);
  std::vector<int> recv_counts = repeated(recvcount, n);
  std::vector<int> send_offsets = byte_displs(nullptr, sendcount, sendtype, n);
  std::vector<int> recv_offsets = byte_displs(nullptr, recvcount, recvtype, n);
  std::vector<MPI_Datatype> sendtypes = repeated_type(sendtype, n);
  std::vector<MPI_Datatype> recvtypes = repeated_type(recvtype, n);
  return inter_alltoallw(bridge, sendbuf, send_counts.data(), send_offsets.data(), sendtypes.data(),
                         recvbuf, recv_counts.data(), recv_offsets.data(), recvtypes.data());
}

Started inter_allgatherv(const Communicator& bridge, const void* sendbuf, int sendcount,
                         MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                         const int displs[], MPI_Datatype recvtype) {
  int n = checked_intercomm(bridge).remote_size();
  refuse_in_place(sendbuf, "sendbuf");
  // Every remote rank gets the same block: an all-to-all whose send blocks all start at 0.
  std::vector<int> send_counts = repeated(sendcount, n);
  std::vector<int> send_offsets = repeated(0, n);
  std::vector<int> recv_offsets = byte_displs(checked_array(displs, "displs"), 0, recvtype, n);
  std::vector<MPI_Datatype> sendtypes = repeated_type(sendtype, n);
  std::vector<MPI_Datatype> recvtypes = repeated_type(recvtype, n);
  return inter_alltoallw(bridge, sendbuf, send_counts.data(), send_offsets.data(), sendtypes.data(),
                         recvbuf, recvcounts, recv_offsets.data(), recvtypes.data());
}

Started inter_allgather(const Communicator& bridge, const void* sendbuf, int sendcount,
                        MPI_Datatype sendtype, void* recvbuf, int recvcount,
                        MPI_Datatype recvtype) {
  int n = checked_intercomm(bridge).remote_size();
  std::vector<int> recv_counts = repeated(recvcount, n);
  std::vector<int> displs = strided(recvcount, n);
  return inter_allgatherv(bridge, sendbuf, sendcount, sendtype, recvbuf, recv_counts.data(),
                          displs.data(), recvtype);
}

}  // namespace halyard::mpi_shim
