// The public collective API (collectives/collectives.hpp): each call becomes one CollArgs,
// validated once (core/validate.hpp), and takes the common path (post_call.hpp).
#include "collectives/collectives.hpp"

#include "collectives/core/validate.hpp"
#include "collectives/guard/call_guard.hpp"
#include "collectives/post_call.hpp"
#include "collectives/select/selection.hpp"

namespace halyard {

using core::CollArgs;
using core::Collective;

Request post_call(const CollArgs& args) {
  return guard::guarded_call(args, [&] {
    const select::Choice choice = select::choose(args);
    return choice.entry->post(args, choice.params);
  });
}

namespace {

Request validated_call(CollArgs args) {
  core::validate(args);
  return post_call(args);
}

void blocking_call(CollArgs args) {
  args.blocking = true;
  core::validate(args);
  post_call(args).wait_ok();
}

}  // namespace

Request ibcast(const Communicator& comm, void* buffer, std::size_t count, Datatype type, int root) {
  return validated_call({Collective::kBcast, comm, buffer, buffer, count, {}, {}, type, {}, root});
}

Request ireduce(const Communicator& comm, const void* send, void* recv, std::size_t count,
                Datatype type, Op op, int root) {
  return validated_call({Collective::kReduce, comm, send, recv, count, {}, {}, type, op, root});
}

Request iallreduce(const Communicator& comm, const void* send, void* recv, std::size_t count,
                   Datatype type, Op op) {
  return validated_call({Collective::kAllreduce, comm, send, recv, count, {}, {}, type, op});
}

Request iallgather(const Communicator& comm, const void* send, void* recv, std::size_t count,
                   Datatype type) {
  return validated_call({Collective::kAllgather, comm, send, recv, count, {}, {}, type});
}

Request igather(const Communicator& comm, const void* send, void* recv, std::size_t count,
                Datatype type, int root) {
  return validated_call({Collective::kGather, comm, send, recv, count, {}, {}, type, {}, root});
}

Request iscatter(const Communicator& comm, const void* send, void* recv, std::size_t count,
                 Datatype type, int root) {
  return validated_call({Collective::kScatter, comm, send, recv, count, {}, {}, type, {}, root});
}

Request ialltoall(const Communicator& comm, const void* send, void* recv, std::size_t count,
                  Datatype type) {
  return validated_call({Collective::kAlltoall, comm, send, recv, count, {}, {}, type});
}

Request ibarrier(const Communicator& comm) {
  return validated_call({Collective::kBarrier, comm});
}

void bcast(const Communicator& comm, void* buffer, std::size_t count, Datatype type, int root) {
  blocking_call({Collective::kBcast, comm, buffer, buffer, count, {}, {}, type, {}, root});
}

void reduce(const Communicator& comm, const void* send, void* recv, std::size_t count,
            Datatype type, Op op, int root) {
  blocking_call({Collective::kReduce, comm, send, recv, count, {}, {}, type, op, root});
}

void allreduce(const Communicator& comm, const void* send, void* recv, std::size_t count,
               Datatype type, Op op) {
  blocking_call({Collective::kAllreduce, comm, send, recv, count, {}, {}, type, op});
}

void allgather(const Communicator& comm, const void* send, void* recv, std::size_t count,
               Datatype type) {
  blocking_call({Collective::kAllgather, comm, send, recv, count, {}, {}, type});
}

void gather(const Communicator& comm, const void* send, void* recv, std::size_t count,
            Datatype type, int root) {
  blocking_call({Collective::kGather, comm, send, recv, count, {}, {}, type, {}, root});
}

void scatter(const Communicator& comm, const void* send, void* recv, std::size_t count,
             Datatype type, int root) {
  blocking_call({Collective::kScatter, comm, send, recv, count, {}, {}, type, {}, root});
}

void alltoall(const Communicator& comm, const void* send, void* recv, std::size_t count,
              Datatype type) {
  blocking_call({Collective::kAlltoall, comm, send, recv, count, {}, {}, type});
}

void barrier(const Communicator& comm) {
  blocking_call({Collective::kBarrier, comm});
}

}  // namespace halyard
