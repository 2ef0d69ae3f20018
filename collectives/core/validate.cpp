#include "collectives/core/validate.hpp"

#include <limits>
#include <string>

#include "collectives/core/in_place.hpp"
#include "collectives/core/memory_kind.hpp"
#include "runtime/error.hpp"

namespace halyard::core {

namespace {

// The messages are built out of line: the checks themselves are a few comparisons per call.
[[noreturn]] void invalid(const CollArgs& args, const std::string& what) {
  throw Error(ErrorCode::kInvalidArgument,
              std::string(operation_name(args.collective)) + ": " + what);
}

[[noreturn]] void op_not_for_type(const CollArgs& args) {
  try {
    check_op_supported(args.op, args.type);
  } catch (const Error& error) {
    invalid(args, error.what());
  }
  invalid(args, "op " + std::string(op_name(args.op)) + " is not defined for type " +
                    std::string(datatype_name(args.type)));
}

void check_root(const CollArgs& args) {
  if (args.root < 0 || args.root >= args.comm.size()) {
    invalid(args, "root " + std::to_string(args.root) + " is outside the communicator of size " +
                      std::to_string(args.comm.size()));
  }
}

void check_datatype(const CollArgs& args) {
  if (!datatype_is_valid(args.type)) {
    invalid(args, "type " + std::to_string(static_cast<int>(args.type)) + " is not a Datatype");
  }
}

void check_reduction(const CollArgs& args) {
  check_datatype(args);
  if (!op_is_valid(args.op)) {
    invalid(args, "op " + std::to_string(static_cast<int>(args.op)) + " is not an Op");
  }
  if (!op_supports(args.op, args.type)) op_not_for_type(args);
}

// Which ranks pass a buffer, and where kInPlace may stand for it (MPI's rules).
enum class Where { kNowhere, kEveryRank, kRootOnly };
enum class InPlace { kNever, kAtRoot, kAlways };
struct BufferRule {
  Where where = Where::kNowhere;
  InPlace in_place = InPlace::kNever;
};

// What a collective takes, so one generic check serves every collective.
enum class Typing { kNone, kDatatype, kReduction };
struct ArgumentRules {
  bool rooted = false;
  Typing typing = Typing::kNone;
  BufferRule send;
  BufferRule recv;
  const char* recv_name = "recv";
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
      return {false, Typing::kDatatype, {Where::kEveryRank, InPlace::kAlways}, kEveryRank};
    case Collective::kGather:
      return {true, Typing::kDatatype, {Where::kEveryRank, InPlace::kAtRoot}, kRootOnly};
    case Collective::kScatter:
      return {true, Typing::kDatatype, kRootOnly, kEveryRank};
    case Collective::kAlltoall:
      return {false, Typing::kDatatype, kEveryRank, kEveryRank};
    case Collective::kBarrier:
      return {};
  }
  return {};
}

// Not null when it holds count > 0 elements; kInPlace only where the rule allows it.
void check_buffer(const CollArgs& args, const void* buffer, const char* name,
                  const BufferRule& rule) {
  const bool root = args.is_root();
  if (rule.where == Where::kNowhere || (rule.where == Where::kRootOnly && !root)) return;
  if (is_in_place(buffer)) {
    const bool allowed =
        rule.in_place == InPlace::kAlways || (rule.in_place == InPlace::kAtRoot && root);
    if (!allowed) invalid(args, std::string(name) + " may not be kInPlace here");
    return;
  }
  if (buffer == nullptr && args.count > 0) {
    invalid(args, std::string(name) + " is null with count " + std::to_string(args.count));
  }
}

// The collectives whose buffers hold one block per rank.
bool has_blocks(Collective collective) {
  return collective == Collective::kAllgather || collective == Collective::kGather ||
         collective == Collective::kScatter || collective == Collective::kAlltoall;
}

}  // namespace

void check_arguments(const CollArgs& args) {
  if (!args.comm.valid()) invalid(args, "comm is not a valid communicator");
  const ArgumentRules rules = rules_of(args.collective);
  if (rules.rooted) check_root(args);
  if (rules.typing == Typing::kDatatype) check_datatype(args);
  if (rules.typing == Typing::kReduction) check_reduction(args);
  check_buffer(args, args.send, "send", rules.send);
  check_buffer(args, args.recv, rules.recv_name, rules.recv);
}

void settle(CollArgs& args) {
  constexpr std::size_t kMax = std::numeric_limits<std::size_t>::max();
  const std::size_t element = datatype_size(args.type);
  const std::size_t blocks =
      has_blocks(args.collective) ? static_cast<std::size_t>(args.comm.size()) : 1;
  if (args.count != 0 && (element > kMax / args.count || blocks > kMax / (args.count * element))) {
    invalid(args, "count " + std::to_string(args.count) + " is too large");
  }
  args.bytes = args.count * element;
  const std::string_view operation = operation_name(args.collective);
  switch (args.collective) {
    case Collective::kBcast:
      args.memory = call_memory_kind(args.comm, {{args.recv, "buffer"}}, operation);
      return;
    case Collective::kReduce:
      // recv means something at the root only; elsewhere it may be anything.
      args.memory =
          args.is_root()
              ? call_memory_kind(args.comm, {{args.send, "send"}, {args.recv, "recv"}}, operation)
              : call_memory_kind(args.comm, {{args.send, "send"}}, operation);
      return;
    case Collective::kAllreduce:
      args.memory =
          call_memory_kind(args.comm, {{args.send, "send"}, {args.recv, "recv"}}, operation);
      return;
    default:
      // The other collectives have host algorithms only.
      args.memory = MemoryKind::kHost;
      return;
  }
}

}  // namespace halyard::core
