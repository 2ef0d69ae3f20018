#include "collectives/guard/call_signature.hpp"

#include "runtime/datatypes/custom_op.hpp"

namespace halyard::guard {

namespace {

std::string datatype_text(int type) {
  return type < 0 ? "none" : std::string(datatype_name(static_cast<Datatype>(type)));
}

std::string op_text(int op) {
  if (op == CallSignature::kCustomOp) return "custom op";
  return op < 0 ? "none" : std::string(op_name(static_cast<Op>(op)));
}

std::string root_text(int root) {
  return root < 0 ? "none" : std::to_string(root);
}

void add_difference(std::string& out, const char* field, const std::string& a,
                    const std::string& b) {
  if (a == b) return;
  if (!out.empty()) out += ", ";
  out += std::string(field) + " (" + a + " vs " + b + ")";
}

}  // namespace

CallSignature CallSignature::rooted(core::Collective c, std::size_t count, Datatype type,
                                    int root) {
  return {c, count, static_cast<int>(type), -1, root};
}

CallSignature CallSignature::reduction(core::Collective c, std::size_t count, Datatype type, Op op,
                                       int root) {
  const int op_value = op_is_custom(op) ? kCustomOp : static_cast<int>(op);
  return {c, count, static_cast<int>(type), op_value, root};
}

CallSignature CallSignature::plain(core::Collective c, std::size_t count, Datatype type) {
  return {c, count, static_cast<int>(type), -1, -1};
}

CallSignature CallSignature::of(const core::CollArgs& args) {
  using core::Collective;
  switch (args.collective) {
    case Collective::kBcast:
    case Collective::kGather:
    case Collective::kScatter:
      return rooted(args.collective, args.count, args.type, args.root).in_memory(args.memory);
    case Collective::kReduce:
      return reduction(args.collective, args.count, args.type, args.op, args.root)
          .in_memory(args.memory);
    case Collective::kAllreduce:
      return reduction(args.collective, args.count, args.type, args.op).in_memory(args.memory);
    case Collective::kAllgather:
    case Collective::kAlltoall:
      return plain(args.collective, args.count, args.type).in_memory(args.memory);
    // The v-variants' counts differ between ranks by design: the signature leaves them out.
    case Collective::kGatherv:
    case Collective::kScatterv:
      return rooted(args.collective, 0, args.type, args.root);
    case Collective::kAllgatherv:
    case Collective::kAlltoallv:
      return plain(args.collective, 0, args.type);
    case Collective::kReduceScatterBlock:
    case Collective::kReduceScatter:
    case Collective::kScan:
    case Collective::kExscan:
      return reduction(args.collective, args.count, args.type, args.op);
    case Collective::kBarrier:
      return CallSignature{};
  }
  return CallSignature{};
}

std::string describe(const CallSignature& call) {
  std::string out = std::string(core::collective_name(call.collective)) + "(";
  if (call.datatype >= 0) {
    out += "count " + std::to_string(call.count) + ", " + datatype_text(call.datatype);
  }
  if (call.op >= 0) out += ", " + op_text(call.op);
  if (call.root >= 0) out += ", root " + root_text(call.root);
  if (call.memory != MemoryKind::kHost)
    out += ", " + std::string(memory_kind_name(call.memory)) + " memory";
  return out + ")";
}

std::string differences(const CallSignature& a, const CallSignature& b) {
  std::string out;
  add_difference(out, "collective", std::string(core::collective_name(a.collective)),
                 std::string(core::collective_name(b.collective)));
  add_difference(out, "count", std::to_string(a.count), std::to_string(b.count));
  add_difference(out, "datatype", datatype_text(a.datatype), datatype_text(b.datatype));
  add_difference(out, "op", op_text(a.op), op_text(b.op));
  add_difference(out, "root", root_text(a.root), root_text(b.root));
  add_difference(out, "buffers", memory_kind_name(a.memory), memory_kind_name(b.memory));
  return out;
}

}  // namespace halyard::guard
