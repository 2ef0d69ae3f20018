// Attributes cached on communicators, windows and datatypes, and the keyvals that name them. A
// keyval is made for one kind of object (MPI_Comm_create_keyval, MPI_Win_create_keyval,
// MPI_Type_create_keyval) and carries the application's copy callback (run for each attribute
// when its communicator or datatype is duplicated; windows are never duplicated) and delete
// callback (run when the attribute is deleted, replaced, or its object freed). The three kinds'
// callbacks have one C type here, since every handle is an int. The predefined keyvals
// (MPI_TAG_UB, ...) name read-only int values that hold for every communicator; the windows'
// predefined ones (MPI_WIN_BASE, ...) are answered by MPI_Win_get_attr itself.
#pragma once

#include <mpi.h>

#include <map>

#include "shim/shim_state.hpp"

namespace halyard::mpi_shim {

// What a keyval is made for.
enum class AttributeHost { kComm, kWin, kType };

using AttributeMap = std::map<int, void*>;  // keyval -> value

int create_keyval(AttributeHost host, MPI_Comm_copy_attr_function* copy,
                  MPI_Comm_delete_attr_function* remove, void* extra_state);
// MPI_ERR_KEYVAL for predefined, freed or unknown keyvals and those of another kind. Attributes
// set with it stay, and their callbacks still run.
void free_keyval(AttributeHost host, int keyval);

// `handle` is the object's, as the callbacks receive it.
void set_attribute(AttributeHost host, int handle, AttributeMap& attributes, int keyval,
                   void* value);
// False when the object has no attribute for `keyval`; for the communicators' predefined
// keyvals, `value` gets a pointer to the int value.
bool get_attribute(AttributeHost host, const AttributeMap& attributes, int keyval, void** value);
void delete_attribute(AttributeHost host, int handle, AttributeMap& attributes, int keyval);

// The attributes a duplicate gets: each copy callback decides. A callback's error code fails
// the call (MpiError with that code).
AttributeMap copied_attributes(int handle, const AttributeMap& attributes);
// Runs the delete callback of every attribute and removes them (before an object goes).
void delete_all_attributes(int handle, AttributeMap& attributes);

// The attributes of datatype `handle` (kept here, not in the shared TypeObject: they belong to
// the handle, and a copied TypeObject must not carry them); forget_type_attributes() after they
// were deleted, when the handle is freed.
AttributeMap& type_attributes(MPI_Datatype handle);
void forget_type_attributes(MPI_Datatype handle);

}  // namespace halyard::mpi_shim
