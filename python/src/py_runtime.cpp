#include <utility>

#include "bindings.hpp"
#include "runtime/bootstrap/launch_info.hpp"
#include "runtime/support/error.hpp"

namespace halyard::python {

PyRuntime::PyRuntime(bool singleton) {
  if (!singleton && !LaunchInfo::from_environment()) {
    throw Error(ErrorCode::kBootstrap,
                "halyard.Runtime: this process was not started by hlaunch (HALYARD_BOOTSTRAP_ADDR "
                "is not set); run it as `hlaunch -n N python3 script.py`, or pass singleton=True "
                "for a one-rank runtime");
  }
  py::gil_scoped_release release;  // the bootstrap exchange waits for the other ranks
  runtime_ = std::make_unique<Runtime>();
}

Runtime& PyRuntime::get() {
  if (finalized()) throw Error(ErrorCode::kInvalidArgument, "halyard: the runtime was finalized");
  return *runtime_;
}

void PyRuntime::finalize() {
  if (finalized()) return;
  py::gil_scoped_release release;  // finalize waits at a barrier for every rank
  runtime_->finalize();
}

void bind_runtime(py::module_& module) {
  py::class_<PyRuntime, std::shared_ptr<PyRuntime>>(
      module, "Runtime", "Joins the job hlaunch started (one per process).")
      .def(py::init<bool>(), py::arg("singleton") = false)
      .def_property_readonly("world",
                             [](const std::shared_ptr<PyRuntime>& self) {
                               return PyCommunicator{self, self->get().world()};
                             })
      .def_property_readonly("rank", [](PyRuntime& self) { return self.get().rank(); })
      .def_property_readonly("size", [](PyRuntime& self) { return self.get().size(); })
      .def_property_readonly("finalized", &PyRuntime::finalized)
      .def("finalize", &PyRuntime::finalize,
           "Waits for every rank, then tears the transports down; later calls raise.")
      .def("__enter__", [](const std::shared_ptr<PyRuntime>& self) { return self; })
      .def("__exit__", [](PyRuntime& self, const py::args&) { self.finalize(); });
}

}  // namespace halyard::python
