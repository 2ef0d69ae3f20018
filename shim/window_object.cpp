#include "shim/window_object.hpp"

#include "runtime/datatypes/reduction.hpp"
#include "shim/datatype_table.hpp"
#include "shim/reduction_args.hpp"

namespace halyard::mpi_shim {

namespace {

WindowFlavor flavor_of(int mpi_flavor) {
  switch (mpi_flavor) {
    case MPI_WIN_FLAVOR_ALLOCATE:
      return WindowFlavor::kAllocate;
    case MPI_WIN_FLAVOR_SHARED:
      return WindowFlavor::kShared;
    case MPI_WIN_FLAVOR_DYNAMIC:
      return WindowFlavor::kDynamic;
    default:
      return WindowFlavor::kCreate;
  }
}

}  // namespace

WindowObject::WindowObject(const Communicator& comm, int mpi_flavor, void* base, MPI_Aint size,
                           int disp_unit, InfoEntries hints)
    : Window(comm, flavor_of(mpi_flavor), base, size, disp_unit, accumulate_mpi_handles),
      info(std::move(hints)) {
  attribute_values = {bytes(), disp_unit, mpi_flavor, MPI_WIN_UNIFIED};
}

void accumulate_mpi_handles(AccumulateCode code, std::byte* target, const std::byte* data,
                            std::size_t bytes) {
  const MPI_Datatype element = code.element;
  const MPI_Op op = code.op;
  const TypeObject* type = datatype_table().find(element);
  ReductionArgs reduction = checked_reduction(bytes / type->size, element, *type, op);
  reduce_into(reduction.op, reduction.type, target, data, reduction.count);
}

AccumulateCode accumulate_code(MPI_Op op, MPI_Datatype element) {
  if (op == MPI_REPLACE) return {kReplaceOpCode, element};
  if (op == MPI_NO_OP) return {kNoOpCode, element};
  return {op, element};
}

MpiError mpi_error_of(const WindowError& error) {
  int error_class = MPI_ERR_INTERN;
  switch (error.fault()) {
    case WindowFault::kSync:
      error_class = MPI_ERR_RMA_SYNC;
      break;
    case WindowFault::kRange:
      error_class = MPI_ERR_RMA_RANGE;
      break;
    case WindowFault::kSize:
      error_class = MPI_ERR_TYPE;
      break;
    case WindowFault::kFlavor:
      error_class = MPI_ERR_RMA_FLAVOR;
      break;
    case WindowFault::kAttach:
      error_class = MPI_ERR_RMA_ATTACH;
      break;
    case WindowFault::kShared:
      error_class = MPI_ERR_RMA_SHARED;
      break;
    case WindowFault::kRank:
      error_class = MPI_ERR_RANK;
      break;
    case WindowFault::kFreed:
      error_class = MPI_ERR_WIN;
      break;
    case WindowFault::kNoMemory:
      error_class = MPI_ERR_NO_MEM;
      break;
  }
  return MpiError{error_class, error.what()};
}

}  // namespace halyard::mpi_shim
