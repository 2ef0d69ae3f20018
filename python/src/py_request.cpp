#include <utility>

#include "bindings.hpp"
#include "runtime/support/error.hpp"

namespace halyard::python {

void raise_on_failure(const Status& status, const char* what) {
  if (status.code != ErrorCode::kSuccess) {
    throw Error(status.code, std::string(what) + ": " + status.message);
  }
}

PyRequest::PyRequest(Request request, Kept kept)
    : request_(std::move(request)), kept_(std::move(kept)) {}

PyRequest::~PyRequest() {
  if (request_.done()) return;
  py::gil_scoped_release release;
  request_.wait();  // its outcome is lost with the request, as for an MPI request freed unwaited
}

py::object PyRequest::wait() {
  Status status;
  {
    py::gil_scoped_release release;
    status = request_.wait();
  }
  raise_on_failure(status, "halyard.Request.wait");
  return kept_.result;
}

bool PyRequest::test() {
  if (!request_.test()) return false;
  raise_on_failure(request_.status(), "halyard.Request.test");
  return true;
}

void bind_request(py::module_& module) {
  py::class_<PyRequest>(module, "Request", "A non-blocking call in flight.")
      .def("wait", &PyRequest::wait, "Waits for completion; returns the call's result buffer.")
      .def("test", &PyRequest::test, "True once complete (drives progress).")
      .def_property_readonly("done", &PyRequest::done);
}

}  // namespace halyard::python
