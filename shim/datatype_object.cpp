#include "shim/datatype_object.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

#include "runtime/datatypes/buffer_layout.hpp"

namespace halyard::mpi_shim {

namespace {

bool same_element(const DatatypeInfo& a, const DatatypeInfo& b) {
  return a.halyard == b.halyard && a.category == b.category;
}

const DatatypeInfo* single_element_of(const std::vector<TypeRun>& map) {
  if (map.empty()) return nullptr;
  const DatatypeInfo* first = map.front().element;
  for (const TypeRun& run : map) {
    if (!same_element(*run.element, *first)) return nullptr;
  }
  return first;
}

// Copies one run between the user's layout (at `user`, the item's address) and packed bytes.
// `bytes` may end inside the run (a short message being unpacked); returns the bytes copied.
template <bool kPack>
std::size_t transfer(const TypeRun& run, const void* user, std::byte* packed, std::size_t bytes) {
  std::size_t block = run.block_bytes();
  std::byte* at = address_at(user, run.offset);
  if (bytes >= run.bytes()) {
    if constexpr (kPack) {
      pack_blocks(at, run.stride, run.blocks, block, packed);
    } else {
      unpack_blocks(packed, run.blocks, block, at, run.stride);
    }
    return run.bytes();
  }
  std::size_t done = 0;
  for (std::size_t b = 0; b < run.blocks && done < bytes; ++b, at += run.stride) {
    std::size_t n = std::min(block, bytes - done);
    kPack ? std::memcpy(packed + done, at, n) : std::memcpy(at, packed + done, n);
    done += n;
  }
  return done;
}

}  // namespace

std::size_t TypeObject::elements_per_item() const {
  std::size_t elements = 0;
  for (const TypeRun& run : map) elements += run.count * run.blocks;
  return elements;
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
  type->single_element = &info;
  return type;
}

void TypeBuilder::Span::include(MPI_Aint from, MPI_Aint to) {
  low = any ? std::min(low, from) : from;
  high = any ? std::max(high, to) : to;
  any = true;
}

void TypeBuilder::add(const TypeObject& type, MPI_Aint offset, std::size_t copies) {
  if (copies == 0) return;
  MPI_Aint last = offset + static_cast<MPI_Aint>(copies - 1) * type.extent;
  MPI_Aint low = std::min(offset, last);
  MPI_Aint high = std::max(offset, last);
  bounds_.include(low + type.lb, high + type.lb + type.extent);
  if (type.explicit_bounds) explicit_bounds_.include(low + type.lb, high + type.lb + type.extent);
  if (type.size > 0) data_.include(low + type.true_lb, high + type.true_lb + type.true_extent);
  alignment_ = std::max(alignment_, type.alignment);
  size_ += copies * type.size;

  if (type.contiguous_for(copies) && type.map.size() == 1) {
    // The copies touch: one run for all of them.
    const TypeRun& run = type.map.front();
    add_run({offset + run.offset, run.element, run.count * copies});
    return;
  }
  for (std::size_t copy = 0; copy < copies; ++copy) {
    MPI_Aint base = offset + static_cast<MPI_Aint>(copy) * type.extent;
    for (TypeRun run : type.map) {
      run.offset += base;
      add_run(run);
    }
  }
}

void TypeBuilder::add_run(TypeRun run) {
  if (run.count == 0 || run.blocks == 0) return;
  if (run.blocks > 1 && run.stride == static_cast<MPI_Aint>(run.block_bytes())) {
    run.count *= run.blocks;  // blocks that touch are one block
    run.blocks = 1;
  }
  if (!map_.empty() && map_.back().element == run.element) {
    TypeRun& last = map_.back();
    MPI_Aint gap = run.offset - last.last_block_offset();
    if (last.blocks == 1 && run.blocks == 1 && gap == static_cast<MPI_Aint>(last.block_bytes())) {
      last.count += run.count;  // continues the last block
      return;
    }
    // Continues the last run's blocks at the same distance.
    bool same_blocks = last.count == run.count && gap != 0 &&
                       (last.blocks == 1 || gap == last.stride) &&
                       (run.blocks == 1 || gap == run.stride);
    if (same_blocks) {
      last.blocks += run.blocks;
      last.stride = gap;
      return;
    }
  }
  map_.push_back(run);
}

std::shared_ptr<TypeObject> TypeBuilder::finish(TypeRecipe recipe, bool pad_to_alignment) {
  auto type = std::make_shared<TypeObject>();
  type->size = size_;
  const Span& bounds = explicit_bounds_.any ? explicit_bounds_ : bounds_;
  type->lb = bounds.low;
  type->extent = bounds.high - bounds.low;
  if (pad_to_alignment && !explicit_bounds_.any && type->extent % alignment_ != 0) {
    type->extent += alignment_ - type->extent % alignment_;
  }
  type->true_lb = data_.low;
  type->true_extent = data_.high - data_.low;
  type->map = std::move(map_);
  type->explicit_bounds = explicit_bounds_.any;
  type->alignment = alignment_;
  type->single_element = single_element_of(type->map);
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
  result->single_element = type.single_element;
  result->recipe = std::move(recipe);
  return result;
}

void pack(const TypeObject& type, const void* user, std::size_t count, std::byte* packed) {
  if (count == 0 || type.size == 0) return;
  if (type.contiguous_for(count)) {
    std::memcpy(packed, address_at(user, type.map.front().offset), count * type.size);
    return;
  }
  for (std::size_t item = 0; item < count; ++item) {
    std::byte* base = address_at(user, static_cast<MPI_Aint>(item) * type.extent);
    for (const TypeRun& run : type.map) packed += transfer<true>(run, base, packed, run.bytes());
  }
}

BufferLayout buffer_layout(const TypeObject& type, const void* user, std::size_t count) {
  std::vector<LayoutRun> runs;
  runs.reserve(type.map.size());
  for (const TypeRun& run : type.map) {
    runs.push_back({run.offset, run.block_bytes(), run.blocks, run.stride});
  }
  return BufferLayout(user, std::move(runs), count, type.extent);
}

void unpack(const TypeObject& type, const std::byte* packed, std::size_t bytes, void* user,
            std::size_t count) {
  if (count == 0 || type.size == 0 || bytes == 0) return;
  if (type.contiguous_for(count)) {
    std::memcpy(address_at(user, type.map.front().offset), packed,
                std::min(bytes, count * type.size));
    return;
  }
  auto* from = const_cast<std::byte*>(packed);  // only read: transfer<false> copies out of it
  for (std::size_t item = 0; item < count && bytes > 0; ++item) {
    std::byte* base = address_at(user, static_cast<MPI_Aint>(item) * type.extent);
    for (const TypeRun& run : type.map) {
      std::size_t n = transfer<false>(run, base, from, bytes);
      from += n;
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
