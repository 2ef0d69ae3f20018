// An MPI_Win: the one-sided Window of rma/window.hpp, which moves the data and keeps the epochs,
// and what MPI adds to it (error handler, name, info, the attributes MPI_Win_get_attr points
// at), with the translations between MPI's values and the window's.
#pragma once

#include <mpi.h>

#include <map>
#include <string>

#include "rma/window.hpp"
#include "shim/info_objects.hpp"
#include "shim/mpi_error.hpp"

namespace halyard::mpi_shim {

class WindowObject : public Window {
 public:
  // Collective over `comm`; `mpi_flavor` one of MPI_WIN_FLAVOR_*.
  WindowObject(const Communicator& comm, int mpi_flavor, void* base, MPI_Aint size, int disp_unit,
               InfoEntries hints);

  MPI_Errhandler errhandler = MPI_ERRORS_ARE_FATAL;
  std::string name;
  std::map<int, void*> attributes;  // the application's (shim/attributes.hpp)
  InfoEntries info;
  // What MPI_Win_get_attr points at for MPI_WIN_SIZE, DISP_UNIT, CREATE_FLAVOR and MODEL.
  struct {
    MPI_Aint size;
    int disp_unit;
    int flavor;
    int model;
  } attribute_values{};
};

// The window's accumulate function for MPI: AccumulateCode::op an MPI_Op, element the handle of
// a predefined datatype (MAXLOC / MINLOC on the pair types included).
void accumulate_mpi_handles(AccumulateCode code, std::byte* target, const std::byte* data,
                            std::size_t bytes);

// The MPI_Op of an accumulate as it travels (MPI_REPLACE and MPI_NO_OP as the window's own).
AccumulateCode accumulate_code(MPI_Op op, MPI_Datatype element);

// The MPI error a window's refusal is (kSync -> MPI_ERR_RMA_SYNC, ...).
MpiError mpi_error_of(const WindowError& error);

}  // namespace halyard::mpi_shim
