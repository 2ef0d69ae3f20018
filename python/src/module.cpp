// The `_halyard` extension: the compiled part of the `halyard` package (halyard/__init__.py
// re-exports it). halyard::Error becomes halyard.Error (a RuntimeError) with its code's name.
#include <pybind11/pybind11.h>

#include "bindings.hpp"
#include "runtime/datatypes/reduce_op.hpp"
#include "runtime/support/error.hpp"

namespace py = pybind11;

PYBIND11_MODULE(_halyard, module) {
  using halyard::Op;
  module.doc() = "Halyard's collectives on numpy arrays and other buffer-protocol objects";
  static py::exception<halyard::Error> error(module, "Error", PyExc_RuntimeError);
  py::register_exception_translator([](std::exception_ptr raised) {
    try {
      if (raised) std::rethrow_exception(raised);
    } catch (const halyard::Error& e) {
      const py::object exception = py::reinterpret_borrow<py::object>(error)(e.what());
      exception.attr("code") = py::str(std::string(halyard::error_code_name(e.code())));
      PyErr_SetObject(error.ptr(), exception.ptr());
    }
  });
  py::enum_<Op>(module, "Op", "Reduction operations (halyard.SUM is the default).")
      .value("SUM", Op::kSum)
      .value("PROD", Op::kProd)
      .value("MIN", Op::kMin)
      .value("MAX", Op::kMax)
      .value("BAND", Op::kBand)
      .value("BOR", Op::kBor)
      .value("BXOR", Op::kBxor)
      .value("LAND", Op::kLand)
      .value("LOR", Op::kLor)
      .value("LXOR", Op::kLxor)
      .export_values();
  halyard::python::bind_request(module);
  halyard::python::bind_communicator(module);
  halyard::python::bind_runtime(module);
}
