// The element types of the typed API (halyard/typed.hpp): which Datatype a C++ element type
// travels and reduces as, deduced at compile time.
//
// Reducible element types have a Datatype the reduction kernels compute in: the integer types
// (not bool), float, double, std::complex<float/double> (two parts each: their sum is the sum
// of the parts; prod runs as a custom op), halyard::float16, halyard::bfloat16 and, where the
// compiler has it, _Float16. Every other trivially copyable type travels as its bytes
// (Datatype::kUint8): the non-reducing collectives take it, and so do reductions with a
// function object (ops.hpp); the predefined ops refuse it at compile time.
#pragma once

#include <complex>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "runtime/datatypes/datatype.hpp"

namespace halyard {

// IEEE binary16 and bfloat16 elements. C++20 has no such arithmetic types, so these hold the
// bit pattern (what the runtime's kernels read and write, converting to float32 to compute).
struct float16 {
  std::uint16_t bits = 0;
  friend bool operator==(float16, float16) = default;
};
struct bfloat16 {
  std::uint16_t bits = 0;
  friend bool operator==(bfloat16, bfloat16) = default;
};

namespace typed_detail {

// What a reducible element type is to the kernels: its Datatype, how many Datatype elements one
// C++ element holds (2 for a complex), and which op families apply.
template <Datatype kType, std::size_t kLanes = 1, bool kInteger = false, bool kComplex = false>
struct ReducibleAs {
  static constexpr Datatype type = kType;
  static constexpr std::size_t lanes = kLanes;
  static constexpr bool integer = kInteger;
  static constexpr bool complex = kComplex;
};

template <std::size_t kBytes, bool kSigned>
constexpr Datatype integer_datatype() {
  if constexpr (kBytes == 1) return kSigned ? Datatype::kInt8 : Datatype::kUint8;
  if constexpr (kBytes == 2) return kSigned ? Datatype::kInt16 : Datatype::kUint16;
  if constexpr (kBytes == 4) return kSigned ? Datatype::kInt32 : Datatype::kUint32;
  if constexpr (kBytes == 8) return kSigned ? Datatype::kInt64 : Datatype::kUint64;
}

// No Datatype: the type travels as bytes only.
template <class T>
struct ElementTraits {};

template <std::integral T>
requires(!std::same_as<T, bool> && sizeof(T) <= 8) struct ElementTraits<T>
    : ReducibleAs<integer_datatype<sizeof(T), std::is_signed_v<T>>(), 1, true> {
};
template <>
struct ElementTraits<float> : ReducibleAs<Datatype::kFloat32> {};
template <>
struct ElementTraits<double> : ReducibleAs<Datatype::kFloat64> {};
template <>
struct ElementTraits<float16> : ReducibleAs<Datatype::kFloat16> {};
template <>
struct ElementTraits<bfloat16> : ReducibleAs<Datatype::kBFloat16> {};
#if defined(__FLT16_MAX__)
template <>
struct ElementTraits<_Float16> : ReducibleAs<Datatype::kFloat16> {};
#endif
template <>
struct ElementTraits<std::complex<float>> : ReducibleAs<Datatype::kFloat32, 2, false, true> {};
template <>
struct ElementTraits<std::complex<double>> : ReducibleAs<Datatype::kFloat64, 2, false, true> {};

}  // namespace typed_detail

// An element type the collectives can move: its bytes are its value.
template <class T>
concept Transferable = std::is_trivially_copyable_v<T> && !std::is_const_v<T> &&
                       !std::is_volatile_v<T> && std::is_object_v<T>;

// An element type the predefined ops (halyard::sum, ...) reduce.
template <class T>
concept Reducible = Transferable<T> && requires {
  typed_detail::ElementTraits<T>::type;
};

// The Datatype a reducible T reduces in (a complex: its parts'), e.g. datatype_of<int> is
// Datatype::kInt32 where int has 32 bits.
template <Reducible T>
inline constexpr Datatype datatype_of = typed_detail::ElementTraits<T>::type;

namespace typed_detail {

// How a buffer of T is handed to the pointer API: its Datatype and the number of those per T.
template <Transferable T>
inline constexpr Datatype wire_type = [] {
  if constexpr (Reducible<T>) return ElementTraits<T>::type;
  return Datatype::kUint8;
}();
template <Transferable T>
inline constexpr std::size_t wire_per_element = [] {
  if constexpr (Reducible<T>) return ElementTraits<T>::lanes;
  return sizeof(T);
}();

}  // namespace typed_detail
}  // namespace halyard
