#include "collectives/planned_call.hpp"

#include "collectives/post_call.hpp"
#include "runtime/support/error.hpp"

namespace halyard {

PlannedCall::PlannedCall(const Communicator& comm, const core::CollArgs& checked)
    : comm_(comm),
      args_{.collective = checked.collective,
            .comm = comm_,
            .send = checked.send,
            .recv = checked.recv,
            .count = checked.count,
            .type = checked.type,
            .op = checked.op,
            .root = checked.root,
            .takes_null_request = checked.takes_null_request,
            .memory = checked.memory,
            .bytes = checked.bytes},
      choice_(select::choose(args_)) {
  if (checked.counts != nullptr || checked.send_counts != nullptr) {
    throw Error(ErrorCode::kInternal, "PlannedCall: a call with count arrays cannot be planned");
  }
}

Request PlannedCall::post() const {
  return post_chosen(args_, choice_);
}

}  // namespace halyard
