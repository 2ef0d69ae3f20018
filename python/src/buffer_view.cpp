#include "buffer_view.hpp"

#include <array>
#include <utility>

namespace halyard::python {

namespace {

// Format characters of the struct module (and numpy) that Halyard reduces, with their kind;
// the integer width comes from the item size ('l' is 8 bytes here, 4 on other ABIs).
std::optional<Datatype> datatype_of(std::string_view format, std::size_t itemsize) {
  if (!format.empty() &&
      (format.front() == '@' || format.front() == '=' || format.front() == '<')) {
    format.remove_prefix(1);  // native or little-endian: this machine's order
  }
  if (format.size() != 1) return std::nullopt;
  constexpr std::array<Datatype, 4> kSigned{Datatype::kInt8, Datatype::kInt16, Datatype::kInt32,
                                            Datatype::kInt64};
  constexpr std::array<Datatype, 4> kUnsigned{Datatype::kUint8, Datatype::kUint16,
                                              Datatype::kUint32, Datatype::kUint64};
  const auto by_width =
      [itemsize](const std::array<Datatype, 4>& types) -> std::optional<Datatype> {
    switch (itemsize) {
      case 1:
        return types[0];
      case 2:
        return types[1];
      case 4:
        return types[2];
      case 8:
        return types[3];
      default:
        return std::nullopt;
    }
  };
  switch (format.front()) {
    case 'b':
    case 'h':
    case 'i':
    case 'l':
    case 'q':
    case 'n':
      return by_width(kSigned);
    case 'B':
    case 'H':
    case 'I':
    case 'L':
    case 'Q':
    case 'N':
      return by_width(kUnsigned);
    case 'e':
      return Datatype::kFloat16;
    case 'f':
      return Datatype::kFloat32;
    case 'd':
      return Datatype::kFloat64;
    default:
      return std::nullopt;
  }
}

bool c_contiguous(const py::buffer_info& info) {
  py::ssize_t expected = info.itemsize;
  for (py::ssize_t axis = info.ndim - 1; axis >= 0; --axis) {
    const py::ssize_t extent = info.shape[static_cast<std::size_t>(axis)];
    if (extent > 1 && info.strides[static_cast<std::size_t>(axis)] != expected) return false;
    expected *= extent;
  }
  return true;
}

}  // namespace

BufferView view_buffer(const py::handle& object, Access access, const std::string& what) {
  if (!PyObject_CheckBuffer(object.ptr())) {
    throw py::type_error("halyard " + what + ": a " +
                         std::string(py::str(object.get_type().attr("__name__"))) +
                         " is not a buffer (pass a numpy array or another buffer-protocol object)");
  }
  const py::buffer buffer = py::reinterpret_borrow<py::buffer>(object);
  py::buffer_info info;
  try {
    info = buffer.request(access == Access::kWrite);
  } catch (const py::error_already_set&) {
    throw py::value_error("halyard " + what +
                          ": the buffer is read-only, and this call writes into it");
  }
  if (!c_contiguous(info)) {
    throw py::value_error("halyard " + what +
                          ": the buffer is not contiguous (a strided view); pass "
                          "numpy.ascontiguousarray(...) or a copy");
  }
  if (info.format.find_first_of("O") != std::string::npos || info.itemsize <= 0) {
    throw py::type_error("halyard " + what + ": elements of format '" + info.format +
                         "' (Python objects) cannot be sent");
  }
  BufferView view;
  view.data = info.ptr;
  view.count = static_cast<std::size_t>(info.size);
  view.itemsize = static_cast<std::size_t>(info.itemsize);
  view.format = info.format;
  view.type = datatype_of(info.format, view.itemsize);
  return view;
}

Datatype reduction_type(const BufferView& view, const std::string& what) {
  if (!view.type) {
    throw py::type_error("halyard " + what + ": elements of format '" + view.format + "' (" +
                         std::to_string(view.itemsize) +
                         " bytes) cannot be reduced; reductions take int8..int64, uint8..uint64, "
                         "float16, float32 and float64");
  }
  return *view.type;
}

void require_same_element(const BufferView& view, const BufferView& reference,
                          const std::string& what) {
  if (view.itemsize != reference.itemsize || view.type != reference.type ||
      (!view.type && view.format != reference.format)) {
    throw py::value_error("halyard " + what + ": element format '" + view.format +
                          "' differs from the send buffer's '" + reference.format + "'");
  }
}

void require_count(const BufferView& view, std::size_t count, const std::string& what) {
  if (view.count != count) {
    throw py::value_error("halyard " + what + ": holds " + std::to_string(view.count) +
                          " elements, the call needs " + std::to_string(count));
  }
}

}  // namespace halyard::python
