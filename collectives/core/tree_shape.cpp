// Names of ADAPT's tree shapes, as HALYARD_BCAST_ALG=adapt:<tree>, HALYARD_HAN_INTER and the
// decision table spell them.
#include <array>
#include <string>
#include <utility>

#include "collectives/core/vocabulary.hpp"
#include "runtime/support/error.hpp"

namespace halyard::core {
namespace {

constexpr std::array<std::pair<TreeShape, std::string_view>, 5> kShapeNames{{
    {TreeShape::kChain, "chain"},
    {TreeShape::kBinary, "binary"},
    {TreeShape::kBinomial, "binomial"},
    {TreeShape::kKnomial, "knomial"},
    {TreeShape::kTopo, "topo"},
}};

}  // namespace

std::string_view tree_shape_name(TreeShape shape) {
  for (const auto& [value, name] : kShapeNames) {
    if (value == shape) return name;
  }
  return "invalid";
}

TreeShape parse_tree_shape(std::string_view name) {
  for (const auto& [value, known] : kShapeNames) {
    if (known == name) return value;
  }
  throw Error(ErrorCode::kInvalidArgument,
              "unknown ADAPT tree '" + std::string(name) +
                  "'; valid trees: chain|binary|binomial|knomial|topo");
}

}  // namespace halyard::core
