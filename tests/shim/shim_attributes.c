/* Attributes and keyvals: the predefined attributes of MPI_COMM_WORLD (with values checked
 * against what Halyard does), user keyvals whose copy and delete callbacks run on dup, idup,
 * set, delete, free and MPI_Finalize (for MPI_COMM_SELF) the expected number of times with the
 * expected arguments, the predefined callbacks, the MPI-1 names, and MPI_ERR_KEYVAL; the same
 * for windows' and datatypes' keyvals (MPI_Win_free and MPI_Type_free delete, MPI_Type_dup
 * copies), each kind refused by the others' calls. */
#include <limits.h>
#include <mpi.h>

#include "shim_check.h"

/* What the callbacks saw. */
struct Calls {
  int copies, deletes;
  MPI_Comm last_comm;
  int last_keyval;
  void* last_value;
  int fail_with; /* a callback returns this when not MPI_SUCCESS */
};

static int parent_value = 1, child_value = 2, other_value = 3;

static int counting_copy(MPI_Comm oldcomm, int keyval, void* extra_state, void* value_in,
                         void* value_out, int* flag) {
  struct Calls* calls = (struct Calls*)extra_state;
  ++calls->copies;
  calls->last_comm = oldcomm;
  calls->last_keyval = keyval;
  calls->last_value = value_in;
  if (calls->fail_with != MPI_SUCCESS) return calls->fail_with;
  *(void**)value_out = &child_value; /* the copy gets another value than the parent */
  *flag = 1;
  return MPI_SUCCESS;
}

static int counting_delete(MPI_Comm comm, int keyval, void* value, void* extra_state) {
  struct Calls* calls = (struct Calls*)extra_state;
  ++calls->deletes;
  calls->last_comm = comm;
  calls->last_keyval = keyval;
  calls->last_value = value;
  return calls->fail_with;
}

static int world_size;

static void check_predefined(void) {
  int* value = NULL;
  int flag = 0;
  CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &value, &flag));
  CHECK(flag == 1 && value != NULL && *value == INT_MAX);
  /* The bound is real: a message with the largest tag goes through. */
  int rank = 0, sent = 77, received = 0;
  MPI_Status status;
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Sendrecv(&sent, 1, MPI_INT, rank, *value, &received, 1, MPI_INT, rank, *value,
                         MPI_COMM_WORLD, &status));
  CHECK(received == 77 && status.MPI_TAG == INT_MAX);

  CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &value, &flag));
  CHECK(flag == 1 && *value == 0);
  CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &value, &flag));
  CHECK(flag == 1 && *value == world_size);
  CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &value, &flag));
  CHECK(flag == 1 && *value == 0);
  CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_IO, &value, &flag));
  CHECK(flag == 1 && *value == MPI_ANY_SOURCE);
  CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_HOST, &value, &flag));
  CHECK(flag == 1 && *value < 0); /* no host process */
  CHECK_MPI(MPI_Attr_get(MPI_COMM_WORLD, MPI_TAG_UB, &value, &flag));
  CHECK(flag == 1 && *value == INT_MAX);

  /* Predefined attributes are read-only. */
  CHECK(MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_TAG_UB, &other_value) == MPI_ERR_KEYVAL);
  CHECK(MPI_Comm_delete_attr(MPI_COMM_WORLD, MPI_TAG_UB) == MPI_ERR_KEYVAL);
  int keyval = MPI_TAG_UB;
  CHECK(MPI_Comm_free_keyval(&keyval) == MPI_ERR_KEYVAL);
}

static void check_user_keyval(void) {
  struct Calls calls = {0, 0, MPI_COMM_NULL, 0, NULL, MPI_SUCCESS};
  int keyval = MPI_KEYVAL_INVALID, flag = -1;
  void* value = NULL;
  CHECK_MPI(MPI_Comm_create_keyval(counting_copy, counting_delete, &keyval, &calls));
  CHECK(keyval != MPI_KEYVAL_INVALID);

  MPI_Comm parent, child, grandchild;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &parent));
  CHECK_MPI(MPI_Comm_set_errhandler(parent, MPI_ERRORS_RETURN));
  CHECK_MPI(MPI_Comm_get_attr(parent, keyval, &value, &flag));
  CHECK(flag == 0);
  CHECK_MPI(MPI_Comm_set_attr(parent, keyval, &parent_value));
  CHECK_MPI(MPI_Comm_get_attr(parent, keyval, &value, &flag));
  CHECK(flag == 1 && value == &parent_value);
  CHECK(calls.copies == 0 && calls.deletes == 0);

  /* Dup: one copy call with the parent's value; the child holds what the callback gave. */
  CHECK_MPI(MPI_Comm_dup(parent, &child));
  CHECK(calls.copies == 1 && calls.last_comm == parent && calls.last_keyval == keyval &&
        calls.last_value == &parent_value);
  CHECK_MPI(MPI_Comm_get_attr(child, keyval, &value, &flag));
  CHECK(flag == 1 && value == &child_value);

  /* idup copies too. */
  MPI_Request request;
  CHECK_MPI(MPI_Comm_idup(child, &grandchild, &request));
  CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
  CHECK(calls.copies == 2 && calls.last_comm == child && calls.last_value == &child_value);

  /* Replacing a value deletes the old one. */
  CHECK_MPI(MPI_Comm_set_attr(parent, keyval, &other_value));
  CHECK(calls.deletes == 1 && calls.last_comm == parent && calls.last_value == &parent_value);
  /* Deleting runs the callback on the current value, once. */
  CHECK_MPI(MPI_Comm_delete_attr(parent, keyval));
  CHECK(calls.deletes == 2 && calls.last_value == &other_value);
  CHECK_MPI(MPI_Comm_get_attr(parent, keyval, &value, &flag));
  CHECK(flag == 0);
  CHECK(MPI_Comm_delete_attr(parent, keyval) == MPI_ERR_KEYVAL); /* nothing to delete */

  /* Freeing a communicator deletes its attributes. */
  CHECK_MPI(MPI_Comm_free(&grandchild));
  CHECK(calls.deletes == 3 && calls.last_value == &child_value && calls.last_keyval == keyval);

  /* A failing copy callback fails the dup with its code; a failing delete fails the call. */
  CHECK_MPI(MPI_Comm_set_attr(parent, keyval, &parent_value));
  calls.fail_with = MPI_ERR_OTHER;
  MPI_Comm failed = MPI_COMM_NULL;
  CHECK(MPI_Comm_dup(parent, &failed) == MPI_ERR_OTHER);
  CHECK(failed == MPI_COMM_NULL);
  CHECK(MPI_Comm_delete_attr(parent, keyval) == MPI_ERR_OTHER);
  calls.fail_with = MPI_SUCCESS;
  int copies = calls.copies, deletes = calls.deletes;

  /* A freed keyval: the handle becomes invalid, the attributes stay until deleted. */
  int stale = keyval;
  CHECK_MPI(MPI_Comm_free_keyval(&keyval));
  CHECK(keyval == MPI_KEYVAL_INVALID);
  CHECK(MPI_Comm_set_attr(child, stale, &other_value) == MPI_ERR_KEYVAL);
  CHECK(MPI_Comm_get_attr(child, MPI_KEYVAL_INVALID, &value, &flag) == MPI_ERR_KEYVAL);
  CHECK(MPI_Comm_get_attr(child, 12345, &value, &flag) == MPI_ERR_KEYVAL);
  CHECK_MPI(MPI_Comm_free(&child));
  CHECK(calls.deletes == deletes + 1 && calls.last_value == &child_value);
  CHECK(calls.copies == copies);
  CHECK_MPI(MPI_Comm_free(&parent)); /* parent_value is still set: one more delete */
  CHECK(calls.deletes == deletes + 2 && calls.last_value == &parent_value);
}

static void check_predefined_callbacks(void) {
  int null_keyval, dup_keyval, flag = -1;
  void* value = NULL;
  CHECK_MPI(
      MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &null_keyval, NULL));
  CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &dup_keyval, NULL));
  MPI_Comm parent, child;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &parent));
  CHECK_MPI(MPI_Comm_set_attr(parent, null_keyval, &parent_value));
  CHECK_MPI(MPI_Comm_set_attr(parent, dup_keyval, &other_value));
  CHECK_MPI(MPI_Comm_dup(parent, &child));
  CHECK_MPI(MPI_Comm_get_attr(child, null_keyval, &value, &flag));
  CHECK(flag == 0);
  CHECK_MPI(MPI_Comm_get_attr(child, dup_keyval, &value, &flag));
  CHECK(flag == 1 && value == &other_value);
  CHECK_MPI(MPI_Comm_free(&child));
  CHECK_MPI(MPI_Comm_free(&parent));
  CHECK_MPI(MPI_Comm_free_keyval(&null_keyval));
  CHECK_MPI(MPI_Comm_free_keyval(&dup_keyval));
}

/* The MPI-1 names. */
static void check_mpi1_names(void) {
  struct Calls calls = {0, 0, MPI_COMM_NULL, 0, NULL, MPI_SUCCESS};
  int keyval, flag = -1;
  void* value = NULL;
  CHECK_MPI(MPI_Keyval_create(MPI_NULL_COPY_FN, counting_delete, &keyval, &calls));
  MPI_Comm comm;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
  CHECK_MPI(MPI_Attr_put(comm, keyval, &parent_value));
  CHECK_MPI(MPI_Attr_get(comm, keyval, &value, &flag));
  CHECK(flag == 1 && value == &parent_value);
  CHECK_MPI(MPI_Attr_delete(comm, keyval));
  CHECK(calls.deletes == 1 && calls.last_comm == comm && calls.last_value == &parent_value);
  CHECK_MPI(MPI_Keyval_free(&keyval));
  CHECK(keyval == MPI_KEYVAL_INVALID);
  CHECK_MPI(MPI_Comm_free(&comm));
  CHECK(calls.deletes == 1);
}

/* Window keyvals: set, get, replace (deletes the old value), delete, and MPI_Win_free runs the
 * delete callback of what is left, with the window's handle; the predefined window attributes
 * stay read-only; keyvals of one kind are refused by the calls of another. */
static void check_window_keyval(void) {
  struct Calls calls = {0, 0, MPI_COMM_NULL, 0, NULL, MPI_SUCCESS};
  int keyval = MPI_KEYVAL_INVALID, flag = -1;
  void* value = NULL;
  CHECK_MPI(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, counting_delete, &keyval, &calls));
  int memory[4];
  MPI_Win win, freed;
  CHECK_MPI(
      MPI_Win_create(memory, sizeof memory, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
  CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
  CHECK_MPI(MPI_Win_get_attr(win, keyval, &value, &flag));
  CHECK(flag == 0);
  CHECK_MPI(MPI_Win_set_attr(win, keyval, &parent_value));
  CHECK_MPI(MPI_Win_get_attr(win, keyval, &value, &flag));
  CHECK(flag == 1 && value == &parent_value);
  CHECK_MPI(MPI_Win_set_attr(win, keyval, &other_value));
  CHECK(calls.deletes == 1 && calls.last_comm == win && calls.last_value == &parent_value);
  CHECK_MPI(MPI_Win_delete_attr(win, keyval));
  CHECK(calls.deletes == 2 && calls.last_value == &other_value);
  CHECK(MPI_Win_delete_attr(win, keyval) == MPI_ERR_KEYVAL); /* nothing left to delete */
  /* The predefined ones still answer, and are read-only. */
  int* size = NULL;
  CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &size, &flag));
  CHECK(flag == 1 && *size == (int)sizeof(int));
  CHECK(MPI_Win_set_attr(win, MPI_WIN_BASE, &other_value) == MPI_ERR_KEYVAL);
  /* Kinds do not mix. */
  CHECK(MPI_Comm_set_attr(MPI_COMM_WORLD, keyval, &other_value) == MPI_ERR_KEYVAL);
  CHECK(MPI_Win_get_attr(win, MPI_TAG_UB, &value, &flag) == MPI_ERR_KEYVAL);
  /* Freeing the window deletes what is set. */
  CHECK_MPI(MPI_Win_set_attr(win, keyval, &child_value));
  freed = win;
  CHECK_MPI(MPI_Win_free(&win));
  CHECK(calls.deletes == 3 && calls.last_comm == freed && calls.last_value == &child_value);
  CHECK_MPI(MPI_Win_free_keyval(&keyval));
  CHECK(keyval == MPI_KEYVAL_INVALID);
}

/* Datatype keyvals: MPI_Type_dup copies through the copy callback (the duplicate holds what it
 * gave), MPI_Type_free deletes, a failing copy callback fails the dup with its code and leaves
 * no handle, MPI_TYPE_DUP_FN copies the value itself; predefined types take attributes too. */
static void check_type_keyval(void) {
  struct Calls calls = {0, 0, MPI_COMM_NULL, 0, NULL, MPI_SUCCESS};
  int keyval = MPI_KEYVAL_INVALID, plain = MPI_KEYVAL_INVALID, flag = -1;
  void* value = NULL;
  CHECK_MPI(MPI_Type_create_keyval(counting_copy, counting_delete, &keyval, &calls));
  MPI_Datatype pair, copy = MPI_DATATYPE_NULL, failed = MPI_DATATYPE_NULL;
  CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &pair));
  CHECK_MPI(MPI_Type_get_attr(pair, keyval, &value, &flag));
  CHECK(flag == 0);
  CHECK_MPI(MPI_Type_set_attr(pair, keyval, &parent_value));
  CHECK_MPI(MPI_Type_dup(pair, &copy));
  CHECK(calls.copies == 1 && calls.last_comm == pair && calls.last_value == &parent_value);
  CHECK_MPI(MPI_Type_get_attr(copy, keyval, &value, &flag));
  CHECK(flag == 1 && value == &child_value);
  CHECK_MPI(MPI_Type_get_attr(pair, keyval, &value, &flag));
  CHECK(flag == 1 && value == &parent_value);
  calls.fail_with = MPI_ERR_OTHER;
  CHECK(MPI_Type_dup(pair, &failed) == MPI_ERR_OTHER);
  CHECK(failed == MPI_DATATYPE_NULL);
  calls.fail_with = MPI_SUCCESS;
  MPI_Datatype freed = copy;
  CHECK_MPI(MPI_Type_free(&copy));
  CHECK(calls.deletes == 1 && calls.last_comm == freed && calls.last_value == &child_value);
  CHECK_MPI(MPI_Type_delete_attr(pair, keyval));
  CHECK(calls.deletes == 2 && calls.last_value == &parent_value);
  /* The predefined copy callback, on a predefined type. */
  CHECK_MPI(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, &plain, NULL));
  CHECK_MPI(MPI_Type_set_attr(MPI_DOUBLE, plain, &other_value));
  MPI_Datatype doubles;
  CHECK_MPI(MPI_Type_dup(MPI_DOUBLE, &doubles));
  CHECK_MPI(MPI_Type_get_attr(doubles, plain, &value, &flag));
  CHECK(flag == 1 && value == &other_value);
  CHECK_MPI(MPI_Type_delete_attr(MPI_DOUBLE, plain));
  CHECK_MPI(MPI_Type_get_attr(MPI_DOUBLE, plain, &value, &flag));
  CHECK(flag == 0);
  /* Kinds do not mix. */
  CHECK(MPI_Comm_get_attr(MPI_COMM_WORLD, keyval, &value, &flag) == MPI_ERR_KEYVAL);
  CHECK(MPI_Type_set_attr(pair, MPI_TAG_UB, &other_value) == MPI_ERR_KEYVAL);
  CHECK_MPI(MPI_Type_free(&doubles));
  CHECK_MPI(MPI_Type_free(&pair));
  CHECK_MPI(MPI_Type_free_keyval(&keyval));
  CHECK_MPI(MPI_Type_free_keyval(&plain));
  CHECK(calls.deletes == 2); /* nothing was left on pair when it went */
}

/* MPI_Finalize deletes MPI_COMM_SELF's attributes first. */
static struct Calls at_finalize = {0, 0, MPI_COMM_NULL, 0, NULL, MPI_SUCCESS};

int main(int argc, char** argv) {
  CHECK_MPI(MPI_Init(&argc, &argv));
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &world_size));
  check_predefined();
  check_user_keyval();
  check_predefined_callbacks();
  check_mpi1_names();
  check_window_keyval();
  check_type_keyval();

  int keyval;
  CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, counting_delete, &keyval, &at_finalize));
  CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_SELF, keyval, &other_value));
  CHECK_MPI(MPI_Finalize());
  CHECK(at_finalize.deletes == 1 && at_finalize.last_comm == MPI_COMM_SELF &&
        at_finalize.last_value == &other_value);
  return finish_checks("shim_attributes");
}
