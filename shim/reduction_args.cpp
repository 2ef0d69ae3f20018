#include "shim/reduction_args.hpp"

#include <vector>

#include "shim/argument_checks.hpp"
#include "shim/pair_reductions.hpp"
#include "shim/user_ops.hpp"

namespace halyard::mpi_shim {

namespace {

// Registrations that non-blocking calls still use, with their requests. Released when found
// done by a later call: not by a completion callback, which on a request already complete runs
// only at the loop's next pass, which a run of calls on one rank (MPI_Wait on a done request
// makes none) may never make; 2,000 Iallreduce/Op_free/Wait rounds on one rank then ran out of
// custom ops. The shim's calls are funneled, so the list needs no lock. Never destroyed: its
// requests must not be released at exit, after the Runtime is gone.
struct HeldRegistration {
  Request request;
  std::shared_ptr<const CustomOpRegistration> custom;
};
std::vector<HeldRegistration>& held() {
  static auto* list = new std::vector<HeldRegistration>;
  return *list;
}

ReductionArgs custom_reduction(std::size_t count, const DatatypeInfo& type,
                               std::shared_ptr<const CustomOpRegistration> custom) {
  const Op op = custom->op();
  return {bytes_of(count, type), Datatype::kUint8, op, std::move(custom)};
}

}  // namespace

void ReductionArgs::keep_until_done(const Request& request) const {
  if (custom == nullptr) return;
  std::vector<HeldRegistration>& list = held();
  std::erase_if(list, [](const HeldRegistration& h) { return h.request.done(); });
  list.push_back({request, custom});
}

ReductionArgs checked_reduction(int count, MPI_Datatype datatype, MPI_Op op) {
  std::size_t n = checked_count(count);
  const DatatypeInfo& type = checked_datatype(datatype);
  if (UserOp* user = find_user_op(op)) {
    return custom_reduction(n, type, user_reduction(*user, datatype, type));
  }
  const OpInfo& info = checked_op(op, type);
  if (info.category == OpCategory::kLocation) {
    return custom_reduction(n, type, pair_reduction(info, type));
  }
  return {n, type.halyard, info.halyard, nullptr};
}

}  // namespace halyard::mpi_shim
