// A Python buffer (numpy array, bytearray, memoryview, array.array, ...) seen as one contiguous
// run of elements that a collective may read or write. Refused with a clear Python error: a
// buffer that is not C-contiguous (ValueError), read-only where the call writes (ValueError),
// and an element type Halyard cannot move or reduce (TypeError).
#pragma once

#include <pybind11/pybind11.h>

#include <cstddef>
#include <optional>
#include <string>

#include "runtime/datatypes/datatype.hpp"

namespace halyard::python {

namespace py = pybind11;

struct BufferView {
  void* data = nullptr;
  std::size_t count = 0;     // elements
  std::size_t itemsize = 0;  // bytes per element
  std::string format;        // the buffer protocol's format, e.g. "f", "<i8"
  // Halyard's datatype for the element, when there is one (reductions need it); data movement
  // moves any other fixed-size element as itemsize bytes.
  std::optional<Datatype> type;

  std::size_t bytes() const { return count * itemsize; }
};

// What the call does with the buffer: kRead (sends from it) or kWrite (receives into it).
enum class Access { kRead, kWrite };

// `what` names the argument in errors: "allreduce: recv".
BufferView view_buffer(const py::handle& object, Access access, const std::string& what);

// The datatype a reduction runs on: the buffer's own, or TypeError naming the format.
Datatype reduction_type(const BufferView& view, const std::string& what);

// ValueError unless `view` has the same element format as `reference`.
void require_same_element(const BufferView& view, const BufferView& reference,
                          const std::string& what);

// ValueError unless `view` holds exactly `count` elements.
void require_count(const BufferView& view, std::size_t count, const std::string& what);

}  // namespace halyard::python
