#include "runtime/datatypes/reduction.hpp"

#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <string>

#include "runtime/datatypes/custom_op.hpp"
#include "runtime/datatypes/reduction_isa.hpp"
#include "runtime/support/error.hpp"
#include "runtime/support/fast_tls.hpp"

namespace halyard {
namespace {

std::uintptr_t address(const void* p) {
  return reinterpret_cast<std::uintptr_t>(p);
}

void require_buffer(const void* p, const char* name) {
  if (p == nullptr) {
    throw Error(ErrorCode::kInvalidArgument, std::string(name) + " is null but count > 0");
  }
}

// Identical or disjoint are fine; anything in between would read elements already overwritten.
void require_identical_or_disjoint(const void* p, const char* p_name, const void* q,
                                   const char* q_name, std::size_t bytes) {
  if (p == q) return;
  const bool disjoint = address(p) + bytes <= address(q) || address(q) + bytes <= address(p);
  if (!disjoint) {
    throw Error(ErrorCode::kInvalidArgument, std::string(p_name) + " and " + q_name +
                                                 " overlap partially; they must be identical "
                                                 "or disjoint");
  }
}

bool aligned(const void* p, std::size_t alignment) {
  return address(p) % alignment == 0;
}

// The kernels may assume element alignment (vector loads after peeling). Misaligned buffers,
// rare but legal for the MPI shim, go through aligned blocks. Each block of a and b is copied
// before the block of out is written, so identical buffers stay fine.
void reduce_misaligned(kernels::ReductionKernel kernel, std::size_t element_size, void* out,
                       const void* a, const void* b, std::size_t count) {
  constexpr std::size_t kBlockBytes = 4096;
  alignas(64) unsigned char block_a[kBlockBytes];
  alignas(64) unsigned char block_b[kBlockBytes];
  const std::size_t per_block = kBlockBytes / element_size;
  auto* out_bytes = static_cast<unsigned char*>(out);
  const auto* a_bytes = static_cast<const unsigned char*>(a);
  const auto* b_bytes = static_cast<const unsigned char*>(b);
  for (std::size_t done = 0; done < count; done += per_block) {
    const std::size_t n = count - done < per_block ? count - done : per_block;
    const std::size_t offset = done * element_size;
    std::memcpy(block_a, a_bytes + offset, n * element_size);
    std::memcpy(block_b, b_bytes + offset, n * element_size);
    kernel(block_a, block_a, block_b, n);
    std::memcpy(out_bytes + offset, block_a, n * element_size);
  }
}

// The active ISA's kernel table, looked up again only when the ISA changes (use_reduction_isa):
// the lookup checks the CPU each time, a tenth of a small allreduce's reduction.
const kernels::ReductionKernelTable& active_kernels() {
  HALYARD_FAST_TLS thread_local int cached_isa = -1;
  HALYARD_FAST_TLS thread_local const kernels::ReductionKernelTable* cached = nullptr;
  const ReductionIsa isa = active_reduction_isa();
  if (static_cast<int>(isa) != cached_isa) {
    cached = &reduction_kernels(isa);
    cached_isa = static_cast<int>(isa);
  }
  return *cached;
}

// out = a (op) b with a function that only knows inout = in (op) inout: b is copied to where
// the result goes first, through a scratch copy when out is a (a must not be overwritten before
// the function reads it).
void reduce_custom(const CustomOp& op, void* out, const void* a, const void* b, std::size_t bytes) {
  if (bytes % op.element_bytes != 0) {
    throw Error(ErrorCode::kInternal, "custom op " + op.name + " got " + std::to_string(bytes) +
                                          " bytes, not whole elements of " +
                                          std::to_string(op.element_bytes));
  }
  const std::size_t elements = bytes / op.element_bytes;
  if (out == b) return op.combine(a, out, elements);
  if (out != a) {
    std::memcpy(out, b, bytes);
    return op.combine(a, out, elements);
  }
  std::unique_ptr<unsigned char[]> right(new unsigned char[bytes]);
  std::memcpy(right.get(), b, bytes);
  op.combine(a, right.get(), elements);
  std::memcpy(out, right.get(), bytes);
}

void reduce_checked(Op op, Datatype type, void* out, const char* out_name, const void* a,
                    const char* a_name, const void* b, const char* b_name, std::size_t count) {
  check_op_supported(op, type);
  if (count == 0) return;
  require_buffer(out, out_name);
  require_buffer(a, a_name);
  require_buffer(b, b_name);
  const std::size_t element_size = datatype_size(type);
  if (count > std::numeric_limits<std::size_t>::max() / element_size) {
    throw Error(
        ErrorCode::kInvalidArgument,
        "count " + std::to_string(count) + " is too large for " + std::string(datatype_name(type)));
  }
  const std::size_t bytes = count * element_size;
  require_identical_or_disjoint(out, out_name, a, a_name, bytes);
  require_identical_or_disjoint(out, out_name, b, b_name, bytes);
  reduce_validated(op, type, out, a, b, count);
}

}  // namespace

void reduce_validated(Op op, Datatype type, void* out, const void* a, const void* b,
                      std::size_t count) {
  const std::size_t element_size = datatype_size(type);
  if (op_is_custom(op)) return reduce_custom(custom_op(op), out, a, b, count * element_size);
  const kernels::ReductionKernel kernel = active_kernels().find(op, type);
  if (aligned(out, element_size) && aligned(a, element_size) && aligned(b, element_size)) {
    kernel(out, a, b, count);
  } else {
    reduce_misaligned(kernel, element_size, out, a, b, count);
  }
}

void reduce_into(Op op, Datatype type, void* inout, const void* in, std::size_t count) {
  reduce_checked(op, type, inout, "inout", inout, "inout", in, "in", count);
}

void reduce_to(Op op, Datatype type, void* out, const void* a, const void* b, std::size_t count) {
  reduce_checked(op, type, out, "out", a, "a", b, "b", count);
}

}  // namespace halyard
