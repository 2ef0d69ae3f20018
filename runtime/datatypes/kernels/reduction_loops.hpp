// Element loops of the reduction kernels, written once and compiled per ISA.
//
// Each kernel file (reduction_scalar.cpp, reduction_avx2.cpp, reduction_avx512.cpp) defines
// HALYARD_KERNEL_ISA and includes this header with its own target flags; the compiler
// auto-vectorizes the loops for that ISA. The per-ISA namespace keeps the copies apart: the
// templates would otherwise be identical symbols and the linker could keep the AVX-512 copy for
// every caller. For the same reason these loops call no out-of-line library code.
// The element operations (SumOp ... LxorOp) are constexpr so that the GPU kernels
// (transports/cuda_ipc/device_reduction.cu, built with --expt-relaxed-constexpr) use them too:
// one definition of the semantics for CPU and GPU.
#pragma once

#ifndef HALYARD_KERNEL_ISA
#error "define HALYARD_KERNEL_ISA (the per-ISA namespace) before including this header"
#endif

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "runtime/datatypes/kernels/half_float_conversion.hpp"
#include "runtime/datatypes/kernels/reduction_kernel_table.hpp"

namespace halyard::kernels::HALYARD_KERNEL_ISA {

// Integer sum and prod wrap modulo 2^bits: compute in an unsigned type at least as wide as
// unsigned int (narrower types would promote to signed int, where 65535 * 65535 overflows).
template <class T>
using WrapType =
    std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;

struct SumOp {
  template <class T>
  constexpr T operator()(T a, T b) const {
    if constexpr (std::is_floating_point_v<T>) {
      return a + b;
    } else {
      return static_cast<T>(static_cast<WrapType<T>>(a) + static_cast<WrapType<T>>(b));
    }
  }
};

struct ProdOp {
  template <class T>
  constexpr T operator()(T a, T b) const {
    if constexpr (std::is_floating_point_v<T>) {
      return a * b;
    } else {
      return static_cast<T>(static_cast<WrapType<T>>(a) * static_cast<WrapType<T>>(b));
    }
  }
};

// Floats: a NaN operand makes the result NaN (the first NaN operand is returned). When the
// operands compare equal (+0 and -0) the result is b, so every rank computes the same bits.
struct MinOp {
  template <class T>
  constexpr T operator()(T a, T b) const {
    T r = a < b ? a : b;
    if constexpr (std::is_floating_point_v<T>) {
      r = b != b ? b : r;
      r = a != a ? a : r;
    }
    return r;
  }
};

struct MaxOp {
  template <class T>
  constexpr T operator()(T a, T b) const {
    T r = a > b ? a : b;
    if constexpr (std::is_floating_point_v<T>) {
      r = b != b ? b : r;
      r = a != a ? a : r;
    }
    return r;
  }
};

struct BandOp {
  template <class T>
  constexpr T operator()(T a, T b) const {
    return static_cast<T>(a & b);
  }
};

struct BorOp {
  template <class T>
  constexpr T operator()(T a, T b) const {
    return static_cast<T>(a | b);
  }
};

struct BxorOp {
  template <class T>
  constexpr T operator()(T a, T b) const {
    return static_cast<T>(a ^ b);
  }
};

// Logical ops yield 0 or 1 of the datatype (1.0 for floats). NaN counts as true (it is not 0).
// Non-short-circuit forms so that the loops stay branch-free.
struct LandOp {
  template <class T>
  constexpr T operator()(T a, T b) const {
    return static_cast<T>(static_cast<int>(a != T{0}) & static_cast<int>(b != T{0}));
  }
};

struct LorOp {
  template <class T>
  constexpr T operator()(T a, T b) const {
    return static_cast<T>(static_cast<int>(a != T{0}) | static_cast<int>(b != T{0}));
  }
};

struct LxorOp {
  template <class T>
  constexpr T operator()(T a, T b) const {
    return static_cast<T>(static_cast<int>(a != T{0}) ^ static_cast<int>(b != T{0}));
  }
};

// One loop per aliasing case, so that each can promise the compiler no overlap (__restrict)
// and vectorize without run-time overlap checks, which would fail for out == a.
template <class T, class F>
void combine_distinct(T* __restrict out, const T* __restrict a, const T* __restrict b,
                      std::size_t n) {
  const F f;
  for (std::size_t i = 0; i < n; ++i) out[i] = f(a[i], b[i]);
}

template <class T, class F>
void combine_into_first(T* __restrict inout, const T* __restrict b, std::size_t n) {
  const F f;
  for (std::size_t i = 0; i < n; ++i) inout[i] = f(inout[i], b[i]);
}

template <class T, class F>
void combine_into_second(T* __restrict inout, const T* __restrict a, std::size_t n) {
  const F f;
  for (std::size_t i = 0; i < n; ++i) inout[i] = f(a[i], inout[i]);
}

template <class T, class F>
void combine_with_itself(T* inout, std::size_t n) {
  const F f;
  for (std::size_t i = 0; i < n; ++i) inout[i] = f(inout[i], inout[i]);
}

template <class T, class F>
void combine(void* out_raw, const void* a_raw, const void* b_raw, std::size_t n) {
  T* out = static_cast<T*>(out_raw);
  const T* a = static_cast<const T*>(a_raw);
  const T* b = static_cast<const T*>(b_raw);
  if (out == a && out == b) {
    combine_with_itself<T, F>(out, n);
  } else if (out == a) {
    combine_into_first<T, F>(out, b, n);
  } else if (out == b) {
    combine_into_second<T, F>(out, a, n);
  } else {
    combine_distinct<T, F>(out, a, b, n);
  }
}

// float16/bfloat16: widen a block of each operand to float32, combine, round back. Both
// operand blocks are read before the output block is written, so out may alias a or b. One
// float32 operation on two values of at most 11 significant bits rounded to half precision
// equals the correctly rounded half-precision result (24 >= 2 * 11 + 2), so nothing is lost by
// computing in float32.
// Always inlined: the full-block call site then compiles for a constant length.
template <class Format, class F>
[[gnu::always_inline]] inline void combine_half_block(std::uint16_t* out, const std::uint16_t* a,
                                                      const std::uint16_t* b, std::size_t m) {
  alignas(64) float wide_a[Format::kBlock];
  alignas(64) float wide_b[Format::kBlock];
  Format::to_float(a, wide_a, m);
  Format::to_float(b, wide_b, m);
  combine_into_first<float, F>(wide_a, wide_b, m);
  Format::from_float(wide_a, out, m);
}

// Full blocks get a constant length, so the compiler unrolls them; with hardware conversions
// (a block of one or two vectors) the widened values then stay in registers.
template <class Format, class F>
void combine_half(void* out_raw, const void* a_raw, const void* b_raw, std::size_t n) {
  constexpr std::size_t kBlock = Format::kBlock;
  auto* out = static_cast<std::uint16_t*>(out_raw);
  const auto* a = static_cast<const std::uint16_t*>(a_raw);
  const auto* b = static_cast<const std::uint16_t*>(b_raw);
  std::size_t done = 0;
  for (; done + kBlock <= n; done += kBlock) {
    combine_half_block<Format, F>(out + done, a + done, b + done, kBlock);
  }
  if (done < n) combine_half_block<Format, F>(out + done, a + done, b + done, n - done);
}

// Bitwise ops exist only for integers; instantiating them for floats would not compile.
template <class F>
ReductionKernel integer_kernel_for(Datatype type) {
  switch (type) {
    case Datatype::kInt8:
      return &combine<std::int8_t, F>;
    case Datatype::kInt16:
      return &combine<std::int16_t, F>;
    case Datatype::kInt32:
      return &combine<std::int32_t, F>;
    case Datatype::kInt64:
      return &combine<std::int64_t, F>;
    case Datatype::kUint8:
      return &combine<std::uint8_t, F>;
    case Datatype::kUint16:
      return &combine<std::uint16_t, F>;
    case Datatype::kUint32:
      return &combine<std::uint32_t, F>;
    case Datatype::kUint64:
      return &combine<std::uint64_t, F>;
    default:
      return nullptr;
  }
}

// Every datatype: the integer instantiations plus the floating-point ones.
template <class F>
ReductionKernel kernel_for(Datatype type) {
  switch (type) {
    case Datatype::kFloat16:
      return &combine_half<Float16Format, F>;
    case Datatype::kBFloat16:
      return &combine_half<BFloat16Format, F>;
    case Datatype::kFloat32:
      return &combine<float, F>;
    case Datatype::kFloat64:
      return &combine<double, F>;
    default:
      return integer_kernel_for<F>(type);
  }
}

inline ReductionKernel kernel_for(Op op, Datatype type) {
  switch (op) {
    case Op::kSum:
      return kernel_for<SumOp>(type);
    case Op::kProd:
      return kernel_for<ProdOp>(type);
    case Op::kMin:
      return kernel_for<MinOp>(type);
    case Op::kMax:
      return kernel_for<MaxOp>(type);
    case Op::kBand:
      return integer_kernel_for<BandOp>(type);
    case Op::kBor:
      return integer_kernel_for<BorOp>(type);
    case Op::kBxor:
      return integer_kernel_for<BxorOp>(type);
    case Op::kLand:
      return kernel_for<LandOp>(type);
    case Op::kLor:
      return kernel_for<LorOp>(type);
    case Op::kLxor:
      return kernel_for<LxorOp>(type);
  }
  return nullptr;
}

inline ReductionKernelTable build_kernel_table() {
  ReductionKernelTable table;
  for (std::size_t op = 0; op < kOpCount; ++op) {
    for (std::size_t type = 0; type < kDatatypeCount; ++type) {
      table.kernels[op][type] = kernel_for(static_cast<Op>(op), static_cast<Datatype>(type));
    }
  }
  return table;
}

}  // namespace halyard::kernels::HALYARD_KERNEL_ISA
