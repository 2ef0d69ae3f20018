// How a HAN call cuts its message into pipeline segments of whole elements.
#pragma once

#include <algorithm>
#include <cstddef>

namespace halyard::han {

struct Segments {
  std::size_t per_segment = 1;  // elements in every segment but possibly the last
  std::size_t count = 0;        // elements in the message
  std::size_t element_size = 1;

  Segments(std::size_t total, std::size_t elem_size, std::size_t segment_bytes)
      : per_segment(std::max<std::size_t>(1, segment_bytes / elem_size)),
        count(total),
        element_size(elem_size) {}

  std::size_t size() const { return (count + per_segment - 1) / per_segment; }
  std::size_t first(std::size_t i) const { return i * per_segment; }
  std::size_t length(std::size_t i) const { return std::min(per_segment, count - first(i)); }
  std::size_t byte_offset(std::size_t i) const { return first(i) * element_size; }
};

}  // namespace halyard::han
