#include "shim/reduction_args.hpp"

#include <vector>

#include "shim/argument_checks.hpp"
#include "shim/mpi_error.hpp"
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

ReductionArgs custom_reduction(std::size_t bytes,
                               std::shared_ptr<const CustomOpRegistration> custom) {
  const Op op = custom->op();
  return {bytes, Datatype::kUint8, op, std::move(custom)};
}

}  // namespace

void ReductionArgs::keep_until_done(const Request& request) const {
  if (custom == nullptr) return;
  std::vector<HeldRegistration>& list = held();
  std::erase_if(list, [](const HeldRegistration& h) { return h.request.done(); });
  list.push_back({request, custom});
}

ReductionArgs checked_reduction(std::size_t count, MPI_Datatype datatype, const TypeObject& type,
                                MPI_Op op) {
  const std::size_t bytes = bytes_of(count, type);
  // A predefined op first: its handle is an index, where a user op's lookup is a table search
  // (the common call, MPI_SUM on MPI_DOUBLE, pays neither that nor a second look-up of the op).
  const OpInfo* predefined = find_op(op);
  if (predefined == nullptr) {
    if (UserOp* user = find_user_op(op)) {
      if (!type.contiguous_for(1) || static_cast<MPI_Aint>(type.size) != type.extent) {
        fail(MPI_ERR_OP, "a user-defined op on " + display_name(type) +
                             ", a datatype with holes: Halyard reduces packed data, which the "
                             "function would misread");
      }
      return custom_reduction(bytes,
                              user_reduction(*user, datatype, type.size, display_name(type)));
    }
  }
  const DatatypeInfo* element = nullptr;
  const OpInfo& info = checked_op(predefined, op, type, &element);
  if (info.category == OpCategory::kLocation) {
    return custom_reduction(bytes, pair_reduction(info, *element));
  }
  return {bytes / halyard::datatype_size(element->halyard), element->halyard, info.halyard,
          nullptr};
}

}  // namespace halyard::mpi_shim
