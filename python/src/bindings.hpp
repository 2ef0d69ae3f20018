// The Python objects of the `halyard` module and the functions that bind them. Python sees:
//   Runtime      joins the job hlaunch started (halyard.Error when it did not); world, rank,
//                size, finalize(); a context manager
//   Communicator rank, size, split(color, key), dup(), the collectives and point-to-point
//                calls on buffers (py_collectives.cpp), each blocking and as i<name> returning
//   Request      wait(), test(), done: it holds the buffers of its call until it completes
#pragma once

#include <pybind11/pybind11.h>

#include <memory>
#include <utility>
#include <vector>

#include "runtime/communicator.hpp"
#include "runtime/request.hpp"
#include "runtime/runtime.hpp"

namespace halyard::python {

namespace py = pybind11;

// Owns the process's Runtime; communicators share it, so it finalizes after the last of them.
class PyRuntime {
 public:
  // Joins the hlaunch job, or a one-rank singleton runtime when `singleton` is true.
  explicit PyRuntime(bool singleton);
  Runtime& get();  // halyard.Error once finalized
  void finalize();
  bool finalized() const { return runtime_ == nullptr || runtime_->finalized(); }

 private:
  std::unique_ptr<Runtime> runtime_;
};

struct PyCommunicator {
  std::shared_ptr<PyRuntime> runtime;
  Communicator comm;

  // The communicator, or halyard.Error when its runtime was finalized.
  const Communicator& get() const;
};

// What a call's request keeps alive until it completes: the Python buffers it reads or writes,
// its count and displacement arrays (v-collectives), and the object the call returns.
struct Kept {
  Kept(std::vector<py::object> held = {}, py::object returned = py::none(),
       std::shared_ptr<const void> held_arrays = {})
      : buffers(std::move(held)), result(std::move(returned)), arrays(std::move(held_arrays)) {}

  std::vector<py::object> buffers;
  py::object result;
  std::shared_ptr<const void> arrays;
};

// A non-blocking call in flight. Dropping an unfinished request waits for it first (a transfer
// must never land in freed memory).
class PyRequest {
 public:
  PyRequest(Request request, Kept kept);
  ~PyRequest();
  PyRequest(const PyRequest&) = delete;
  PyRequest& operator=(const PyRequest&) = delete;

  py::object wait();  // the call's result (its receive buffer, or None); halyard.Error on failure
  bool test();
  bool done() const { return request_.done(); }

 private:
  Request request_;
  Kept kept_;
};

void bind_runtime(py::module_& module);
void bind_communicator(py::module_& module);
void bind_collectives(py::class_<PyCommunicator>& communicator);
void bind_request(py::module_& module);

// Raises halyard.Error for a failed status (the exception type the module registers).
void raise_on_failure(const Status& status, const char* what);

}  // namespace halyard::python
