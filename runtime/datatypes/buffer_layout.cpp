#include "runtime/datatypes/buffer_layout.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "runtime/support/copy_bytes.hpp"

namespace halyard {

namespace {

std::byte* address(std::uintptr_t base, std::ptrdiff_t offset) {
  return reinterpret_cast<std::byte*>(base + static_cast<std::uintptr_t>(offset));
}

// Asks for the strided side's line about 2 KiB of blocks ahead (at a stride of twice the block),
// for reading (pack) or writing (unpack). The blocks of a strided buffer are too far apart for
// the hardware's stream prefetch to run far enough ahead on its own: packing 1 MiB of single
// doubles at a 16-byte stride, 64 KiB at a time, out of cache took 107 us per MiB with it and
// 150 without, unpacking 107 and 128 (a C loop on the 2-core development VM; in the 2-rank
// allreduce the difference was within that VM's run-to-run spread). A prefetch past the end of
// the buffer is harmless: it never faults.
template <std::size_t Size, bool kPack>
inline void prefetch_ahead(const std::byte* strided, std::ptrdiff_t stride) {
  constexpr std::ptrdiff_t kAheadBlocks = 1024 / Size;
  __builtin_prefetch(strided + kAheadBlocks * stride, kPack ? 0 : 1);
}

// Copies `blocks` blocks of `Size` bytes, `stride` bytes apart on the strided side, back to back
// on the packed side. A compile-time size turns each copy into a load and a store; unrolled,
// the loop's own bookkeeping is shared by several blocks (a vector of single doubles packed in
// about half the instructions).
template <std::size_t Size, bool kPack>
void copy_blocks(std::byte* strided, std::byte* packed, std::size_t blocks, std::ptrdiff_t stride) {
#pragma GCC unroll 8
  for (std::size_t b = 0; b < blocks; ++b, strided += stride, packed += Size) {
    prefetch_ahead<Size, kPack>(strided, stride);
    if constexpr (kPack) {
      std::memcpy(packed, strided, Size);
    } else {
      std::memcpy(strided, packed, Size);
    }
  }
}

#if defined(__SSE2__)
// Blocks of 8 bytes (one double, one int64), two at a time through a 16-byte register: packing
// 512 KiB of single doubles at a 16-byte stride took 101 us with a load and a store per block
// and 33-39 us this way on the 2-core development VM (unpacking: 48-52 and 33-35 us). SSE2 is
// part of x86-64 itself, so no CPU check is needed.
template <bool kPack>
void copy_blocks_of_8(std::byte* strided, std::byte* packed, std::size_t blocks,
                      std::ptrdiff_t stride) {
  std::size_t b = 0;
  for (; b + 2 <= blocks; b += 2, strided += 2 * stride, packed += 16) {
    prefetch_ahead<8, kPack>(strided, stride);
    auto* near = reinterpret_cast<double*>(strided);
    auto* far = reinterpret_cast<double*>(strided + stride);
    auto* pair = reinterpret_cast<double*>(packed);
    if constexpr (kPack) {
      _mm_storeu_pd(pair, _mm_loadh_pd(_mm_loadl_pd(_mm_setzero_pd(), near), far));
    } else {
      const __m128d v = _mm_loadu_pd(pair);
      _mm_storel_pd(near, v);
      _mm_storeh_pd(far, v);
    }
  }
  if (b < blocks) copy_blocks<8, kPack>(strided, packed, 1, stride);
}
#endif

template <bool kPack>
void copy_blocks(std::byte* strided, std::byte* packed, std::size_t blocks, std::ptrdiff_t stride,
                 std::size_t size) {
  switch (size) {
    case 4:
      return copy_blocks<4, kPack>(strided, packed, blocks, stride);
    case 8:
#if defined(__SSE2__)
      return copy_blocks_of_8<kPack>(strided, packed, blocks, stride);
#else
      return copy_blocks<8, kPack>(strided, packed, blocks, stride);
#endif
    case 16:
      return copy_blocks<16, kPack>(strided, packed, blocks, stride);
    case 32:
      return copy_blocks<32, kPack>(strided, packed, blocks, stride);
    case 64:
      return copy_blocks<64, kPack>(strided, packed, blocks, stride);
    default:
      for (std::size_t b = 0; b < blocks; ++b, strided += stride, packed += size) {
        kPack ? copy_bytes(packed, strided, size) : copy_bytes(strided, packed, size);
      }
  }
}

template <bool kPack>
void copy_run(std::byte* user, std::byte* packed, std::size_t n) {
  kPack ? copy_bytes(packed, user, n) : copy_bytes(user, packed, n);
}

}  // namespace

void pack_blocks(const std::byte* strided, std::ptrdiff_t stride, std::size_t blocks,
                 std::size_t block_bytes, std::byte* packed) {
  // Only read: the kPack instantiation copies out of it.
  copy_blocks<true>(const_cast<std::byte*>(strided), packed, blocks, stride, block_bytes);
}

void unpack_blocks(const std::byte* packed, std::size_t blocks, std::size_t block_bytes,
                   std::byte* strided, std::ptrdiff_t stride) {
  copy_blocks<false>(strided, const_cast<std::byte*>(packed), blocks, stride, block_bytes);
}

BufferLayout::BufferLayout(const void* base, std::vector<LayoutRun> map, std::size_t items,
                           std::ptrdiff_t extent)
    : base_(reinterpret_cast<std::uintptr_t>(base)), items_(items), extent_(extent) {
  std::erase_if(map, [](const LayoutRun& run) { return run.bytes() == 0; });
  map_ = std::move(map);
  for (const LayoutRun& run : map_) item_bytes_ += run.bytes();
}

void BufferLayout::pack(std::size_t from, std::size_t n, std::byte* out) const {
  copy<true>(from, n, out);
}

void BufferLayout::unpack(std::size_t from, std::size_t n, const std::byte* in) const {
  copy<false>(from, n, const_cast<std::byte*>(in));  // only read: copy<false> copies out of it
}

std::uintptr_t BufferLayout::item_base(std::size_t item) const {
  return base_ + static_cast<std::uintptr_t>(static_cast<std::ptrdiff_t>(item) * extent_);
}

std::pair<std::size_t, std::size_t> BufferLayout::run_holding(std::size_t within) const {
  std::size_t r = 0;
  while (within >= map_[r].bytes()) within -= map_[r++].bytes();
  return {r, within};
}

BufferLayout::Span BufferLayout::span_at(std::size_t from) const {
  if (from >= bytes()) return {nullptr, 0};
  const auto [r, within] = run_holding(from % item_bytes_);
  const LayoutRun& run = map_[r];
  const std::size_t block = within / run.block_bytes;
  const std::size_t skip = within % run.block_bytes;
  return {address(item_base(from / item_bytes_),
                  run.offset + static_cast<std::ptrdiff_t>(block) * run.stride +
                      static_cast<std::ptrdiff_t>(skip)),
          run.block_bytes - skip};
}

// Starts at the run and block where packed byte `from` lies, then copies whole blocks with the
// strided loops and cut blocks at the two ends with one memcpy each.
template <bool kPack>
void BufferLayout::copy(std::size_t from, std::size_t n, std::byte* packed) const {
  if (n == 0 || item_bytes_ == 0) return;
  std::size_t item = from / item_bytes_;
  auto [first_run, within] = run_holding(from % item_bytes_);  // within: bytes of it to skip
  for (; n > 0 && item < items_; ++item, first_run = 0) {
    const std::uintptr_t base = item_base(item);
    for (std::size_t r = first_run; r < map_.size(); ++r, within = 0) {
      const LayoutRun& run = map_[r];
      std::size_t block = within / run.block_bytes;
      std::byte* at = address(base, run.offset + static_cast<std::ptrdiff_t>(block) * run.stride);
      if (const std::size_t skip = within % run.block_bytes; skip != 0) {
        const std::size_t m = std::min(run.block_bytes - skip, n);
        copy_run<kPack>(at + skip, packed, m);
        packed += m;
        n -= m;
        at += run.stride;
        ++block;
      }
      const std::size_t whole = std::min(n / run.block_bytes, run.blocks - block);
      copy_blocks<kPack>(at, packed, whole, run.stride, run.block_bytes);
      packed += whole * run.block_bytes;
      n -= whole * run.block_bytes;
      block += whole;
      at += static_cast<std::ptrdiff_t>(whole) * run.stride;
      if (n > 0 && block < run.blocks) {
        copy_run<kPack>(at, packed, n);  // n < block_bytes here: the last, cut block
        return;
      }
      if (n == 0) return;
    }
  }
}

}  // namespace halyard
