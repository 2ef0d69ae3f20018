// MPI calls on keyvals and the attributes of communicators, windows and datatypes, the
// predefined callbacks, and the MPI-1 names (MPI_Keyval_create, MPI_Attr_*) that older programs
// still call. MPI_Win_get_attr is with the windows (api_windows.cpp): it answers the predefined
// window attributes too.
#include <mpi.h>

#include "shim/argument_checks.hpp"
#include "shim/attributes.hpp"
#include "shim/call_guard.hpp"
#include "shim/window_table.hpp"

using namespace halyard::mpi_shim;

extern "C" {

int MPI_COMM_NULL_COPY_FN(MPI_Comm, int, void*, void*, void*, int* flag) {
  *flag = 0;
  return MPI_SUCCESS;
}

int MPI_COMM_DUP_FN(MPI_Comm, int, void*, void* attribute_val_in, void* attribute_val_out,
                    int* flag) {
  *static_cast<void**>(attribute_val_out) = attribute_val_in;
  *flag = 1;
  return MPI_SUCCESS;
}

int MPI_COMM_NULL_DELETE_FN(MPI_Comm, int, void*, void*) {
  return MPI_SUCCESS;
}

int MPI_Comm_create_keyval(MPI_Comm_copy_attr_function* comm_copy_attr_fn,
                           MPI_Comm_delete_attr_function* comm_delete_attr_fn, int* comm_keyval,
                           void* extra_state) {
  return guarded("MPI_Comm_create_keyval", MPI_COMM_WORLD, [&] {
    check_out(comm_keyval, "comm_keyval");
    *comm_keyval =
        create_keyval(AttributeHost::kComm, comm_copy_attr_fn, comm_delete_attr_fn, extra_state);
  });
}

int MPI_Comm_free_keyval(int* comm_keyval) {
  return guarded("MPI_Comm_free_keyval", MPI_COMM_WORLD, [&] {
    check_out(comm_keyval, "comm_keyval");
    free_keyval(AttributeHost::kComm, *comm_keyval);
    *comm_keyval = MPI_KEYVAL_INVALID;
  });
}

int MPI_Comm_set_attr(MPI_Comm comm, int comm_keyval, void* attribute_val) {
  return guarded("MPI_Comm_set_attr", comm, [&] {
    set_attribute(AttributeHost::kComm, comm, shim_state().comm(comm).attributes, comm_keyval,
                  attribute_val);
  });
}

int MPI_Comm_get_attr(MPI_Comm comm, int comm_keyval, void* attribute_val, int* flag) {
  return guarded("MPI_Comm_get_attr", comm, [&] {
    const CommEntry& entry = shim_state().comm(comm);
    check_out(attribute_val, "attribute_val");
    check_out(flag, "flag");
    *flag = get_attribute(AttributeHost::kComm, entry.attributes, comm_keyval,
                          static_cast<void**>(attribute_val));
  });
}

int MPI_Comm_delete_attr(MPI_Comm comm, int comm_keyval) {
  return guarded("MPI_Comm_delete_attr", comm, [&] {
    delete_attribute(AttributeHost::kComm, comm, shim_state().comm(comm).attributes, comm_keyval);
  });
}

// The windows' and datatypes' predefined callbacks are the communicators' (every handle is an
// int), under the names MPI gives them.
int MPI_WIN_NULL_COPY_FN(MPI_Win win, int keyval, void* extra, void* in, void* out, int* flag) {
  return MPI_COMM_NULL_COPY_FN(win, keyval, extra, in, out, flag);
}

int MPI_WIN_DUP_FN(MPI_Win win, int keyval, void* extra, void* in, void* out, int* flag) {
  return MPI_COMM_DUP_FN(win, keyval, extra, in, out, flag);
}

int MPI_WIN_NULL_DELETE_FN(MPI_Win win, int keyval, void* value, void* extra) {
  return MPI_COMM_NULL_DELETE_FN(win, keyval, value, extra);
}

int MPI_Win_create_keyval(MPI_Win_copy_attr_function* win_copy_attr_fn,
                          MPI_Win_delete_attr_function* win_delete_attr_fn, int* win_keyval,
                          void* extra_state) {
  return guarded("MPI_Win_create_keyval", MPI_COMM_WORLD, [&] {
    check_out(win_keyval, "win_keyval");
    *win_keyval =
        create_keyval(AttributeHost::kWin, win_copy_attr_fn, win_delete_attr_fn, extra_state);
  });
}

int MPI_Win_free_keyval(int* win_keyval) {
  return guarded("MPI_Win_free_keyval", MPI_COMM_WORLD, [&] {
    check_out(win_keyval, "win_keyval");
    free_keyval(AttributeHost::kWin, *win_keyval);
    *win_keyval = MPI_KEYVAL_INVALID;
  });
}

int MPI_Win_set_attr(MPI_Win win, int win_keyval, void* attribute_val) {
  return window_call("MPI_Win_set_attr", win, [&] {
    set_attribute(AttributeHost::kWin, win, checked_window(win).attributes, win_keyval,
                  attribute_val);
  });
}

int MPI_Win_delete_attr(MPI_Win win, int win_keyval) {
  return window_call("MPI_Win_delete_attr", win, [&] {
    delete_attribute(AttributeHost::kWin, win, checked_window(win).attributes, win_keyval);
  });
}

int MPI_TYPE_NULL_COPY_FN(MPI_Datatype type, int keyval, void* extra, void* in, void* out,
                          int* flag) {
  return MPI_COMM_NULL_COPY_FN(type, keyval, extra, in, out, flag);
}

int MPI_TYPE_DUP_FN(MPI_Datatype type, int keyval, void* extra, void* in, void* out, int* flag) {
  return MPI_COMM_DUP_FN(type, keyval, extra, in, out, flag);
}

int MPI_TYPE_NULL_DELETE_FN(MPI_Datatype type, int keyval, void* value, void* extra) {
  return MPI_COMM_NULL_DELETE_FN(type, keyval, value, extra);
}

int MPI_Type_create_keyval(MPI_Type_copy_attr_function* type_copy_attr_fn,
                           MPI_Type_delete_attr_function* type_delete_attr_fn, int* type_keyval,
                           void* extra_state) {
  return guarded("MPI_Type_create_keyval", MPI_COMM_WORLD, [&] {
    check_out(type_keyval, "type_keyval");
    *type_keyval =
        create_keyval(AttributeHost::kType, type_copy_attr_fn, type_delete_attr_fn, extra_state);
  });
}

int MPI_Type_free_keyval(int* type_keyval) {
  return guarded("MPI_Type_free_keyval", MPI_COMM_WORLD, [&] {
    check_out(type_keyval, "type_keyval");
    free_keyval(AttributeHost::kType, *type_keyval);
    *type_keyval = MPI_KEYVAL_INVALID;
  });
}

int MPI_Type_set_attr(MPI_Datatype datatype, int type_keyval, void* attribute_val) {
  return guarded("MPI_Type_set_attr", MPI_COMM_WORLD, [&] {
    checked_any_datatype(datatype);
    set_attribute(AttributeHost::kType, datatype, type_attributes(datatype), type_keyval,
                  attribute_val);
  });
}

int MPI_Type_get_attr(MPI_Datatype datatype, int type_keyval, void* attribute_val, int* flag) {
  return guarded("MPI_Type_get_attr", MPI_COMM_WORLD, [&] {
    checked_any_datatype(datatype);
    check_out(attribute_val, "attribute_val");
    check_out(flag, "flag");
    *flag = get_attribute(AttributeHost::kType, type_attributes(datatype), type_keyval,
                          static_cast<void**>(attribute_val));
  });
}

int MPI_Type_delete_attr(MPI_Datatype datatype, int type_keyval) {
  return guarded("MPI_Type_delete_attr", MPI_COMM_WORLD, [&] {
    checked_any_datatype(datatype);
    delete_attribute(AttributeHost::kType, datatype, type_attributes(datatype), type_keyval);
  });
}

// The MPI-1 names are the same calls (their errors name the MPI-2 call, as in Open MPI).
int MPI_Keyval_create(MPI_Copy_function* copy_fn, MPI_Delete_function* delete_fn, int* keyval,
                      void* extra_state) {
  return MPI_Comm_create_keyval(copy_fn, delete_fn, keyval, extra_state);
}

int MPI_Keyval_free(int* keyval) {
  return MPI_Comm_free_keyval(keyval);
}

int MPI_Attr_put(MPI_Comm comm, int keyval, void* attribute_val) {
  return MPI_Comm_set_attr(comm, keyval, attribute_val);
}

int MPI_Attr_get(MPI_Comm comm, int keyval, void* attribute_val, int* flag) {
  return MPI_Comm_get_attr(comm, keyval, attribute_val, flag);
}

int MPI_Attr_delete(MPI_Comm comm, int keyval) {
  return MPI_Comm_delete_attr(comm, keyval);
}

}  // extern "C"
