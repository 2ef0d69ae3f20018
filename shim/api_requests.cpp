// Completing non-blocking MPI operations. Waiting runs Halyard's event loop (Request::wait),
// so every transport and collective state machine of this rank progresses meanwhile.
#include <mpi.h>

#include <cstdio>
#include <string>
#include <vector>

#include "shim/argument_checks.hpp"
#include "shim/call_guard.hpp"
#include "shim/shim_state.hpp"

using namespace halyard::mpi_shim;

namespace {

std::string hex(int handle) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%08x", static_cast<unsigned>(handle));
  return text;
}

// The pending request a handle names; null for MPI_REQUEST_NULL; MPI_ERR_REQUEST otherwise.
PendingRequest* checked_request(MPI_Request handle) {
  if (handle == MPI_REQUEST_NULL) return nullptr;
  PendingRequest* pending = shim_state().find_request(handle);
  if (pending == nullptr) fail(MPI_ERR_REQUEST, "invalid request " + hex(handle));
  return pending;
}

// Reports a completed request into `status`, frees it and sets the handle to
// MPI_REQUEST_NULL. Returns its error (class, message, handler); class MPI_SUCCESS when it
// succeeded.
MpiError finish(MPI_Request& handle, MPI_Status* status) {
  PendingRequest* pending = checked_request(handle);
  if (pending == nullptr) {
    fill_empty_status(status);
    return {MPI_SUCCESS, {}};
  }
  const halyard::Status& completion = pending->request.status();
  if (pending->complete && completion.ok()) pending->complete(completion);
  int error_class = error_class_of(completion.code);
  fill_status(status, completion, error_class);
  MpiError outcome{error_class, completion.message, pending->errhandler};
  shim_state().remove_request(handle);
  handle = MPI_REQUEST_NULL;
  return outcome;
}

std::vector<PendingRequest*> checked_requests(int count, const MPI_Request* requests) {
  if (count < 0) fail(MPI_ERR_COUNT, "invalid count " + std::to_string(count));
  if (count > 0 && requests == nullptr) fail(MPI_ERR_ARG, "requests is NULL");
  std::vector<PendingRequest*> pending(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i)
    pending[static_cast<std::size_t>(i)] = checked_request(requests[i]);
  return pending;
}

// Finishes every request of an array that has completed; the first failure decides the call's
// error (MPI_ERR_IN_STATUS when the caller asked for statuses, which then hold each outcome).
void finish_all(int count, MPI_Request* requests, MPI_Status* statuses) {
  MpiError first{MPI_SUCCESS, {}};
  for (int i = 0; i < count; ++i) {
    MPI_Status* status = statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[i];
    MpiError outcome = finish(requests[i], status);
    if (outcome.error_class != MPI_SUCCESS && first.error_class == MPI_SUCCESS) {
      first = outcome;
      first.message = "request " + std::to_string(i) + " failed: " + outcome.message;
    }
  }
  if (first.error_class == MPI_SUCCESS) return;
  if (statuses != MPI_STATUSES_IGNORE) first.error_class = MPI_ERR_IN_STATUS;
  throw first;
}

void throw_if_failed(MpiError outcome) {
  if (outcome.error_class != MPI_SUCCESS) throw outcome;
}

}  // namespace

extern "C" {

int MPI_Wait(MPI_Request* request, MPI_Status* status) {
  return guarded("MPI_Wait", MPI_COMM_WORLD, [&] {
    if (request == nullptr) fail(MPI_ERR_ARG, "request is NULL");
    if (PendingRequest* pending = checked_request(*request)) pending->request.wait();
    throw_if_failed(finish(*request, status));
  });
}

int MPI_Test(MPI_Request* request, int* flag, MPI_Status* status) {
  return guarded("MPI_Test", MPI_COMM_WORLD, [&] {
    if (request == nullptr) fail(MPI_ERR_ARG, "request is NULL");
    if (flag == nullptr) fail(MPI_ERR_ARG, "flag is NULL");
    PendingRequest* pending = checked_request(*request);
    *flag = pending == nullptr || pending->request.test();
    if (*flag) throw_if_failed(finish(*request, status));
  });
}

int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[]) {
  return guarded("MPI_Waitall", MPI_COMM_WORLD, [&] {
    for (PendingRequest* pending : checked_requests(count, requests)) {
      if (pending != nullptr) pending->request.wait();
    }
    finish_all(count, requests, statuses);
  });
}

int MPI_Testall(int count, MPI_Request requests[], int* flag, MPI_Status statuses[]) {
  return guarded("MPI_Testall", MPI_COMM_WORLD, [&] {
    if (flag == nullptr) fail(MPI_ERR_ARG, "flag is NULL");
    std::vector<PendingRequest*> pending = checked_requests(count, requests);
    // One pass of the event loop, then see whether everything is done.
    bool progressed = false;
    bool all_done = true;
    for (PendingRequest* p : pending) {
      if (p == nullptr) continue;
      if (!progressed && !p->request.done()) {
        p->request.test();
        progressed = true;
      }
      all_done = all_done && p->request.done();
    }
    *flag = all_done;
    // MPI frees the requests only once all of them have completed.
    if (all_done) finish_all(count, requests, statuses);
  });
}

}  // extern "C"
