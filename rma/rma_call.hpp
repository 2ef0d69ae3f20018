// One one-sided operation as its origin states it to a Window (window.hpp), and how a target
// applies accumulates.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>

#include "runtime/datatypes/datatype.hpp"
#include "runtime/datatypes/reduce_op.hpp"

namespace halyard {

enum class RmaKind : std::int32_t { kPut, kGet, kAccumulate, kGetAccumulate, kCompareAndSwap };

// An accumulate's op and element as they travel to the target: two numbers that the target's
// AccumulateFunction understands (the runtime's Op and Datatype for the C++ API, MPI handles
// for the shim), or one of the two ops every window applies itself.
struct AccumulateCode {
  std::int32_t op = 0;
  std::int32_t element = 0;
};
inline constexpr std::int32_t kReplaceOpCode = -1;  // target = data (MPI_REPLACE)
inline constexpr std::int32_t kNoOpCode = -2;       // target unchanged (MPI_NO_OP)

// target (op)= data, element by element, for `bytes` bytes of `code.element`s (never called
// for kReplaceOpCode or kNoOpCode). It runs at the target, inside the window's message handler.
using AccumulateFunction = void (*)(AccumulateCode code, std::byte* target, const std::byte* data,
                                    std::size_t bytes);

// The C++ API's: `code.op` an Op, `code.element` a Datatype.
void accumulate_in_runtime_types(AccumulateCode code, std::byte* target, const std::byte* data,
                                 std::size_t bytes);

inline AccumulateCode runtime_accumulate_code(Op op, Datatype type) {
  return {static_cast<std::int32_t>(op), static_cast<std::int32_t>(type)};
}

// One operation (arguments checked by the caller).
struct RmaCall {
  RmaKind kind = RmaKind::kPut;
  int target = 0;
  std::int64_t disp = 0;
  // The target's side: (offset, bytes) pairs past displacement `disp`, in order, adjacent ones
  // merged; the caller's storage, read during start() only.
  std::span<const std::int64_t> target_blocks;
  // The origin's data, packed (put, accumulates; compare-and-swap: value then comparand).
  std::span<const std::byte> origin;
  // Where fetched data lands, packed (get, get-accumulate, fetch-and-op, compare-and-swap), and
  // what runs once it has (an unpack into the caller's layout), if anything.
  std::span<std::byte> result;
  std::function<void()> result_landed;
  AccumulateCode op{kReplaceOpCode, 0};
  std::shared_ptr<void> keep_alive;  // memory `origin` points into, if the caller made it
  // Nobody waits for this put, accumulate or get alone (a blocking MPI_Put or MPI_Get): a small
  // one towards a rank reached by messages may wait, packed with others to that rank, for the
  // next flush.
  bool may_pack = false;
};

}  // namespace halyard
