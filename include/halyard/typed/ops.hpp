// Reduction ops of the typed API as objects: the predefined ones (halyard::sum, max, ...) map to
// Op values; any function object T(const T&, const T&) is a custom reduction, registered with
// the runtime's custom-op machinery (runtime/datatypes/custom_op.hpp) for the duration of the
// call, exactly as the MPI shim registers MPI_Op_create's functions.
//
// Which op applies to which element type is checked at compile time: bitwise ops need an
// integer type, std::complex reduces with sum and prod only, and a struct travelling as bytes
// reduces with a function object only.
#pragma once

#include <array>
#include <bit>
#include <concepts>
#include <cstring>
#include <functional>
#include <memory>
#include <type_traits>
#include <utility>

#include "halyard/typed/element_types.hpp"
#include "runtime/datatypes/custom_op.hpp"
#include "runtime/datatypes/reduce_op.hpp"
#include "runtime/request.hpp"

namespace halyard {

// A predefined op as a value: halyard::sum is PredefinedOp<Op::kSum>.
template <Op kOp>
struct PredefinedOp {
  static constexpr Op value = kOp;
};

inline constexpr PredefinedOp<Op::kSum> sum{};
inline constexpr PredefinedOp<Op::kProd> prod{};
inline constexpr PredefinedOp<Op::kMin> min{};
inline constexpr PredefinedOp<Op::kMax> max{};
inline constexpr PredefinedOp<Op::kBand> band{};
inline constexpr PredefinedOp<Op::kBor> bor{};
inline constexpr PredefinedOp<Op::kBxor> bxor{};
inline constexpr PredefinedOp<Op::kLand> land{};
inline constexpr PredefinedOp<Op::kLor> lor{};
inline constexpr PredefinedOp<Op::kLxor> lxor{};

// A custom reduction the runtime must combine in rank order (a plain function object is taken
// as commutative): halyard::non_commutative([](const M& a, const M& b) { return a * b; }).
template <class F>
struct NonCommutative {
  F function;
};
template <class F>
NonCommutative<std::decay_t<F>> non_commutative(F&& function) {
  return {std::forward<F>(function)};
}

namespace typed_detail {

template <class O>
struct IsPredefined : std::false_type {};
template <Op kOp>
struct IsPredefined<PredefinedOp<kOp>> : std::true_type {};

template <class O>
struct CustomFunction {
  using type = O;
  static constexpr bool commutative = true;
  static const O& of(const O& op) { return op; }
};
template <class F>
struct CustomFunction<NonCommutative<F>> {
  using type = F;
  static constexpr bool commutative = false;
  static const F& of(const NonCommutative<F>& op) { return op.function; }
};

}  // namespace typed_detail

// What the reducing collectives accept as their op for elements of T (loosely, so that a wrong
// pairing reaches the static_asserts below and their messages instead of "no matching call").
template <class O, class T>
concept ReductionFor = typed_detail::IsPredefined<std::remove_cvref_t<O>>::value ||
    std::invocable<const typename typed_detail::CustomFunction<std::remove_cvref_t<O>>::type&,
                   const T&, const T&>;

namespace typed_detail {

// The pointer API's view of a reduction: elements of `type`, `per_element` of them per T, op.
struct Reduction {
  Datatype type;
  std::size_t per_element;
  Op op;
  // A custom op's registration, released with the last copy; null for a predefined op.
  std::shared_ptr<const Op> lease;

  // Keeps the custom op registered until `request` completes (callbacks run after the
  // collective's part on this rank has finished with the reduction).
  Request hold(Request request) const {
    if (lease) request.on_complete([keep = lease](const Status&) {});
    return request;
  }
};

// A T from bytes at any alignment (T need not be default-constructible).
template <class T>
T load(const std::byte* bytes) {
  std::array<std::byte, sizeof(T)> raw;
  std::memcpy(raw.data(), bytes, sizeof(T));
  return std::bit_cast<T>(raw);
}

// Element-wise inout[i] = f(in[i], inout[i]) on buffers the runtime may hand over unaligned.
template <class T, class F>
Reduction custom_reduction(F function, bool commutative) {
  static_assert(
      std::is_convertible_v<std::invoke_result_t<const F&, const T&, const T&>, T>,
      "halyard: a custom reduction must return the element type: T f(const T&, const T&)");
  CustomOp op;
  op.combine = [function = std::move(function)](const void* in, void* inout, std::size_t elements) {
    const auto* left = static_cast<const std::byte*>(in);
    auto* right = static_cast<std::byte*>(inout);
    for (std::size_t i = 0; i < elements; ++i, left += sizeof(T), right += sizeof(T)) {
      const T a = load<T>(left);
      const T b = load<T>(right);
      const T result = static_cast<T>(std::invoke(function, std::as_const(a), std::as_const(b)));
      std::memcpy(right, &result, sizeof(T));
    }
  };
  op.element_bytes = sizeof(T);
  op.commutative = commutative;
  op.name = "typed custom op";
  const Op registered = register_custom_op(std::move(op));
  std::shared_ptr<const Op> lease(new Op(registered), [](const Op* held) {
    release_custom_op(*held);
    delete held;
  });
  return {Datatype::kUint8, sizeof(T), registered, std::move(lease)};
}

// Whether reducing T with O runs as a custom op: a function object, or a complex prod.
template <class T, class O>
constexpr bool runs_as_custom_op() {
  if constexpr (!IsPredefined<O>::value) return true;
  if constexpr (Reducible<T>) return ElementTraits<T>::complex && O::value == Op::kProd;
  return false;
}

// kCustomAllowed: whether the collective has an algorithm that runs custom ops (reduce and
// allreduce only: core::Supports::custom_ops).
template <class T, bool kCustomAllowed, class O>
Reduction reduction_for(const O& op) {
  static_assert(Transferable<T>,
                "halyard: reduction buffers need a trivially copyable element type");
  static_assert(kCustomAllowed || !runs_as_custom_op<T, O>(),
                "halyard: scan, exscan and reduce_scatter_block take the predefined ops only (no "
                "algorithm runs a function object or a complex prod there); use reduce or "
                "allreduce for those");
  if constexpr (IsPredefined<O>::value) {
    static_assert(Reducible<T>,
                  "halyard: predefined ops (sum, max, ...) need an arithmetic, std::complex or "
                  "half-precision element type; reduce other trivially copyable types with a "
                  "function object, e.g. [](const T& a, const T& b) { return ...; }");
    using Traits = ElementTraits<T>;
    constexpr Op kOp = O::value;
    constexpr bool kBitwise = kOp == Op::kBand || kOp == Op::kBor || kOp == Op::kBxor;
    static_assert(!kBitwise || Traits::integer,
                  "halyard: band, bor and bxor are defined for integer element types only");
    static_assert(!Traits::complex || kOp == Op::kSum || kOp == Op::kProd,
                  "halyard: std::complex elements reduce with sum or prod only");
    if constexpr (Traits::complex && kOp == Op::kProd) {
      return custom_reduction<T>(std::multiplies<T>{}, true);
    } else {
      return {Traits::type, Traits::lanes, kOp, nullptr};
    }
  } else {
    using Custom = CustomFunction<O>;
    static_assert(std::is_copy_constructible_v<typename Custom::type>,
                  "halyard: a custom reduction's function object must be copyable");
    return custom_reduction<T>(typename Custom::type(Custom::of(op)), Custom::commutative);
  }
}

}  // namespace typed_detail
}  // namespace halyard
