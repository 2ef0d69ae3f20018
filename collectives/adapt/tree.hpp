// Communication trees of ADAPT: who each rank receives from and sends to, for one root.
//
// A Tree holds the parent and the children of every rank of a communicator, in communicator
// ranks, so that a collective can look up its own links and a test can check the whole tree.
// Children are listed in the order a rank serves them: the child with the largest subtree
// first, so that the longest path down the tree starts earliest (matters for the Blocking and
// Waitall variants, which serve children one after another).
#pragma once

#include <span>
#include <vector>

#include "collectives/adapt/adapt.hpp"

namespace halyard::adapt {

struct Tree {
  int root = 0;
  std::vector<int> parent;                 // parent[r]; -1 for the root
  std::vector<std::vector<int>> children;  // children[r], in the order r serves them

  int size() const { return static_cast<int>(parent.size()); }
};

// A tree of shape `shape` (chain, binary, binomial or knomial; kTopo is not a plain shape and
// throws) over `members`, rooted at members[0]. Only the members' entries of `tree` are set;
// a member's children are appended after any it already has. This is how the topology-aware
// tree stacks one level on another.
void link_members(TreeShape shape, int radix, std::span<const int> members, Tree& tree);

// A tree over ranks 0..size-1 rooted at `root`: the shape is laid on the ranks in the order
// root, root+1, ..., wrapping around (the usual virtual-rank rotation).
Tree build_plain_tree(TreeShape shape, int radix, int size, int root);

}  // namespace halyard::adapt
