// How a message of `count` elements is cut into ADAPT segments.
//
// Segments hold whole elements (a reduction cannot split one), so the segment size in bytes
// is rounded down to a multiple of the element size, and up to one element when smaller.
// segment_bytes == 0 means "do not segment": the whole message is one segment.
#pragma once

#include <algorithm>
#include <cstddef>

namespace halyard::adapt {

struct Segmentation {
  std::size_t count = 0;         // elements in the message
  std::size_t element_size = 1;  // bytes per element
  std::size_t segment_elements = 1;
  std::size_t num_segments = 0;

  static Segmentation make(std::size_t count, std::size_t element_size, std::size_t segment_bytes) {
    Segmentation s;
    s.count = count;
    s.element_size = element_size;
    s.segment_elements = segment_bytes == 0
                             ? std::max<std::size_t>(count, 1)
                             : std::max<std::size_t>(segment_bytes / element_size, 1);
    s.num_segments = (count + s.segment_elements - 1) / s.segment_elements;
    return s;
  }

  std::size_t first_element(std::size_t segment) const { return segment * segment_elements; }
  std::size_t elements(std::size_t segment) const {
    return std::min(segment_elements, count - first_element(segment));
  }
  std::size_t offset_bytes(std::size_t segment) const {
    return first_element(segment) * element_size;
  }
  std::size_t bytes(std::size_t segment) const { return elements(segment) * element_size; }
  // The largest segment, what a temporary buffer for one segment must hold.
  std::size_t max_segment_bytes() const { return std::min(segment_elements, count) * element_size; }
};

}  // namespace halyard::adapt
