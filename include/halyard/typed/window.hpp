// One-sided communication in the typed API: put, get and the accumulates of a Window
// (rma/window.hpp) on std::span and other contiguous ranges, the byte counts and the Datatype
// deduced from the element type, ops as objects (halyard::sum, ...). Displacements count the
// window's disp_unit, as in MPI.
//
// Like MPI_Put, a put, get or accumulate completes at the next flush, unlock, complete or fence
// of an access epoch towards its target (which the caller must have opened: fence, lock,
// lock_all or start_access); until then the local buffer must stay untouched (and, for a get,
// unread). rput / rget return a request that completes when the operation has completed at the
// target and its data landed.
#pragma once

#include <cstdint>
#include <span>
#include <type_traits>

#include "halyard/typed/collectives.hpp"
#include "halyard/typed/element_types.hpp"
#include "halyard/typed/ops.hpp"
#include "rma/window.hpp"

namespace halyard {
namespace typed_detail {

template <Buffer R>
std::span<const std::byte> in_bytes(R&& buffer) {
  return std::as_bytes(in_span(std::forward<R>(buffer)));
}

template <Buffer R>
std::span<std::byte> out_bytes(R&& buffer) {
  return std::as_writable_bytes(out_span(std::forward<R>(buffer)));
}

// The Datatype an accumulate of T computes in, for op kOp: the element types and ops of the
// collectives' predefined reductions, but for complex products (a custom op there, which
// one-sided accumulates do not take).
template <class T, Op kOp>
constexpr Datatype accumulate_type() {
  static_assert(Reducible<T>,
                "halyard: accumulates need an element type the predefined ops reduce");
  if constexpr (Reducible<T>) {
    using Traits = ElementTraits<T>;
    constexpr bool kBitwise = kOp == Op::kBand || kOp == Op::kBor || kOp == Op::kBxor;
    static_assert(Traits::integer || !kBitwise,
                  "halyard: band, bor and bxor are defined for integer element types only");
    static_assert(!Traits::complex || kOp == Op::kSum,
                  "halyard: std::complex elements accumulate with sum only");
    return Traits::type;
  } else {
    return Datatype::kUint8;  // not reached: the assertion above failed
  }
}

}  // namespace typed_detail

template <Buffer B>
void put(Window& window, B&& data, int target, std::int64_t disp) {
  window.put(typed_detail::in_bytes(std::forward<B>(data)), target, disp);
}

template <Buffer B>
void get(Window& window, B&& into, int target, std::int64_t disp) {
  window.get(typed_detail::out_bytes(std::forward<B>(into)), target, disp);
}

template <Buffer B>
Request rput(Window& window, B&& data, int target, std::int64_t disp) {
  return window.rput(typed_detail::in_bytes(std::forward<B>(data)), target, disp);
}

template <Buffer B>
Request rget(Window& window, B&& into, int target, std::int64_t disp) {
  return window.rget(typed_detail::out_bytes(std::forward<B>(into)), target, disp);
}

// The target's elements (op)= data's, element by element, atomically per element against every
// other accumulate to them.
template <Buffer B, Op kOp>
void accumulate(Window& window, B&& data, int target, std::int64_t disp, PredefinedOp<kOp>) {
  constexpr Datatype type = typed_detail::accumulate_type<typed_detail::element_t<B>, kOp>();
  window.accumulate(typed_detail::in_bytes(std::forward<B>(data)), type, kOp, target, disp);
}

// accumulate, and `into` receives the target's elements as they were before.
template <Buffer B, Buffer R, Op kOp>
void get_accumulate(Window& window, B&& data, R&& into, int target, std::int64_t disp,
                    PredefinedOp<kOp>) {
  using T = typed_detail::element_t<B>;
  static_assert(std::is_same_v<T, typed_detail::element_t<R>>,
                "halyard: get_accumulate's data and result need the same element type");
  constexpr Datatype type = typed_detail::accumulate_type<T, kOp>();
  window.get_accumulate(typed_detail::in_bytes(std::forward<B>(data)),
                        typed_detail::out_bytes(std::forward<R>(into)), type, kOp, target, disp);
}

// One element: `into` = the target's, then the target's (op)= value.
template <Reducible T, Op kOp>
void fetch_and_op(Window& window, const T& value, T& into, int target, std::int64_t disp,
                  PredefinedOp<kOp> op) {
  get_accumulate(window, std::span<const T>(&value, 1), std::span<T>(&into, 1), target, disp, op);
}

// One element: `into` = the target's; the target's = value if it equalled `compare`.
template <Reducible T>
void compare_and_swap(Window& window, const T& value, const T& compare, T& into, int target,
                      std::int64_t disp) {
  static_assert(typed_detail::ElementTraits<T>::lanes == 1,
                "halyard: compare_and_swap takes a single integer or floating-point element");
  window.compare_and_swap(&value, &compare, &into, sizeof(T), target, disp);
}

}  // namespace halyard
