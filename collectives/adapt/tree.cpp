#include "collectives/adapt/tree.hpp"

#include <string>

#include "runtime/support/error.hpp"

namespace halyard::adapt {
namespace {

// Positions below are indices into the member list; index 0 is the root of the level.

void link_chain(std::size_t n, std::vector<int>& parent_of, std::vector<std::vector<int>>& kids) {
  for (std::size_t v = 1; v < n; ++v) {
    parent_of[v] = static_cast<int>(v - 1);
    kids[v - 1].push_back(static_cast<int>(v));
  }
}

void link_binary(std::size_t n, std::vector<int>& parent_of, std::vector<std::vector<int>>& kids) {
  for (std::size_t v = 1; v < n; ++v) {
    std::size_t p = (v - 1) / 2;
    parent_of[v] = static_cast<int>(p);
    kids[p].push_back(static_cast<int>(v));  // left (2p+1) before right: its subtree is larger
  }
}

// Radix-k tree: v's parent clears v's lowest non-zero base-k digit; v's children set one digit
// below that position. Children of the highest position come first (largest subtrees).
void link_knomial(std::size_t n, std::size_t k, std::vector<int>& parent_of,
                  std::vector<std::vector<int>>& kids) {
  for (std::size_t v = 0; v < n; ++v) {
    std::size_t low = 1;  // k^p of v's lowest non-zero digit (for v = 0: beyond every digit)
    if (v == 0) {
      while (low < n) low *= k;
    } else {
      while ((v / low) % k == 0) low *= k;
      parent_of[v] = static_cast<int>(v - ((v / low) % k) * low);
    }
    for (std::size_t step = low / k; step >= 1; step /= k) {
      for (std::size_t d = 1; d < k; ++d) {
        std::size_t c = v + d * step;
        if (c >= n) break;
        kids[v].push_back(static_cast<int>(c));
      }
    }
  }
}

}  // namespace

void link_members(TreeShape shape, int radix, std::span<const int> members, Tree& tree) {
  const std::size_t n = members.size();
  std::vector<int> parent_of(n, -1);
  std::vector<std::vector<int>> kids(n);
  switch (shape) {
    case TreeShape::kChain:
      link_chain(n, parent_of, kids);
      break;
    case TreeShape::kBinary:
      link_binary(n, parent_of, kids);
      break;
    case TreeShape::kBinomial:
      link_knomial(n, 2, parent_of, kids);
      break;
    case TreeShape::kKnomial:
      if (radix < 2) {
        throw Error(ErrorCode::kInvalidArgument,
                    "knomial_radix must be >= 2, got " + std::to_string(radix));
      }
      link_knomial(n, static_cast<std::size_t>(radix), parent_of, kids);
      break;
    case TreeShape::kTopo:
      throw Error(ErrorCode::kInvalidArgument,
                  "tree shape topo cannot shape one level of a tree; use chain, binary, binomial "
                  "or knomial");
  }
  for (std::size_t v = 0; v < n; ++v) {
    const auto r = static_cast<std::size_t>(members[v]);
    if (parent_of[v] >= 0) tree.parent[r] = members[static_cast<std::size_t>(parent_of[v])];
    for (int c : kids[v]) tree.children[r].push_back(members[static_cast<std::size_t>(c)]);
  }
}

Tree build_plain_tree(TreeShape shape, int radix, int size, int root) {
  if (size < 1) throw Error(ErrorCode::kInvalidArgument, "size must be >= 1");
  if (root < 0 || root >= size) {
    throw Error(ErrorCode::kInvalidArgument, "root " + std::to_string(root) +
                                                 " is outside the communicator of size " +
                                                 std::to_string(size));
  }
  Tree tree;
  tree.root = root;
  tree.parent.assign(static_cast<std::size_t>(size), -1);
  tree.children.resize(static_cast<std::size_t>(size));
  std::vector<int> members(static_cast<std::size_t>(size));
  for (int v = 0; v < size; ++v) members[static_cast<std::size_t>(v)] = (root + v) % size;
  link_members(shape, radix, members, tree);
  return tree;
}

}  // namespace halyard::adapt
