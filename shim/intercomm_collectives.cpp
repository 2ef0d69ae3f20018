#include "shim/intercomm_collectives.hpp"

#include <array>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "shim/argument_checks.hpp"
#include "shim/collective_starts.hpp"
#include "shim/intercomm.hpp"
#include "shim/intercomm_chain.hpp"
#include "shim/mpi_error.hpp"
#include "shim/typed_buffer.hpp"

namespace halyard::mpi_shim {

namespace {

using Use = TypedBuffer::Use;

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

// Posts every block between the groups now, on the call's `tag`; MPI_Wait unpacks what arrived.
Started move_blocks(const Communicator& bridge, int tag, const std::vector<BlockAt>& sends,
                    const std::vector<BlockAt>& receives) {
  auto typed = [](const BlockAt& b, const char* side, Use use) {
    std::string count_name = std::string(side) + "count";
    std::string type_name = std::string(side) + "type";
    std::string buffer_name = std::string(side) + "buf";
    std::size_t n = checked_count(b.count, count_name.c_str());
    const TypeObject& type = checked_datatype(b.type, type_name.c_str());
    check_buffer(b.buf, n, type, buffer_name.c_str());
    return TypedBuffer(address_at(b.buf, b.offset), n, type, use);
  };
  std::vector<TypedBuffer> buffers;  // unpacked (receives) or kept (sends) until MPI_Wait
  std::vector<Request> requests;
  for (const BlockAt& b : receives) {
    buffers.push_back(typed(b, "recv", Use::kReceive));
    requests.push_back(
        bridge.irecv_internal(b.peer, tag, buffers.back().data(), buffers.back().bytes()));
  }
  for (const BlockAt& b : sends) {
    buffers.push_back(typed(b, "send", Use::kSend));
    requests.push_back(
        bridge.isend_internal(b.peer, tag, buffers.back().data(), buffers.back().bytes()));
  }
  return {when_all(bridge.loop(), requests), unpack_all(std::move(buffers))};
}

// The leader's broadcast to the rest of its group, over the bridge (local rank i is bridge rank
// remote size + i on this side): the members' receives are posted at once, in the call, and
// the leader's sends by a later step, once it has the data.
struct FanOut {
  int tag;
  int remote_size;
  int local_size;
  bool leader;

  FanOut(const Intercomm& inter, int call_tag)
      : tag(call_tag),
        remote_size(inter.remote_size()),
        local_size(inter.local.size()),
        leader(inter.local.rank() == 0) {}

  // A member's receive from the leader (nothing at the leader).
  Started receive(const Communicator& bridge, void* data, std::size_t bytes) const {
    if (leader) return nothing_posted(bridge);
    return {bridge.irecv_internal(remote_size, tag, data, bytes)};
  }
  // The leader's sends to every member (nothing elsewhere).
  Started send(const Communicator& bridge, const void* data, std::size_t bytes) const {
    if (!leader) return nothing_posted(bridge);
    std::vector<Request> requests;
    for (int i = 1; i < local_size; ++i) {
      requests.push_back(bridge.isend_internal(remote_size + i, tag, data, bytes));
    }
    return {when_all(bridge.loop(), requests)};
  }
};

// The reduction of the local group's contributions, packed at local rank 0 (empty elsewhere).
struct Reduced {
  std::shared_ptr<const TypeObject> type;
  std::size_t count = 0;
  std::vector<std::byte> laid_out;  // the result in the type's own layout, at the leader
  void* base = nullptr;             // where the type's displacement 0 falls in laid_out
  std::vector<std::byte> packed;
};

// The steps that leave the reduction in `out->packed`: a reduce to local rank 0, then a pack.
std::vector<ChainStep> reduce_to_leader(const Intercomm& inter, const std::shared_ptr<Reduced>& out,
                                        const void* sendbuf, int count, MPI_Datatype datatype,
                                        MPI_Op op) {
  refuse_in_place(sendbuf, "sendbuf");
  out->count = checked_count(count);
  out->type = checked_datatype(datatype).shared_from_this();
  const TypeObject& type = *out->type;
  bool leader = inter.local.rank() == 0;
  out->laid_out.resize(1);  // a recvbuf for count 0
  out->base = out->laid_out.data();
  if (leader && out->count > 0) {
    out->laid_out.resize(static_cast<std::size_t>(
        static_cast<MPI_Aint>(out->count - 1) * type.extent + type.true_extent));
    out->base = address_at(out->laid_out.data(), -type.true_lb);
  }
  Communicator local = inter.local;
  auto reduce = [local, out, sendbuf, count, datatype, op] {
    return start_reduce(local, sendbuf, out->base, count, datatype, op, 0);
  };
  auto pack = [local, out] {
    if (local.rank() == 0 && out->count > 0) {
      TypedBuffer packed(out->base, out->count, *out->type, Use::kSend);
      const auto* bytes = static_cast<const std::byte*>(packed.data());
      out->packed.assign(bytes, bytes + packed.bytes());
    }
    return nothing_posted(local);
  };
  return {reduce, pack};
}

}  // namespace

Started inter_barrier(const Communicator& bridge) {
  const Intercomm& inter = checked_intercomm(bridge);
  if (in_checking_only()) return nothing_posted(bridge);
  int tag = next_intercomm_tag(bridge);
  // Every local member has arrived, then the leaders meet, then each leader releases its group.
  auto tokens = std::make_shared<std::array<char, 2>>(std::array<char, 2>{1, 0});
  FanOut fan(inter, tag);
  Started released = fan.receive(bridge, &(*tokens)[1], 1);
  Started arrived = start_barrier(inter.local);
  Communicator local = inter.local;
  return start_chain(bridge, {[arrived] { return arrived; },
                              [bridge, local, tag, tokens] {
                                return leaders_swap(bridge, local, tag, &(*tokens)[0], 1,
                                                    &(*tokens)[1], 1);
                              },
                              [bridge, fan, tokens] { return fan.send(bridge, &(*tokens)[1], 1); },
                              [released] { return released; }});
}

Started inter_bcast(const Communicator& bridge, void* buffer, int count, MPI_Datatype datatype,
                    int root) {
  const Intercomm& inter = checked_intercomm(bridge);
  RootRole role = root_role(inter, root);
  std::size_t n = checked_count(count);
  const TypeObject& type = checked_datatype(datatype);
  if (role != RootRole::kIdle) check_buffer(buffer, n, type, "buffer");
  if (in_checking_only()) return nothing_posted(bridge);
  int tag = next_intercomm_tag(bridge);
  if (role == RootRole::kIdle) return nothing_posted(bridge);
  if (role == RootRole::kHere) {
    TypedBuffer data(buffer, n, type, Use::kSend);
    return {bridge.isend_internal(0, tag, data.data(), data.bytes()), unpack_all(data)};
  }
  // The remote leader receives from the root and passes the data on to its group.
  auto data = std::make_shared<TypedBuffer>(buffer, n, type, Use::kReceive);
  FanOut fan(inter, tag);
  Started arrived = fan.leader
                        ? Started{bridge.irecv_internal(root, tag, data->data(), data->bytes())}
                        : fan.receive(bridge, data->data(), data->bytes());
  return start_chain(
      bridge,
      {[arrived] { return arrived; },
       [bridge, fan, data] { return fan.send(bridge, data->data(), data->bytes()); }},
      unpack_all(*data));
}

Started inter_reduce(const Communicator& bridge, const void* sendbuf, void* recvbuf, int count,
                     MPI_Datatype datatype, MPI_Op op, int root) {
  const Intercomm& inter = checked_intercomm(bridge);
  RootRole role = root_role(inter, root);
  if (in_checking_only()) return nothing_posted(bridge);
  int tag = next_intercomm_tag(bridge);
  if (role == RootRole::kIdle) return nothing_posted(bridge);
  if (role == RootRole::kHere) {
    std::size_t n = checked_count(count);
    const TypeObject& type = checked_datatype(datatype);
    check_buffer(recvbuf, n, type, "recvbuf");
    TypedBuffer result(recvbuf, n, type, Use::kReceive);
    return {bridge.irecv_internal(0, tag, result.data(), result.bytes()), unpack_all(result)};
  }
  auto reduced = std::make_shared<Reduced>();
  std::vector<ChainStep> steps = reduce_to_leader(inter, reduced, sendbuf, count, datatype, op);
  bool leader = inter.local.rank() == 0;
  steps.push_back([bridge, leader, reduced, root, tag]() -> Started {
    if (!leader) return nothing_posted(bridge);
    return {bridge.isend_internal(root, tag, reduced->packed.data(), reduced->packed.size())};
  });
  return start_chain(bridge, std::move(steps));
}

// The steps of allreduce and reduce-scatter after the reduction: the leaders swap their groups'
// results into `remote`, each leader passes the other group's on to its members (whose receives
// `fan` posted in the call), and the members' receives complete.
void append_swap_and_fan_out(std::vector<ChainStep>& steps, const Communicator& bridge,
                             const Communicator& local, const FanOut& fan,
                             const std::shared_ptr<Reduced>& reduced, void* remote,
                             std::size_t remote_bytes) {
  Started received = fan.receive(bridge, remote, remote_bytes);
  steps.push_back([bridge, local, fan, reduced, remote, remote_bytes] {
    return leaders_swap(bridge, local, fan.tag, reduced->packed.data(), reduced->packed.size(),
                        remote, remote_bytes);
  });
  steps.push_back(
      [bridge, fan, remote, remote_bytes] { return fan.send(bridge, remote, remote_bytes); });
  steps.push_back([received] { return received; });
}

Started inter_allreduce(const Communicator& bridge, const void* sendbuf, void* recvbuf, int count,
                        MPI_Datatype datatype, MPI_Op op) {
  const Intercomm& inter = checked_intercomm(bridge);
  if (in_checking_only()) return nothing_posted(bridge);
  auto reduced = std::make_shared<Reduced>();
  std::vector<ChainStep> steps = reduce_to_leader(inter, reduced, sendbuf, count, datatype, op);
  check_buffer(recvbuf, reduced->count, *reduced->type, "recvbuf");
  auto result =
      std::make_shared<TypedBuffer>(recvbuf, reduced->count, *reduced->type, Use::kReceive);
  FanOut fan(inter, next_intercomm_tag(bridge));
  append_swap_and_fan_out(steps, bridge, inter.local, fan, reduced, result->data(),
                          result->bytes());
  return start_chain(bridge, std::move(steps), unpack_all(*result));
}

Started inter_reduce_scatter(const Communicator& bridge, const void* sendbuf, void* recvbuf,
                             const int recvcounts[], MPI_Datatype datatype, MPI_Op op) {
  const Intercomm& inter = checked_intercomm(bridge);
  checked_array(recvcounts, "recvcounts");
  if (in_checking_only()) return nothing_posted(bridge);
  int me = inter.local.rank();
  int total = 0;
  int before_me = 0;
  for (int i = 0; i < inter.local.size(); ++i) {
    checked_count(recvcounts[i], "recvcounts[i]");
    if (i == me) before_me = total;
    total += recvcounts[i];
  }
  auto reduced = std::make_shared<Reduced>();
  std::vector<ChainStep> steps = reduce_to_leader(inter, reduced, sendbuf, total, datatype, op);
  const TypeObject& type = *reduced->type;
  std::size_t mine = checked_count(recvcounts[me], "recvcount");
  check_buffer(recvbuf, mine, type, "recvbuf");
  auto result = std::make_shared<TypedBuffer>(recvbuf, mine, type, Use::kReceive);
  // The other group's reduction reaches every member; each keeps its own part.
  auto remote =
      std::make_shared<std::vector<std::byte>>(static_cast<std::size_t>(total) * type.size);
  FanOut fan(inter, next_intercomm_tag(bridge));
  append_swap_and_fan_out(steps, bridge, inter.local, fan, reduced, remote->data(), remote->size());
  std::size_t offset = static_cast<std::size_t>(before_me) * type.size;
  steps.push_back([bridge, result, remote, offset] {
    std::memcpy(result->data(), remote->data() + offset, result->bytes());
    return nothing_posted(bridge);
  });
  return start_chain(bridge, std::move(steps), unpack_all(*result));
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
  if (in_checking_only()) return nothing_posted(bridge);
  int tag = next_intercomm_tag(bridge);
  if (role == RootRole::kIdle) return nothing_posted(bridge);
  if (role == RootRole::kRemote) {
    refuse_in_place(sendbuf, "sendbuf");
    return move_blocks(bridge, tag, {{root, sendbuf, 0, sendcount, sendtype}}, {});
  }
  checked_array(recvcounts, "recvcounts");
  std::vector<int> offsets =
      byte_displs(checked_array(displs, "displs"), 0, recvtype, inter.remote_size());
  std::vector<BlockAt> receives;
  for (int j = 0; j < inter.remote_size(); ++j) {
    receives.push_back({j, recvbuf, offsets[static_cast<std::size_t>(j)], recvcounts[j], recvtype});
  }
  return move_blocks(bridge, tag, {}, receives);
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
  if (in_checking_only()) return nothing_posted(bridge);
  int tag = next_intercomm_tag(bridge);
  if (role == RootRole::kIdle) return nothing_posted(bridge);
  if (role == RootRole::kRemote) {
    refuse_in_place(recvbuf, "recvbuf");
    return move_blocks(bridge, tag, {}, {{root, recvbuf, 0, recvcount, recvtype}});
  }
  checked_array(sendcounts, "sendcounts");
  std::vector<int> offsets =
      byte_displs(checked_array(displs, "displs"), 0, sendtype, inter.remote_size());
  std::vector<BlockAt> sends;
  for (int j = 0; j < inter.remote_size(); ++j) {
    sends.push_back({j, sendbuf, offsets[static_cast<std::size_t>(j)], sendcounts[j], sendtype});
  }
  return move_blocks(bridge, tag, sends, {});
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
  if (in_checking_only()) return nothing_posted(bridge);
  int tag = next_intercomm_tag(bridge);
  std::vector<BlockAt> sends;
  std::vector<BlockAt> receives;
  for (int j = 0; j < inter.remote_size(); ++j) {
    sends.push_back({j, sendbuf, sdispls[j], sendcounts[j], sendtypes[j]});
    receives.push_back({j, recvbuf, rdispls[j], recvcounts[j], recvtypes[j]});
  }
  return move_blocks(bridge, tag, sends, receives);
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
