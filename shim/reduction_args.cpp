#include "shim/reduction_args.hpp"

#include "shim/argument_checks.hpp"
#include "shim/pair_reductions.hpp"
#include "shim/user_ops.hpp"

namespace halyard::mpi_shim {

namespace {

ReductionArgs custom_reduction(std::size_t count, const DatatypeInfo& type,
                               std::shared_ptr<const CustomOpRegistration> custom) {
  const Op op = custom->op();
  return {bytes_of(count, type), Datatype::kUint8, op, std::move(custom)};
}

}  // namespace

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
