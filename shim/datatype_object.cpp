#include "shim/datatype_object.hpp"

#include <algorithm>
#include <cstring>

namespace halyard::mpi_shim {

namespace {

// memcpy with the common element sizes spelled out, so that maps of many small runs (a vector of
// single doubles) copy without a call per run.
inline void copy_run(std::byte* to, const std::byte* from, std::size_t bytes) {
  switch (bytes) {
    case 4:
      std::memcpy(to, from, 4);
      break;
    case 8:
      std::memcpy(to, from, 8);
      break;
    case 16:
      std::memcpy(to, from, 16);
      break;
    default:
      std::memcpy(to, from, bytes);
  }
}

bool same_element(const DatatypeInfo& a, const DatatypeInfo& b) {
  return a.halyard == b.halyard && a.category == b.category;
}

}  // namespace

const DatatypeInfo* TypeObject::single_element() const {
  if (map.empty()) return nullptr;
  const DatatypeInfo* first = map.front().element;
  for (const TypeRun& run : map) {
    if (!same_element(*run.element, *first)) return nullptr;
  }
  return first;
}

std::size_t TypeObject::elements_per_item() const {
  std::size_t elements = 0;
  for (const TypeRun& run : map) elements += run.count;
  return elements;
}

bool TypeObject::contiguous_for(std::size_t count) const {
  if (map.empty()) return true;
  if (map.size() != 1) return false;
  return count <= 1 || static_cast<MPI_Aint>(map.front().bytes()) == extent;
}

std::shared_ptr<TypeObject> predefined_type(const DatatypeInfo& info) {
  auto type = std::make_shared<TypeObject>();
  type->name = info.name;
  type->size = static_cast<std::size_t>(info.size);
  type->extent = type->true_extent = info.size;
  type->map = {{0, &info, 1}};
  type->predefined = true;
  type->committed = true;
  type->alignment = alignment_of(info);
  return type;
}

void TypeBuilder::add(const TypeObject& type, MPI_Aint offset, std::size_t copies) {
  if (copies == 0) return;
  MPI_Aint last = offset + static_cast<MPI_Aint>(copies - 1) * type.extent;
  MPI_Aint low = std::min(offset, last);
  MPI_Aint high = std::max(offset, last);
  lb_ = has_bounds_ ? std::min(lb_, low + type.lb) : low + type.lb;
  ub_ = has_bounds_ ? std::max(ub_, high + type.lb + type.extent) : high + type.lb + type.extent;
  has_bounds_ = true;
  if (type.size > 0) {
    MPI_Aint true_low = low + type.true_lb;
    MPI_Aint true_high = high + type.true_lb + type.true_extent;
    true_lb_ = has_data_ ? std::min(true_lb_, true_low) : true_low;
    true_ub_ = has_data_ ? std::max(true_ub_, true_high) : true_high;
    has_data_ = true;
  }
  explicit_bounds_ = explicit_bounds_ || type.explicit_bounds;
  alignment_ = std::max(alignment_, type.alignment);
  size_ += copies * type.size;

  if (type.map.size() == 1 && static_cast<MPI_Aint>(type.map.front().bytes()) == type.extent) {
    // The copies touch: one run for all of them.
    const TypeRun& run = type.map.front();
    add_run({offset + run.offset, run.element, run.count * copies});
    return;
  }
  for (std::size_t copy = 0; copy < copies; ++copy) {
    MPI_Aint base = offset + static_cast<MPI_Aint>(copy) * type.extent;
    for (const TypeRun& run : type.map) add_run({base + run.offset, run.element, run.count});
  }
}

void TypeBuilder::add_run(TypeRun run) {
  if (run.count == 0) return;
  if (!map_.empty()) {
    TypeRun& last = map_.back();
    if (last.element == run.element &&
        last.offset + static_cast<MPI_Aint>(last.bytes()) == run.offset) {
      last.count += run.count;
      return;
    }
  }
  map_.push_back(run);
}

std::shared_ptr<TypeObject> TypeBuilder::finish(TypeRecipe recipe, bool pad_to_alignment) {
  auto type = std::make_shared<TypeObject>();
  type->size = size_;
  type->lb = lb_;
  type->extent = ub_ - lb_;
  if (pad_to_alignment && !explicit_bounds_ && type->extent % alignment_ != 0) {
    type->extent += alignment_ - type->extent % alignment_;
  }
  type->true_lb = true_lb_;
  type->true_extent = true_ub_ - true_lb_;
  type->map = std::move(map_);
  type->explicit_bounds = explicit_bounds_;
  type->alignment = alignment_;
  type->recipe = std::move(recipe);
  return type;
}

std::shared_ptr<TypeObject> resized(const TypeObject& type, MPI_Aint lb, MPI_Aint extent,
                                    TypeRecipe recipe) {
  auto result = std::make_shared<TypeObject>();
  result->size = type.size;
  result->lb = lb;
  result->extent = extent;
  result->true_lb = type.true_lb;
  result->true_extent = type.true_extent;
  result->map = type.map;
  result->explicit_bounds = true;
  result->alignment = type.alignment;
  result->recipe = std::move(recipe);
  return result;
}

void pack(const TypeObject& type, const std::byte* user, std::size_t count, std::byte* packed) {
  if (type.contiguous_for(count) && !type.map.empty()) {
    std::memcpy(packed, user + type.map.front().offset, count * type.size);
    return;
  }
  for (std::size_t item = 0; item < count; ++item) {
    const std::byte* base = user + static_cast<MPI_Aint>(item) * type.extent;
    for (const TypeRun& run : type.map) {
      copy_run(packed, base + run.offset, run.bytes());
      packed += run.bytes();
    }
  }
}

void unpack(const TypeObject& type, const std::byte* packed, std::size_t bytes, std::byte* user,
            std::size_t count) {
  if (type.contiguous_for(count) && !type.map.empty()) {
    std::memcpy(user + type.map.front().offset, packed, std::min(bytes, count * type.size));
    return;
  }
  for (std::size_t item = 0; item < count && bytes > 0; ++item) {
    std::byte* base = user + static_cast<MPI_Aint>(item) * type.extent;
    for (const TypeRun& run : type.map) {
      std::size_t n = std::min(run.bytes(), bytes);
      copy_run(base + run.offset, packed, n);
      packed += n;
      bytes -= n;
      if (bytes == 0) return;
    }
  }
}

long long elements_in(const TypeObject& type, std::size_t bytes) {
  if (type.size == 0) return 0;
  auto total = static_cast<long long>((bytes / type.size) * type.elements_per_item());
  std::size_t rest = bytes % type.size;
  for (const TypeRun& run : type.map) {
    if (rest == 0) break;
    std::size_t taken = std::min(rest, run.bytes());
    auto element_size = static_cast<std::size_t>(run.element->size);
    if (taken % element_size != 0) return -1;
    total += static_cast<long long>(taken / element_size);
    rest -= taken;
  }
  return total;
}

}  // namespace halyard::mpi_shim
