// The `_halyard_torch` extension: makes the "halyard" process group for torch.distributed
// (halyard/torch.py registers it with torch.distributed.Backend.register_backend).
#include <torch/extension.h>

#include "process_group.hpp"

namespace py = pybind11;

PYBIND11_MODULE(_halyard_torch, module) {
  using halyard::torch_backend::ProcessGroupHalyard;
  module.def(
      "create_process_group",
      [](const c10::intrusive_ptr<c10d::Store>& store, int rank, int size,
         const py::object& /*timeout: the store's own applies*/) {
        py::gil_scoped_release release;  // collective over the group's ranks
        return c10::intrusive_ptr<c10d::ProcessGroup>(
            c10::make_intrusive<ProcessGroupHalyard>(store, rank, size));
      },
      py::arg("store"), py::arg("rank"), py::arg("size"), py::arg("timeout"));
  module.def("finalize", &halyard::torch_backend::finalize_process_runtime,
             py::call_guard<py::gil_scoped_release>(),
             "Finalizes the process's Halyard runtime (every rank together).");
}
