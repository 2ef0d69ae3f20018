// BufferLayout: a buffer whose data do not lie back to back (an MPI derived datatype with holes),
// described so that an algorithm can copy any range of its data to and from contiguous bytes.
// The data, taken in order, are the buffer's "packed bytes". An algorithm that takes layouts
// (core::Supports::takes_layouts) packs and unpacks piece by piece inside the copies it makes
// anyway, in pieces that stay in cache, instead of the whole buffer being staged before the call
// and unpacked after it (two more passes over memory).
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace halyard {

// `blocks` blocks of `block_bytes` bytes, the first `offset` bytes from the item's address, each
// next one `stride` bytes after the one before (offsets and strides may be negative).
struct LayoutRun {
  std::ptrdiff_t offset = 0;
  std::size_t block_bytes = 0;
  std::size_t blocks = 1;
  std::ptrdiff_t stride = 0;

  std::size_t bytes() const { return block_bytes * blocks; }
};

class BufferLayout {
 public:
  // `items` copies of `map`, one `extent` apart, the first at `base` (null with absolute
  // offsets, as MPI_BOTTOM). Runs of no bytes are dropped.
  BufferLayout(const void* base, std::vector<LayoutRun> map, std::size_t items,
               std::ptrdiff_t extent);

  std::size_t bytes() const { return item_bytes_ * items_; }

  // Where packed byte `from` (< bytes()) lies, and how many packed bytes follow it there without
  // a gap (to the end of its block): an algorithm may write a long block in place.
  struct Span {
    std::byte* at;
    std::size_t bytes;
  };
  Span span_at(std::size_t from) const;

  // Copies packed bytes [from, from + n) of the buffer to `out`.
  void pack(std::size_t from, std::size_t n, std::byte* out) const;
  // Copies `n` bytes from `in` to packed bytes [from, from + n) of the buffer; writes nothing
  // else (holes stay as they are).
  void unpack(std::size_t from, std::size_t n, const std::byte* in) const;

 private:
  template <bool kPack>
  void copy(std::size_t from, std::size_t n, std::byte* packed) const;
  std::uintptr_t item_base(std::size_t item) const;
  // The run of an item holding the item's packed byte `within` (< the item's bytes), and that
  // byte's offset in the run.
  std::pair<std::size_t, std::size_t> run_holding(std::size_t within) const;

  std::uintptr_t base_;
  std::vector<LayoutRun> map_;
  std::size_t item_bytes_ = 0;
  std::size_t items_;
  std::ptrdiff_t extent_;
};

// The strided copies under BufferLayout and the MPI shim's MPI_Pack / MPI_Unpack: `blocks`
// blocks of `block_bytes`, `stride` bytes apart at `strided`, to and from back-to-back bytes at
// `packed`.
void pack_blocks(const std::byte* strided, std::ptrdiff_t stride, std::size_t blocks,
                 std::size_t block_bytes, std::byte* packed);
void unpack_blocks(const std::byte* packed, std::size_t blocks, std::size_t block_bytes,
                   std::byte* strided, std::ptrdiff_t stride);

}  // namespace halyard
