#include "collectives/adapt/topo_tree.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "runtime/support/error.hpp"

namespace halyard::adapt {
namespace {

using CoreGroup = std::vector<int>;         // ranks; [0] leads the group
using NodeGroups = std::vector<CoreGroup>;  // core groups; [0] holds the node leader

// Moves the element satisfying `holds_root` to the front by swapping it with the front, the
// dissertation's re-rooting step (a swap, not a rotation, so the rest of the level keeps its
// positions and the tree its shape).
template <typename T, typename Pred>
void swap_to_front(std::vector<T>& items, Pred holds_root) {
  auto it = std::find_if(items.begin(), items.end(), holds_root);
  if (it != items.end()) std::iter_swap(items.begin(), it);
}

bool contains(const CoreGroup& group, int rank) {
  return std::find(group.begin(), group.end(), rank) != group.end();
}

}  // namespace

Tree build_topo_tree(std::span<const TopologyRow> rows, int root, const Params& params) {
  const int size = static_cast<int>(rows.size());
  if (size < 1) throw Error(ErrorCode::kInvalidArgument, "topology rows must not be empty");
  if (root < 0 || root >= size) {
    throw Error(ErrorCode::kInvalidArgument, "root " + std::to_string(root) +
                                                 " is outside the communicator of size " +
                                                 std::to_string(size));
  }

  // node_id -> (package, numa) -> ranks; ordered maps keep every rank's view identical.
  std::map<int, std::map<std::pair<int, int>, CoreGroup>> by_node;
  for (int r = 0; r < size; ++r) {
    const TopologyRow& row = rows[static_cast<std::size_t>(r)];
    by_node[row.node_id][{row.package, row.numa}].push_back(r);
  }

  std::vector<NodeGroups> nodes;
  for (auto& [node_id, groups] : by_node) {
    NodeGroups node;
    for (auto& [key, members] : groups) {
      // The natural leader is the lowest core (the dissertation's choice), then lowest rank.
      std::sort(members.begin(), members.end(), [&](int a, int b) {
        auto ka = std::make_tuple(rows[static_cast<std::size_t>(a)].core, a);
        auto kb = std::make_tuple(rows[static_cast<std::size_t>(b)].core, b);
        return ka < kb;
      });
      swap_to_front(members, [root](int r) { return r == root; });
      node.push_back(std::move(members));
    }
    swap_to_front(node, [root](const CoreGroup& g) { return contains(g, root); });
    nodes.push_back(std::move(node));
  }
  swap_to_front(nodes, [root](const NodeGroups& node) {
    return std::any_of(node.begin(), node.end(),
                       [root](const CoreGroup& g) { return contains(g, root); });
  });

  Tree tree;
  tree.root = root;
  tree.parent.assign(static_cast<std::size_t>(size), -1);
  tree.children.resize(static_cast<std::size_t>(size));
  const int radix = params.knomial_radix;

  // Upper levels first, so that a leader serves its remote (slower, larger) subtrees first.
  std::vector<int> node_leaders;
  for (const NodeGroups& node : nodes) node_leaders.push_back(node.front().front());
  link_members(params.topo_node_shape, radix, node_leaders, tree);
  for (const NodeGroups& node : nodes) {
    std::vector<int> group_leaders;
    for (const CoreGroup& group : node) group_leaders.push_back(group.front());
    link_members(params.topo_group_shape, radix, group_leaders, tree);
  }
  for (const NodeGroups& node : nodes) {
    for (const CoreGroup& group : node) link_members(params.topo_core_shape, radix, group, tree);
  }
  return tree;
}

Tree build_tree(const Communicator& comm, int root, const Params& params) {
  if (params.tree != TreeShape::kTopo) {
    return build_plain_tree(params.tree, params.knomial_radix, comm.size(), root);
  }
  std::vector<TopologyRow> rows;
  rows.reserve(static_cast<std::size_t>(comm.size()));
  for (int r = 0; r < comm.size(); ++r) rows.push_back(comm.topology_of(r));
  return build_topo_tree(rows, root, params);
}

}  // namespace halyard::adapt
