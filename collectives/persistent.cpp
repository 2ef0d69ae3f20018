// The public persistent collectives (persistent.hpp): each *_init builds the call's CollArgs as
// its i-call does (collectives.cpp), validates it once and plans it.
#include "collectives/persistent.hpp"

#include "collectives/call_args.hpp"
#include "collectives/core/validate.hpp"
#include "collectives/planned_call.hpp"
#include "runtime/support/error.hpp"

namespace halyard {

using core::CollArgs;
using core::Collective;

namespace {

PersistentCollective planned(CollArgs args) {
  core::validate(args);
  return PersistentCollective(std::make_shared<const PlannedCall>(args.comm, args));
}

}  // namespace

PersistentCollective::PersistentCollective(std::shared_ptr<const PlannedCall> plan)
    : plan_(std::move(plan)) {}

Request PersistentCollective::start() {
  if (plan_ == nullptr) {
    throw Error(ErrorCode::kInvalidArgument,
                "PersistentCollective::start: an empty persistent collective (no *_init made it)");
  }
  if (active()) {
    throw Error(ErrorCode::kInvalidArgument,
                "PersistentCollective::start: the previous round has not completed (wait for its "
                "Request first)");
  }
  last_ = plan_->post();
  return last_;
}

PersistentCollective bcast_init(const Communicator& comm, void* buffer, std::size_t count,
                                Datatype type, int root) {
  return planned(call_args::bcast(comm, buffer, count, type, root));
}

PersistentCollective reduce_init(const Communicator& comm, const void* send, void* recv,
                                 std::size_t count, Datatype type, Op op, int root) {
  return planned(call_args::reducing(Collective::kReduce, comm, send, recv, count, type, op, root));
}

PersistentCollective allreduce_init(const Communicator& comm, const void* send, void* recv,
                                    std::size_t count, Datatype type, Op op) {
  return planned(call_args::reducing(Collective::kAllreduce, comm, send, recv, count, type, op));
}

PersistentCollective allgather_init(const Communicator& comm, const void* send, void* recv,
                                    std::size_t count, Datatype type) {
  return planned(call_args::moving(Collective::kAllgather, comm, send, recv, count, type));
}

PersistentCollective gather_init(const Communicator& comm, const void* send, void* recv,
                                 std::size_t count, Datatype type, int root) {
  return planned(call_args::moving(Collective::kGather, comm, send, recv, count, type, root));
}

PersistentCollective scatter_init(const Communicator& comm, const void* send, void* recv,
                                  std::size_t count, Datatype type, int root) {
  return planned(call_args::moving(Collective::kScatter, comm, send, recv, count, type, root));
}

PersistentCollective alltoall_init(const Communicator& comm, const void* send, void* recv,
                                   std::size_t count, Datatype type) {
  return planned(call_args::moving(Collective::kAlltoall, comm, send, recv, count, type));
}

PersistentCollective barrier_init(const Communicator& comm) {
  return planned(call_args::barrier(comm));
}

PersistentCollective reduce_scatter_block_init(const Communicator& comm, const void* send,
                                               void* recv, std::size_t count, Datatype type,
                                               Op op) {
  return planned(
      call_args::reducing(Collective::kReduceScatterBlock, comm, send, recv, count, type, op));
}

PersistentCollective scan_init(const Communicator& comm, const void* send, void* recv,
                               std::size_t count, Datatype type, Op op) {
  return planned(call_args::reducing(Collective::kScan, comm, send, recv, count, type, op));
}

PersistentCollective exscan_init(const Communicator& comm, const void* send, void* recv,
                                 std::size_t count, Datatype type, Op op) {
  return planned(call_args::reducing(Collective::kExscan, comm, send, recv, count, type, op));
}

}  // namespace halyard
