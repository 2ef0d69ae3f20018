// The topology-aware tree (dissertation section 4.2.2), and the tree a collective call uses.
//
// Ranks are grouped three levels deep: by node, then by (package, NUMA domain) inside a node
// (a "core group"), then the cores of a group. Each group has a leader, the member with the
// lowest core (then rank), and the leaders of one level form the group of the level above:
// core-group leaders form the node's group, node leaders form the top group. Each level is
// linked with its own plain shape, so that the expensive inter-node links carry the least
// traffic and most transfers stay inside a package.
//
// Re-rooting: for a root that is not the tree's natural root, the root swaps places with the
// leader of its core group, its group swaps with the node's leading group, and its node swaps
// with the first node, so the root leads every group it belongs to and the tree keeps its
// shape (Figure 4.5 of the dissertation).
#pragma once

#include <span>

#include "collectives/adapt/adapt.hpp"
#include "collectives/adapt/tree.hpp"
#include "runtime/bootstrap/topology.hpp"
#include "runtime/communicator.hpp"

namespace halyard::adapt {

// `rows[r]` is the placement of communicator rank r. Level shapes and the k-nomial radix come
// from `params` (its `tree` field is ignored).
Tree build_topo_tree(std::span<const TopologyRow> rows, int root, const Params& params);

// The tree of `params.tree` over `comm`, rooted at `root` (topo reads comm's topology table).
Tree build_tree(const Communicator& comm, int root, const Params& params);

}  // namespace halyard::adapt
