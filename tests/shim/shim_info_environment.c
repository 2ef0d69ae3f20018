/* Info objects (keys in order, truncation, MPI_Info_get_string, MPI_INFO_ENV, the info error
 * classes), user error handlers (called with the communicator and the class, by failing calls
 * and by MPI_Comm_call_errhandler, also after MPI_Errhandler_free; the MPI-1 names), added
 * error classes and codes, thread level, library version and MPI_Alloc_mem. */
#include <mpi.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "shim_check.h"

static int world_size;

static void check_info_calls(void) {
  MPI_Info info, copy;
  int nkeys = -1, flag = -1, length = -1;
  char key[MPI_MAX_INFO_KEY], value[MPI_MAX_INFO_VAL];
  CHECK_MPI(MPI_Info_create(&info));
  CHECK_MPI(MPI_Info_get_nkeys(info, &nkeys));
  CHECK(nkeys == 0);
  CHECK_MPI(MPI_Info_set(info, "zeta", "1"));
  CHECK_MPI(MPI_Info_set(info, "alpha", "two"));
  CHECK_MPI(MPI_Info_set(info, "mid", "three"));
  CHECK_MPI(MPI_Info_set(info, "zeta", "one")); /* a new value keeps the key's place */
  CHECK_MPI(MPI_Info_get_nkeys(info, &nkeys));
  CHECK(nkeys == 3);
  const char* order[] = {"zeta", "alpha", "mid"};
  for (int i = 0; i < 3; ++i) {
    CHECK_MPI(MPI_Info_get_nthkey(info, i, key));
    CHECK(strcmp(key, order[i]) == 0);
  }
  CHECK_MPI(MPI_Info_get(info, "zeta", MPI_MAX_INFO_VAL - 1, value, &flag));
  CHECK(flag == 1 && strcmp(value, "one") == 0);
  CHECK_MPI(MPI_Info_get(info, "mid", 2, value, &flag)); /* valuelen 2: "th" */
  CHECK(flag == 1 && strcmp(value, "th") == 0);
  CHECK_MPI(MPI_Info_get_valuelen(info, "mid", &length, &flag));
  CHECK(flag == 1 && length == 5);
  CHECK_MPI(MPI_Info_get(info, "absent", 10, value, &flag));
  CHECK(flag == 0);
  CHECK_MPI(MPI_Info_get_valuelen(info, "absent", &length, &flag));
  CHECK(flag == 0);

  /* MPI_Info_get_string: buflen 0 asks for the size (with the NUL); a short buffer truncates. */
  int buflen = 0;
  CHECK_MPI(MPI_Info_get_string(info, "alpha", &buflen, value, &flag));
  CHECK(flag == 1 && buflen == 4);
  buflen = 3;
  CHECK_MPI(MPI_Info_get_string(info, "alpha", &buflen, value, &flag));
  CHECK(flag == 1 && buflen == 4 && strcmp(value, "tw") == 0);
  buflen = 7;
  CHECK_MPI(MPI_Info_get_string(info, "absent", &buflen, value, &flag));
  CHECK(flag == 0 && buflen == 7);

  /* Dup is independent; delete shifts the order. */
  CHECK_MPI(MPI_Info_dup(info, &copy));
  CHECK_MPI(MPI_Info_delete(info, "zeta"));
  CHECK_MPI(MPI_Info_get_nthkey(info, 0, key));
  CHECK(strcmp(key, "alpha") == 0);
  CHECK_MPI(MPI_Info_get_nkeys(copy, &nkeys));
  CHECK(nkeys == 3);
  CHECK_MPI(MPI_Info_get(copy, "zeta", 10, value, &flag));
  CHECK(flag == 1 && strcmp(value, "one") == 0);

  /* Error classes. */
  CHECK(MPI_Info_delete(info, "zeta") == MPI_ERR_INFO_NOKEY);
  CHECK(MPI_Info_set(info, "", "x") == MPI_ERR_INFO_KEY);
  char long_key[MPI_MAX_INFO_KEY + 1];
  memset(long_key, 'k', MPI_MAX_INFO_KEY);
  long_key[MPI_MAX_INFO_KEY] = '\0';
  CHECK(MPI_Info_set(info, long_key, "x") == MPI_ERR_INFO_KEY);
  CHECK(MPI_Info_get(info, long_key, 10, value, &flag) == MPI_ERR_INFO_KEY);
  long_key[MPI_MAX_INFO_KEY - 1] = '\0'; /* MPI_MAX_INFO_KEY - 1 characters: allowed */
  CHECK_MPI(MPI_Info_set(info, long_key, "x"));
  CHECK(MPI_Info_set(info, "k", "") == MPI_ERR_INFO_VALUE);
  CHECK(MPI_Info_get_nthkey(info, 99, key) == MPI_ERR_ARG);
  CHECK(MPI_Info_get_nkeys(MPI_INFO_NULL, &nkeys) == MPI_ERR_INFO);
  MPI_Info stale = copy;
  CHECK_MPI(MPI_Info_free(&copy));
  CHECK(copy == MPI_INFO_NULL);
  CHECK(MPI_Info_get_nkeys(stale, &nkeys) == MPI_ERR_INFO);
  CHECK(MPI_Info_free(&copy) == MPI_ERR_INFO);

  /* Hints on a communicator come back from MPI_Comm_get_info. */
  MPI_Comm comm;
  MPI_Info used;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
  CHECK_MPI(MPI_Comm_set_info(comm, info));
  CHECK_MPI(MPI_Info_free(&info));
  CHECK_MPI(MPI_Comm_get_info(comm, &used));
  CHECK_MPI(MPI_Info_get(used, "mid", 10, value, &flag));
  CHECK(flag == 1 && strcmp(value, "three") == 0);
  CHECK_MPI(MPI_Info_free(&used));
  CHECK_MPI(MPI_Comm_free(&comm));

  /* MPI_INFO_ENV describes the job and cannot be changed or freed. */
  CHECK_MPI(MPI_Info_get(MPI_INFO_ENV, "maxprocs", 10, value, &flag));
  CHECK(flag == 1 && atoi(value) == world_size);
  CHECK_MPI(MPI_Info_get(MPI_INFO_ENV, "thread_level", 30, value, &flag));
  CHECK(flag == 1 && strcmp(value, "MPI_THREAD_MULTIPLE") == 0);
  CHECK_MPI(MPI_Info_get(MPI_INFO_ENV, "command", MPI_MAX_INFO_VAL - 1, value, &flag));
  CHECK(flag == 1 && strstr(value, "shim_info_environment") != NULL);
  CHECK(MPI_Info_set(MPI_INFO_ENV, "a", "b") == MPI_ERR_INFO);
  MPI_Info env = MPI_INFO_ENV;
  CHECK(MPI_Info_free(&env) == MPI_ERR_INFO);
}

/* What the user handler saw. */
static int handler_calls, handler_code;
static MPI_Comm handler_comm;

static void recording_handler(MPI_Comm* comm, int* code, ...) {
  ++handler_calls;
  handler_comm = *comm;
  handler_code = *code;
}

static void check_error_handlers(void) {
  MPI_Comm comm, other;
  MPI_Errhandler handler, got;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
  CHECK_MPI(MPI_Comm_create_errhandler(recording_handler, &handler));
  CHECK_MPI(MPI_Comm_set_errhandler(comm, handler));
  CHECK_MPI(MPI_Comm_get_errhandler(comm, &got));
  CHECK(got == handler);

  /* A failing call: the handler gets the communicator and the class, the call returns it. */
  int value = 0;
  CHECK(MPI_Bcast(&value, 1, MPI_INT, world_size + 3, comm) == MPI_ERR_ROOT);
  CHECK(handler_calls == 1 && handler_comm == comm && handler_code == MPI_ERR_ROOT);
  /* Calls on other communicators are not its business. */
  CHECK(MPI_Bcast(&value, -1, MPI_INT, 0, MPI_COMM_WORLD) == MPI_ERR_COUNT);
  CHECK(handler_calls == 1);

  /* MPI_Comm_call_errhandler: the handler runs, the call succeeds. */
  CHECK_MPI(MPI_Comm_call_errhandler(comm, MPI_ERR_OTHER));
  CHECK(handler_calls == 2 && handler_comm == comm && handler_code == MPI_ERR_OTHER);
  CHECK_MPI(MPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_OTHER)); /* MPI_ERRORS_RETURN */
  CHECK(handler_calls == 2);

  /* Duplicates inherit it; after MPI_Errhandler_free it still serves where it is set. */
  CHECK_MPI(MPI_Comm_dup(comm, &other));
  MPI_Errhandler stale = handler;
  CHECK_MPI(MPI_Errhandler_free(&handler));
  CHECK(handler == MPI_ERRHANDLER_NULL);
  CHECK(MPI_Send(&value, 1, MPI_INT, world_size, 0, other) == MPI_ERR_RANK);
  CHECK(handler_calls == 3 && handler_comm == other && handler_code == MPI_ERR_RANK);
  CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, stale) == MPI_ERR_ARG);
  CHECK(MPI_Errhandler_free(&stale) == MPI_ERR_ARG);

  /* Freeing what MPI_Comm_get_errhandler gave for a predefined handler is allowed. */
  CHECK_MPI(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &got));
  CHECK(got == MPI_ERRORS_RETURN);
  CHECK_MPI(MPI_Errhandler_free(&got));
  CHECK(got == MPI_ERRHANDLER_NULL);
  CHECK(MPI_Comm_create_errhandler(NULL, &got) == MPI_ERR_ARG);

  /* The MPI-1 names. */
  CHECK_MPI(MPI_Errhandler_create(recording_handler, &handler));
  CHECK_MPI(MPI_Errhandler_set(other, handler));
  CHECK_MPI(MPI_Errhandler_get(other, &got));
  CHECK(got == handler);
  CHECK(MPI_Barrier(MPI_COMM_NULL) == MPI_ERR_COMM); /* world's handler: MPI_ERRORS_RETURN */
  CHECK(handler_calls == 3);
  CHECK_MPI(MPI_Errhandler_free(&handler));

  /* Added classes and codes reach handlers, MPI_Error_class and MPI_Error_string. */
  int new_class = -1, new_code = -1, cls = -1, length = 0, *last_used = NULL, flag = 0;
  char text[MPI_MAX_ERROR_STRING];
  CHECK_MPI(MPI_Add_error_class(&new_class));
  CHECK(new_class > MPI_ERR_LASTCODE);
  CHECK_MPI(MPI_Add_error_code(new_class, &new_code));
  CHECK(new_code > new_class);
  CHECK_MPI(MPI_Add_error_string(new_code, "solver diverged"));
  CHECK_MPI(MPI_Error_class(new_code, &cls));
  CHECK(cls == new_class);
  CHECK_MPI(MPI_Error_string(new_code, text, &length));
  CHECK(strcmp(text, "solver diverged") == 0 && length == 15);
  CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &last_used, &flag));
  CHECK(flag == 1 && *last_used == new_code);
  CHECK_MPI(MPI_Comm_call_errhandler(other, new_code));
  CHECK(handler_calls == 4 && handler_code == new_code);
  CHECK(MPI_Add_error_code(new_code + 100, &cls) == MPI_ERR_ARG);
  CHECK(MPI_Add_error_string(MPI_ERR_ROOT, "mine") == MPI_ERR_ARG);

  CHECK_MPI(MPI_Comm_free(&other));
  CHECK_MPI(MPI_Comm_free(&comm));
}

static void* ask_if_main(void* flag) {
  MPI_Is_thread_main((int*)flag);
  return NULL;
}

static void check_environment(void) {
  int provided = -1, flag = -1;
  CHECK_MPI(MPI_Query_thread(&provided));
  CHECK(provided == MPI_THREAD_MULTIPLE);
  CHECK_MPI(MPI_Is_thread_main(&flag));
  CHECK(flag == 1);
  pthread_t other;
  int other_flag = -1;
  CHECK(pthread_create(&other, NULL, ask_if_main, &other_flag) == 0);
  CHECK(pthread_join(other, NULL) == 0);
  CHECK(other_flag == 0);

  /* 1 MiB from MPI_Alloc_mem, aligned to a cache line, usable, freed. */
  double* memory = NULL;
  const int count = 1 << 17;
  CHECK_MPI(MPI_Alloc_mem((MPI_Aint)(count * sizeof(double)), MPI_INFO_NULL, &memory));
  CHECK(memory != NULL && (uintptr_t)memory % 64 == 0);
  for (int i = 0; i < count; ++i) memory[i] = i;
  double sum = 0;
  CHECK_MPI(MPI_Allreduce(&memory[count - 1], &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
  CHECK(sum == (double)(count - 1) * world_size);
  CHECK_MPI(MPI_Free_mem(memory));
  void* none = NULL;
  CHECK(MPI_Alloc_mem(-1, MPI_INFO_NULL, &none) == MPI_ERR_ARG);
  CHECK(MPI_Alloc_mem(8, 12345, &none) == MPI_ERR_INFO);
}

int main(int argc, char** argv) {
  /* MPI_Get_library_version works before MPI_Init. */
  char version[MPI_MAX_LIBRARY_VERSION_STRING];
  int length = 0, provided = -1;
  CHECK(MPI_Get_library_version(version, &length) == MPI_SUCCESS);
  CHECK(strstr(version, "Halyard") != NULL && length == (int)strlen(version));

  CHECK_MPI(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
  CHECK(provided == MPI_THREAD_MULTIPLE);
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &world_size));
  check_info_calls();
  check_error_handlers();
  check_environment();
  CHECK_MPI(MPI_Finalize());
  return finish_checks("shim_info_environment");
}
