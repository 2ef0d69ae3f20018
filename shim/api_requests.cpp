// Completing non-blocking MPI operations. Waiting runs Halyard's event loop (Request::wait,
// EventLoop::run_until), so every transport and collective state machine of this rank
// progresses meanwhile.
//
// A handle names a one-shot request (freed when its completion is reported) or a persistent
// one (MPI_*_init: it stays, and turns inactive when its completion is reported, until the
// next MPI_Start). MPI_REQUEST_NULL and inactive requests count as complete with an empty
// status; where every request of an array is so, MPI_Waitany / MPI_Testany report index
// MPI_UNDEFINED and MPI_Waitsome / MPI_Testsome outcount MPI_UNDEFINED.
#include <mpi.h>

#include <cstdio>
#include <string>
#include <vector>

#include "runtime/event_loop.hpp"
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

// The entry a handle names; null for MPI_REQUEST_NULL; MPI_ERR_REQUEST for anything else.
PendingRequest* checked_request(MPI_Request handle) {
  if (handle == MPI_REQUEST_NULL) return nullptr;
  PendingRequest* pending = shim_state().find_request(handle);
  if (pending == nullptr) fail(MPI_ERR_REQUEST, "invalid request " + hex(handle));
  return pending;
}

// The operation a handle has in flight; null when there is none to wait for (MPI_REQUEST_NULL,
// an inactive persistent request).
PendingRequest* active_request(MPI_Request handle) {
  PendingRequest* pending = checked_request(handle);
  return pending != nullptr && !pending->inactive() ? pending : nullptr;
}

// Reports the completed request `pending` of `handle` (null: nothing active there) into
// `status`. A one-shot request is freed and its handle set to MPI_REQUEST_NULL; a persistent
// one turns inactive. Returns its error (class, message, handler); class MPI_SUCCESS when it
// succeeded or was cancelled.
MpiError finish(MPI_Request& handle, PendingRequest* pending, MPI_Status* status) {
  if (pending == nullptr) {
    fill_empty_status(status);
    return {MPI_SUCCESS, {}};
  }
  MpiError outcome{MPI_SUCCESS, {}, pending->errhandler};
  if (pending->cancelled) {
    fill_empty_status(status);
    if (status != MPI_STATUS_IGNORE) status->halyard_cancelled = 1;
  } else {
    const halyard::Status& completion = pending->request.status();
    if (pending->complete && completion.ok()) pending->complete(completion);
    outcome.error_class = error_class_of(completion.code);
    if (outcome.error_class != MPI_SUCCESS) outcome.message = completion.message;
    fill_status(status, completion, outcome.error_class);
  }
  if (pending->persistent()) {
    pending->request = {};
    pending->complete = {};
    pending->receive_id = 0;
    pending->cancelled = false;
    pending->started = false;
  } else {
    shim_state().remove_request(handle);
    handle = MPI_REQUEST_NULL;
  }
  return outcome;
}

MpiError finish(MPI_Request& handle, MPI_Status* status) {
  return finish(handle, active_request(handle), status);
}

void throw_if_failed(MpiError outcome) {
  if (outcome.error_class != MPI_SUCCESS) throw outcome;
}

// The active entries of an array (null where there is nothing to wait for).
std::vector<PendingRequest*> checked_requests(int count, const MPI_Request* requests) {
  if (count < 0) fail(MPI_ERR_COUNT, "invalid count " + std::to_string(count));
  if (count > 0 && requests == nullptr) fail(MPI_ERR_ARG, "requests is NULL");
  std::vector<PendingRequest*> pending(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i)
    pending[static_cast<std::size_t>(i)] = active_request(requests[i]);
  return pending;
}

bool all_inactive(const std::vector<PendingRequest*>& pending) {
  for (PendingRequest* p : pending) {
    if (p != nullptr) return false;
  }
  return true;
}

// The positions of the active requests that have completed.
std::vector<int> completed(const std::vector<PendingRequest*>& pending) {
  std::vector<int> done;
  for (std::size_t i = 0; i < pending.size(); ++i) {
    if (pending[i] != nullptr && pending[i]->request.done()) done.push_back(static_cast<int>(i));
  }
  return done;
}

// One pass of the event loop on behalf of the first active request that is not done.
void progress_once(const std::vector<PendingRequest*>& pending) {
  for (PendingRequest* p : pending) {
    if (p != nullptr && !p->request.done()) {
      p->request.test();
      return;
    }
  }
}

// Runs the event loop until one of the active requests has completed.
void wait_for_any(const std::vector<PendingRequest*>& pending) {
  shim_state().runtime().loop().run_until([&] { return !completed(pending).empty(); });
}

// Finishes requests[which[k]] into statuses[k] (`compact`, MPI_Waitsome's layout) or
// statuses[which[k]]; the first failure decides the call's error (MPI_ERR_IN_STATUS when the
// caller asked for statuses, which then hold each outcome).
void finish_set(const std::vector<int>& which, MPI_Request* requests, MPI_Status* statuses,
                bool compact) {
  MpiError first{MPI_SUCCESS, {}};
  for (std::size_t k = 0; k < which.size(); ++k) {
    const int i = which[k];
    MPI_Status* status = MPI_STATUS_IGNORE;
    if (statuses != MPI_STATUSES_IGNORE) status = &statuses[compact ? k : std::size_t(i)];
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

std::vector<int> every_index(int count) {
  std::vector<int> all(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) all[static_cast<std::size_t>(i)] = i;
  return all;
}

// Finishes the first completed request of an array for MPI_Waitany / MPI_Testany.
void finish_first(const std::vector<int>& done, MPI_Request* requests, int* index,
                  MPI_Status* status) {
  *index = done.front();
  throw_if_failed(finish(requests[done.front()], status));
}

// Finishes every completed request for MPI_Waitsome / MPI_Testsome.
void finish_some(const std::vector<int>& done, MPI_Request* requests, int* outcount, int* indices,
                 MPI_Status* statuses) {
  *outcount = static_cast<int>(done.size());
  if (!done.empty()) check_out(indices, "indices");
  for (std::size_t k = 0; k < done.size(); ++k) indices[k] = done[k];
  finish_set(done, requests, statuses, true);
}

// MPI_Waitsome (`wait`) and MPI_Testsome: finish every request that has completed, after
// waiting for one or after one pass of the loop.
int complete_some(const char* call, bool wait, int incount, MPI_Request requests[], int* outcount,
                  int indices[], MPI_Status statuses[]) {
  return guarded(call, MPI_COMM_WORLD, [&] {
    check_out(outcount, "outcount");
    std::vector<PendingRequest*> pending = checked_requests(incount, requests);
    *outcount = MPI_UNDEFINED;
    if (all_inactive(pending)) return;
    if (wait)
      wait_for_any(pending);
    else
      progress_once(pending);
    finish_some(completed(pending), requests, outcount, indices, statuses);
  });
}

// MPI_Start of one persistent request that is inactive.
void start_round(MPI_Request handle) {
  PendingRequest* pending = checked_request(handle);
  if (pending == nullptr || !pending->persistent())
    fail(MPI_ERR_REQUEST, "request " + hex(handle) + " is not a persistent request");
  if (!pending->inactive()) fail(MPI_ERR_REQUEST, "request " + hex(handle) + " is active already");
  // A round that cannot start (a buffered send without room) reports to the handler its
  // communicator had at init, as its completion would.
  try {
    pending->start(*pending);
    pending->started = true;
  } catch (MpiError& e) {
    e.errhandler = pending->errhandler;
    throw;
  } catch (const halyard::Error& e) {
    throw MpiError{error_class_of(e.code()), e.what(), pending->errhandler};
  }
}

}  // namespace

extern "C" {

int MPI_Wait(MPI_Request* request, MPI_Status* status) {
  return guarded("MPI_Wait", MPI_COMM_WORLD, [&] {
    check_out(request, "request");
    PendingRequest* pending = active_request(*request);
    if (pending != nullptr && !pending->request.done()) pending->request.wait();
    throw_if_failed(finish(*request, pending, status));
  });
}

int MPI_Test(MPI_Request* request, int* flag, MPI_Status* status) {
  return guarded("MPI_Test", MPI_COMM_WORLD, [&] {
    check_out(request, "request");
    check_out(flag, "flag");
    PendingRequest* pending = active_request(*request);
    *flag = pending == nullptr || pending->request.test();
    if (*flag) throw_if_failed(finish(*request, pending, status));
  });
}

int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[]) {
  return guarded("MPI_Waitall", MPI_COMM_WORLD, [&] {
    for (PendingRequest* pending : checked_requests(count, requests)) {
      if (pending != nullptr) pending->request.wait();
    }
    finish_set(every_index(count), requests, statuses, false);
  });
}

int MPI_Testall(int count, MPI_Request requests[], int* flag, MPI_Status statuses[]) {
  return guarded("MPI_Testall", MPI_COMM_WORLD, [&] {
    check_out(flag, "flag");
    std::vector<PendingRequest*> pending = checked_requests(count, requests);
    progress_once(pending);
    bool all_done = true;
    for (PendingRequest* p : pending) all_done = all_done && (p == nullptr || p->request.done());
    *flag = all_done;
    // MPI frees the requests only once all of them have completed.
    if (all_done) finish_set(every_index(count), requests, statuses, false);
  });
}

int MPI_Waitany(int count, MPI_Request requests[], int* index, MPI_Status* status) {
  return guarded("MPI_Waitany", MPI_COMM_WORLD, [&] {
    check_out(index, "index");
    std::vector<PendingRequest*> pending = checked_requests(count, requests);
    *index = MPI_UNDEFINED;
    if (all_inactive(pending)) return fill_empty_status(status);
    wait_for_any(pending);
    finish_first(completed(pending), requests, index, status);
  });
}

int MPI_Testany(int count, MPI_Request requests[], int* index, int* flag, MPI_Status* status) {
  return guarded("MPI_Testany", MPI_COMM_WORLD, [&] {
    check_out(index, "index");
    check_out(flag, "flag");
    std::vector<PendingRequest*> pending = checked_requests(count, requests);
    *index = MPI_UNDEFINED;
    *flag = 1;
    if (all_inactive(pending)) return fill_empty_status(status);
    progress_once(pending);
    std::vector<int> done = completed(pending);
    *flag = !done.empty();
    if (!done.empty()) finish_first(done, requests, index, status);
  });
}

int MPI_Waitsome(int incount, MPI_Request requests[], int* outcount, int indices[],
                 MPI_Status statuses[]) {
  return complete_some("MPI_Waitsome", true, incount, requests, outcount, indices, statuses);
}

int MPI_Testsome(int incount, MPI_Request requests[], int* outcount, int indices[],
                 MPI_Status statuses[]) {
  return complete_some("MPI_Testsome", false, incount, requests, outcount, indices, statuses);
}

int MPI_Request_get_status(MPI_Request request, int* flag, MPI_Status* status) {
  return guarded("MPI_Request_get_status", MPI_COMM_WORLD, [&] {
    check_out(flag, "flag");
    PendingRequest* pending = active_request(request);
    *flag = pending == nullptr || pending->request.test();
    if (!*flag) return;
    if (pending == nullptr || pending->cancelled) {
      fill_empty_status(status);
      if (pending != nullptr && status != MPI_STATUS_IGNORE) status->halyard_cancelled = 1;
      return;
    }
    const halyard::Status& completion = pending->request.status();
    fill_status(status, completion, error_class_of(completion.code));
  });
}

int MPI_Request_free(MPI_Request* request) {
  return guarded("MPI_Request_free", MPI_COMM_WORLD, [&] {
    check_out(request, "request");
    if (checked_request(*request) == nullptr) fail(MPI_ERR_REQUEST, "request is MPI_REQUEST_NULL");
    // An operation in flight goes on: Halyard's transports keep what they need of it.
    shim_state().remove_request(*request);
    *request = MPI_REQUEST_NULL;
  });
}

int MPI_Cancel(MPI_Request* request) {
  return guarded("MPI_Cancel", MPI_COMM_WORLD, [&] {
    check_out(request, "request");
    if (checked_request(*request) == nullptr) fail(MPI_ERR_REQUEST, "request is MPI_REQUEST_NULL");
    PendingRequest* pending = active_request(*request);
    // Only a receive no message has matched yet can be withdrawn; a send, a matched receive or
    // a collective completes as usual and MPI_Test_cancelled then reports false.
    if (pending == nullptr || pending->receive_id == 0) return;
    pending->cancelled = pending->receive_comm.cancel_receive(
        halyard::CancellableReceive{pending->request, pending->receive_id});
  });
}

int MPI_Test_cancelled(const MPI_Status* status, int* flag) {
  return guarded("MPI_Test_cancelled", MPI_COMM_WORLD, [&] {
    check_out(status, "status");
    check_out(flag, "flag");
    *flag = status->halyard_cancelled != 0;
  });
}

int MPI_Start(MPI_Request* request) {
  return guarded("MPI_Start", MPI_COMM_WORLD, [&] {
    check_out(request, "request");
    start_round(*request);
  });
}

int MPI_Startall(int count, MPI_Request requests[]) {
  return guarded("MPI_Startall", MPI_COMM_WORLD, [&] {
    if (count < 0) fail(MPI_ERR_COUNT, "invalid count " + std::to_string(count));
    if (count > 0) check_out(requests, "requests");
    for (int i = 0; i < count; ++i) start_round(requests[i]);
  });
}

}  // extern "C"
