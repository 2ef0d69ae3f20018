#include "bindings.hpp"
#include "runtime/support/error.hpp"

namespace halyard::python {

const Communicator& PyCommunicator::get() const {
  runtime->get();  // raises once the runtime was finalized
  return comm;
}

void bind_communicator(py::module_& module) {
  py::class_<PyCommunicator> communicator(module, "Communicator",
                                          "A group of ranks; collectives run on all of its ranks.");
  communicator
      .def_property_readonly("rank", [](const PyCommunicator& self) { return self.get().rank(); })
      .def_property_readonly("size", [](const PyCommunicator& self) { return self.get().size(); })
      .def(
          "split",
          [](const PyCommunicator& self, int color, int key) {
            py::gil_scoped_release release;  // every rank of the communicator takes part
            return PyCommunicator{self.runtime, self.get().split(color, key)};
          },
          py::arg("color"), py::arg("key") = 0,
          "Ranks passing the same color form a new communicator, ordered by key then rank.")
      .def("dup", [](const PyCommunicator& self) {
        py::gil_scoped_release release;
        return PyCommunicator{self.runtime, self.get().dup()};
      });
  bind_collectives(communicator);
}

}  // namespace halyard::python
