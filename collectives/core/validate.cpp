#include "collectives/core/validate.hpp"

#include <array>
#include <string>

#include "collectives/core/in_place.hpp"
#include "collectives/core/memory_kind.hpp"
#include "runtime/support/error.hpp"

namespace halyard::core {

namespace {

// Which ranks pass a buffer, and where kInPlace may stand for it (MPI's rules).
enum class Where { kNowhere, kEveryRank, kRootOnly };
enum class InPlace { kNever, kAtRoot, kAlways };
struct BufferRule {
  Where where = Where::kNowhere;
  InPlace in_place = InPlace::kNever;
};

// What a collective takes, so one generic check serves every collective.
enum class Typing { kNone, kDatatype, kReduction };
// Which buffers the per-rank counts (CollArgs::counts, ::send_counts) describe.
enum class Layout {
  kNone,
  kRecvAtRoot,  // gatherv: counts and displacements of the root's recv
  kSendAtRoot,  // scatterv: counts and displacements of the root's send
  kRecv,        // allgatherv: counts and displacements of every rank's recv
  kBoth,        // alltoallv: both sides, on every rank
  kCountsOnly   // reduce_scatter: the result counts; recv holds counts[rank] elements
};
struct ArgumentRules {
  bool rooted = false;
  Typing typing = Typing::kNone;
  BufferRule send;
  BufferRule recv;
  const char* recv_name = "recv";
  bool blocks = false;  // the buffers hold one block per rank (count * comm.size() elements)
  Layout layout = Layout::kNone;
};

constexpr ArgumentRules rules_of(Collective collective) {
  constexpr BufferRule kEveryRank{Where::kEveryRank, InPlace::kNever};
  constexpr BufferRule kRootOnly{Where::kRootOnly, InPlace::kNever};
  switch (collective) {
    case Collective::kBcast:
      return {true, Typing::kDatatype, {}, kEveryRank, "buffer"};
    case Collective::kReduce:
      return {true, Typing::kReduction, {Where::kEveryRank, InPlace::kAtRoot}, kRootOnly};
    case Collective::kAllreduce:
      return {false, Typing::kReduction, {Where::kEveryRank, InPlace::kAlways}, kEveryRank};
    case Collective::kAllgather:
      return {false, Typing::kDatatype, {Where::kEveryRank, InPlace::kAlways}, kEveryRank, "recv",
              true};
    case Collective::kGather:
      return {true, Typing::kDatatype, {Where::kEveryRank, InPlace::kAtRoot}, kRootOnly, "recv",
              true};
    case Collective::kScatter:
      return {true, Typing::kDatatype, kRootOnly, {Where::kEveryRank, InPlace::kAtRoot}, "recv",
              true};
    case Collective::kAlltoall:
      return {false, Typing::kDatatype, kEveryRank, kEveryRank, "recv", true};
    case Collective::kGatherv:
      return {true,  Typing::kDatatype,  {Where::kEveryRank, InPlace::kAtRoot}, kRootOnly, "recv",
              false, Layout::kRecvAtRoot};
    case Collective::kScatterv:
      return {true,  Typing::kDatatype,  kRootOnly, {Where::kEveryRank, InPlace::kAtRoot}, "recv",
              false, Layout::kSendAtRoot};
    case Collective::kAllgatherv:
      return {false, Typing::kDatatype, {Where::kEveryRank, InPlace::kAlways}, kEveryRank, "recv",
              false, Layout::kRecv};
    case Collective::kAlltoallv:
      return {false, Typing::kDatatype, {Where::kEveryRank, InPlace::kAlways}, kEveryRank, "recv",
              false, Layout::kBoth};
    case Collective::kReduceScatterBlock:
      return {false, Typing::kReduction, {Where::kEveryRank, InPlace::kAlways}, kEveryRank, "recv",
              true};
    case Collective::kReduceScatter:
      return {false, Typing::kReduction, {Where::kEveryRank, InPlace::kAlways}, kEveryRank, "recv",
              false, Layout::kCountsOnly};
    case Collective::kScan:
    case Collective::kExscan:
      return {false, Typing::kReduction, {Where::kEveryRank, InPlace::kAlways}, kEveryRank};
    case Collective::kBarrier:
      return {};
  }
  return {};
}

// Indexed by Collective: looked up, not built, on every call.
constexpr std::array<ArgumentRules, kCollectiveCount> kRules = [] {
  std::array<ArgumentRules, kCollectiveCount> rules{};
  for (std::size_t c = 0; c < kCollectiveCount; ++c) rules[c] = rules_of(Collective(c));
  return rules;
}();

// The messages are built out of line, off the hot path: a valid call costs a few comparisons.
[[noreturn, gnu::cold, gnu::noinline]] void invalid(const CollArgs& args, const std::string& what) {
  throw Error(ErrorCode::kInvalidArgument,
              std::string(operation_name(args.collective)) + ": " + what);
}

[[noreturn, gnu::cold, gnu::noinline]] void invalid_root(const CollArgs& args) {
  invalid(args, "root " + std::to_string(args.root) + " is outside the communicator of size " +
                    std::to_string(args.comm.size()));
}

[[noreturn, gnu::cold, gnu::noinline]] void invalid_datatype(const CollArgs& args) {
  invalid(args, "type " + std::to_string(static_cast<int>(args.type)) + " is not a Datatype");
}

[[noreturn, gnu::cold, gnu::noinline]] void invalid_op(const CollArgs& args) {
  if (!op_is_valid(args.op)) {
    invalid(args, "op " + std::to_string(static_cast<int>(args.op)) + " is not an Op");
  }
  try {
    check_op_supported(args.op, args.type);
  } catch (const Error& error) {
    invalid(args, error.what());
  }
  invalid(args, "op " + std::string(op_name(args.op)) + " is not defined for type " +
                    std::string(datatype_name(args.type)));
}

[[noreturn, gnu::cold, gnu::noinline]] void invalid_buffer(const CollArgs& args, const void* buffer,
                                                           const char* name, std::size_t count) {
  if (is_in_place(buffer)) invalid(args, std::string(name) + " may not be kInPlace here");
  invalid(args, std::string(name) + " is null with count " + std::to_string(count));
}

// Not null when it holds count > 0 elements; kInPlace only where the rule allows it.
inline void check_buffer(const CollArgs& args, const void* buffer, const char* name,
                         const BufferRule& rule, bool root, std::size_t count) {
  if (rule.where == Where::kNowhere || (rule.where == Where::kRootOnly && !root)) return;
  if (is_in_place(buffer)) {
    if (rule.in_place == InPlace::kAlways || (rule.in_place == InPlace::kAtRoot && root)) return;
    invalid_buffer(args, buffer, name, count);
  }
  if (buffer == nullptr && count > 0) invalid_buffer(args, buffer, name, count);
}

// The elements of a buffer with per-rank counts (their sum); the counts, and the displacements
// where `displacements` names them, must not be null.
[[gnu::cold, gnu::noinline]] std::size_t layout_elements(const CollArgs& args,
                                                         const std::size_t* counts,
                                                         const char* counts_name,
                                                         const std::size_t* displacements,
                                                         const char* displacements_name) {
  if (counts == nullptr) invalid(args, std::string(counts_name) + " is null");
  if (displacements_name != nullptr && displacements == nullptr) {
    invalid(args, std::string(displacements_name) + " is null");
  }
  std::size_t elements = 0;
  for (int r = 0; r < args.comm.size(); ++r) elements += counts[r];
  return elements;
}

// The element counts check_buffer() holds send and recv to: count, or the sum of the per-rank
// counts where the collective has them (and they are significant on this rank).
struct BufferCounts {
  std::size_t send;
  std::size_t recv;
};

// This rank's own block (count) must be the size its own entry of the counts gives it (MPI's
// rule; a copy of the wrong size would run past one of the buffers). Not checked in place: the
// block is already where it belongs.
void check_own_count(const CollArgs& args, const void* own_buffer) {
  const std::size_t expected = args.counts[args.comm.rank()];
  if (is_in_place(own_buffer) || args.count == expected) return;
  invalid(args, "count " + std::to_string(args.count) + " does not match counts[" +
                    std::to_string(args.comm.rank()) + "] " + std::to_string(expected));
}

BufferCounts buffer_counts(const CollArgs& args, Layout layout, bool root) {
  const auto described = [&](const char* counts_name, const char* displacements_name) {
    return layout_elements(args, args.counts, counts_name, args.displacements, displacements_name);
  };
  std::size_t elements = 0;
  switch (layout) {
    case Layout::kNone:
      return {args.count, args.count};
    case Layout::kRecvAtRoot:
      if (!root) return {args.count, 0};
      elements = described("counts", "displacements");
      check_own_count(args, args.send);
      return {args.count, elements};
    case Layout::kSendAtRoot:
      if (!root) return {0, args.count};
      elements = described("counts", "displacements");
      check_own_count(args, args.recv);
      return {elements, args.count};
    case Layout::kRecv:
      elements = described("counts", "displacements");
      check_own_count(args, args.send);
      return {args.count, elements};
    case Layout::kBoth: {
      const std::size_t recv = described("recv_counts", "recv_displacements");
      if (is_in_place(args.send)) return {0, recv};
      const std::size_t send = layout_elements(args, args.send_counts, "send_counts",
                                               args.send_displacements, "send_displacements");
      // This rank's block to itself: both sides of the copy must agree.
      const auto me = static_cast<std::size_t>(args.comm.rank());
      if (args.send_counts[me] != args.counts[me]) {
        invalid(args, "send_counts[" + std::to_string(me) + "] " +
                          std::to_string(args.send_counts[me]) + " does not match recv_counts[" +
                          std::to_string(me) + "] " + std::to_string(args.counts[me]));
      }
      return {send, recv};
    }
    case Layout::kCountsOnly:
      return {layout_elements(args, args.counts, "counts", nullptr, nullptr),
              args.counts[args.comm.rank()]};
  }
  return {args.count, args.count};
}

// validate()'s argument checks, and settle()'s body inlined into validate() too: the C++ API
// pays for one call, not two.
[[gnu::always_inline]] inline void check_arguments(const CollArgs& args) {
  if (!args.comm.valid()) invalid(args, "comm is not a valid communicator");
  const ArgumentRules& rules = kRules[static_cast<std::size_t>(args.collective)];
  bool root = false;
  if (rules.rooted) {
    if (args.root < 0 || args.root >= args.comm.size()) invalid_root(args);
    root = args.is_root();
  }
  if (rules.typing != Typing::kNone && !datatype_is_valid(args.type)) invalid_datatype(args);
  if (rules.typing == Typing::kReduction &&
      !(op_is_valid(args.op) && op_supports(args.op, args.type))) {
    invalid_op(args);
  }
  const BufferCounts counts = rules.layout == Layout::kNone
                                  ? BufferCounts{args.count, args.count}
                                  : buffer_counts(args, rules.layout, root);
  check_buffer(args, args.send, "send", rules.send, root, counts.send);
  check_buffer(args, args.recv, rules.recv_name, rules.recv, root, counts.recv);
}

[[gnu::always_inline]] inline void settle_inline(CollArgs& args) {
  const ArgumentRules& rules = kRules[static_cast<std::size_t>(args.collective)];
  const std::size_t element = datatype_size(args.type);
  const std::size_t blocks = rules.blocks ? static_cast<std::size_t>(args.comm.size()) : 1;
  if (args.collective == Collective::kReduceScatter) {
    // The whole vector, as for the other reductions: the sum of the result counts.
    args.count = 0;
    for (int r = 0; r < args.comm.size(); ++r) args.count += args.counts[r];
  }
  // Multiplications that report overflow rather than divisions, which cost 10-40 cycles each
  // on every call.
  std::size_t bytes = 0;
  std::size_t all_blocks_bytes = 0;
  if (__builtin_mul_overflow(args.count, element, &bytes) ||
      __builtin_mul_overflow(bytes, blocks, &all_blocks_bytes)) [[unlikely]] {
    invalid(args, "count " + std::to_string(args.count) + " is too large");
  }
  args.bytes = bytes;
  args.memory = MemoryKind::kHost;
  // A runtime without device support (no CUDA transport) has host memory only: nothing to ask.
  DeviceSupport* const support = args.comm.valid() ? device_support_of(args.comm) : nullptr;
  if (support == nullptr) return;
  switch (args.collective) {
    case Collective::kBarrier:
      return;  // no buffers
    case Collective::kBcast:
      args.memory = call_memory_kind(support, {{args.recv, "buffer"}}, "ibcast");
      return;
    case Collective::kReduce:
      // recv means something at the root only; elsewhere it may be anything.
      args.memory =
          args.is_root()
              ? call_memory_kind(support, {{args.send, "send"}, {args.recv, "recv"}}, "ireduce")
              : call_memory_kind(support, {{args.send, "send"}}, "ireduce");
      return;
    case Collective::kAllreduce:
      args.memory =
          call_memory_kind(support, {{args.send, "send"}, {args.recv, "recv"}}, "iallreduce");
      return;
    default:
      // The other collectives have host algorithms only: device buffers are refused, not read
      // by the CPU (issue 27).
      if (call_memory_kind(support, {{args.send, "send"}, {args.recv, "recv"}},
                           operation_name(args.collective)) == MemoryKind::kDevice) {
        refuse_device_memory(operation_name(args.collective), "a buffer");
      }
      return;
  }
}

}  // namespace

void settle(CollArgs& args) {
  settle_inline(args);
}

void validate(CollArgs& args) {
  check_arguments(args);
  settle_inline(args);
}

void validate_local_reduction(const void* in, const void* inout, std::size_t count, Datatype type,
                              Op op) {
  const auto invalid_local = [](const std::string& what) {
    throw Error(ErrorCode::kInvalidArgument, "reduce_local: " + what);
  };
  if (!datatype_is_valid(type)) {
    invalid_local("type " + std::to_string(static_cast<int>(type)) + " is not a Datatype");
  }
  if (!op_is_valid(op)) {
    invalid_local("op " + std::to_string(static_cast<int>(op)) + " is not an Op");
  }
  try {
    check_op_supported(op, type);
  } catch (const Error& error) {
    invalid_local(error.what());
  }
  if (count == 0) return;
  if (in == nullptr || is_in_place(in)) invalid_local("in is not a buffer");
  if (inout == nullptr || is_in_place(inout)) invalid_local("inout is not a buffer");
}

}  // namespace halyard::core
