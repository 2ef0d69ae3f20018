#include "shim/pair_reductions.hpp"

#include <cstring>
#include <map>
#include <string>
#include <utility>

#include "shim/pair_types.hpp"

namespace halyard::mpi_shim {

namespace {

// MPI's rule: the better value wins; on equal values the lower index does (which makes the op
// commutative). `better(a, b)` is a > b for MAXLOC, a < b for MINLOC.
template <typename Pair, bool kMax>
void combine_pairs(const void* in, void* inout, std::size_t elements) {
  const auto* left = static_cast<const unsigned char*>(in);
  auto* right = static_cast<unsigned char*>(inout);
  for (std::size_t i = 0; i < elements; ++i) {
    Pair a;
    Pair b;
    std::memcpy(&a, left + i * sizeof(Pair), sizeof(Pair));  // buffers may be misaligned
    std::memcpy(&b, right + i * sizeof(Pair), sizeof(Pair));
    const bool a_better = kMax ? a.value > b.value : a.value < b.value;
    if (a_better || (a.value == b.value && a.index < b.index)) {
      std::memcpy(right + i * sizeof(Pair), &a, sizeof(Pair));
    }
  }
}

template <typename Pair>
CustomOp pair_op(bool max, const std::string& name) {
  CustomOp op;
  op.combine = max ? combine_pairs<Pair, true> : combine_pairs<Pair, false>;
  op.element_bytes = sizeof(Pair);
  op.commutative = true;
  op.name = name;
  return op;
}

CustomOp make_pair_op(bool max, const DatatypeInfo& type) {
  const std::string name = std::string(max ? "MPI_MAXLOC" : "MPI_MINLOC") + " on " + type.name;
  const std::string_view pair = type.name;
  if (pair == "MPI_FLOAT_INT") return pair_op<FloatInt>(max, name);
  if (pair == "MPI_DOUBLE_INT") return pair_op<DoubleInt>(max, name);
  if (pair == "MPI_LONG_INT") return pair_op<LongInt>(max, name);
  if (pair == "MPI_2INT") return pair_op<TwoInt>(max, name);
  if (pair == "MPI_SHORT_INT") return pair_op<ShortInt>(max, name);
  return pair_op<LongDoubleInt>(max, name);
}

}  // namespace

std::shared_ptr<const CustomOpRegistration> pair_reduction(const OpInfo& op,
                                                           const DatatypeInfo& type) {
  // Keyed by the table entries' addresses, which are stable; the shim's calls are funneled.
  static std::map<std::pair<const OpInfo*, const DatatypeInfo*>,
                  std::shared_ptr<const CustomOpRegistration>>
      registered;
  auto& slot = registered[{&op, &type}];
  if (slot == nullptr) {
    slot = std::make_shared<const CustomOpRegistration>(make_pair_op(op.halyard == Op::kMax, type));
  }
  return slot;
}

}  // namespace halyard::mpi_shim
