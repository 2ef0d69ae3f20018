// The binomial tree rooted at any rank: ranks are renumbered relative to the root
// (v = (rank - root) mod size); v's parent is v with its lowest set bit cleared, and its
// children are v + 2^k for every 2^k below that bit. Used by binomial bcast and reduce.
#pragma once

#include "collectives/base/rank_list.hpp"

namespace halyard::base {

struct BinomialTree {
  BinomialTree(int rank, int size, int root) {
    int v = (rank - root + size) % size;
    for (int mask = 1; mask < size; mask <<= 1) {
      if ((v & mask) != 0) {
        parent = ((v - mask) + root) % size;
        break;
      }
      if (v + mask < size) children.push_back((v + mask + root) % size);
    }
  }

  int parent = -1;  // -1 at the root
  // Smallest subtree first: reduce receives from them first (they finish first); bcast walks
  // the list backwards to feed the biggest subtree first.
  RankList children;
};

}  // namespace halyard::base
