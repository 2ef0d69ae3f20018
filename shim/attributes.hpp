// Attributes cached on communicators, and the keyvals that name them. A keyval carries the
// application's copy callback (run for each attribute when its communicator is duplicated) and
// delete callback (run when the attribute is deleted, replaced, or its communicator freed).
// The predefined keyvals (MPI_TAG_UB, ...) name read-only int values that hold for every
// communicator.
#pragma once

#include <mpi.h>

#include <map>

#include "shim/shim_state.hpp"

namespace halyard::mpi_shim {

int create_keyval(MPI_Comm_copy_attr_function* copy, MPI_Comm_delete_attr_function* remove,
                  void* extra_state);
// MPI_ERR_KEYVAL for predefined, freed or unknown keyvals. Attributes set with it stay, and
// their callbacks still run.
void free_keyval(int keyval);

void set_attribute(MPI_Comm handle, CommEntry& entry, int keyval, void* value);
// False when the communicator has no attribute for `keyval`; for predefined keyvals, `value`
// gets a pointer to the int value.
bool get_attribute(const CommEntry& entry, int keyval, void** value);
void delete_attribute(MPI_Comm handle, CommEntry& entry, int keyval);

// The attributes a duplicate of `entry` gets: each copy callback decides. A callback's error
// code fails the call (MpiError with that code).
std::map<int, void*> copied_attributes(MPI_Comm handle, const CommEntry& entry);
// Runs the delete callback of every attribute and removes them (before a communicator goes).
void delete_all_attributes(MPI_Comm handle, CommEntry& entry);

}  // namespace halyard::mpi_shim
