// Tree construction: every shape, size 1..17, every root, radix 2..5, and the topology-aware
// tree on synthetic placement tables.
#include <gtest/gtest.h>

#include <algorithm>
#include <queue>
#include <random>
#include <string>
#include <vector>

#include "collectives/adapt/segmentation.hpp"
#include "collectives/adapt/topo_tree.hpp"
#include "collectives/adapt/tree.hpp"
#include "runtime/support/error.hpp"

namespace halyard::adapt {
namespace {

// Every rank is reached exactly once from the root, and parent/children agree.
void expect_valid_tree(const Tree& tree, int size, int root, const std::string& what) {
  SCOPED_TRACE(what);
  ASSERT_EQ(tree.size(), size);
  ASSERT_EQ(static_cast<int>(tree.children.size()), size);
  EXPECT_EQ(tree.root, root);
  EXPECT_EQ(tree.parent[static_cast<std::size_t>(root)], -1);
  for (int r = 0; r < size; ++r) {
    const int p = tree.parent[static_cast<std::size_t>(r)];
    if (r != root) {
      ASSERT_GE(p, 0) << "rank " << r << " has no parent";
      ASSERT_LT(p, size);
      ASSERT_NE(p, r);
      const auto& siblings = tree.children[static_cast<std::size_t>(p)];
      EXPECT_EQ(std::count(siblings.begin(), siblings.end(), r), 1)
          << "rank " << r << " is not listed once among its parent " << p << "'s children";
    }
    for (int c : tree.children[static_cast<std::size_t>(r)]) {
      ASSERT_GE(c, 0);
      ASSERT_LT(c, size);
      EXPECT_EQ(tree.parent[static_cast<std::size_t>(c)], r)
          << "child " << c << " of " << r << " names another parent";
    }
  }
  std::vector<int> seen(static_cast<std::size_t>(size), 0);
  std::queue<int> frontier;
  frontier.push(root);
  while (!frontier.empty()) {
    int r = frontier.front();
    frontier.pop();
    ++seen[static_cast<std::size_t>(r)];
    for (int c : tree.children[static_cast<std::size_t>(r)]) frontier.push(c);
  }
  for (int r = 0; r < size; ++r) {
    EXPECT_EQ(seen[static_cast<std::size_t>(r)], 1) << "rank " << r << " reached that often";
  }
}

int depth(const Tree& tree) {
  int deepest = 0;
  for (int r = 0; r < tree.size(); ++r) {
    int d = 0;
    for (int p = r; tree.parent[static_cast<std::size_t>(p)] >= 0;
         p = tree.parent[static_cast<std::size_t>(p)]) {
      ++d;
    }
    deepest = std::max(deepest, d);
  }
  return deepest;
}

// Depth of a radix-k tree over n ranks: each hop clears one non-zero base-k digit, so it is
// the most non-zero digits any v < n has.
int knomial_depth(int n, int k) {
  int deepest = 0;
  for (int v = 0; v < n; ++v) {
    int digits = 0;
    for (int x = v; x > 0; x /= k) digits += x % k != 0 ? 1 : 0;
    deepest = std::max(deepest, digits);
  }
  return deepest;
}

int ceil_log(int n, int k) {
  int levels = 0;
  for (long reach = 1; reach < n; reach *= k) ++levels;
  return levels;
}

TEST(AdaptTree, PlainShapesAreValidForEverySizeAndRoot) {
  for (int size = 1; size <= 17; ++size) {
    for (int root = 0; root < size; ++root) {
      for (TreeShape shape : {TreeShape::kChain, TreeShape::kBinary, TreeShape::kBinomial}) {
        Tree tree = build_plain_tree(shape, 2, size, root);
        expect_valid_tree(tree, size, root,
                          std::string(tree_shape_name(shape)) + " size " + std::to_string(size) +
                              " root " + std::to_string(root));
      }
      for (int radix = 2; radix <= 5; ++radix) {
        Tree tree = build_plain_tree(TreeShape::kKnomial, radix, size, root);
        expect_valid_tree(tree, size, root,
                          "knomial radix " + std::to_string(radix) + " size " +
                              std::to_string(size) + " root " + std::to_string(root));
        EXPECT_EQ(depth(tree), knomial_depth(size, radix));
      }
    }
  }
}

TEST(AdaptTree, ShapesHaveTheirDepthAndFanOut) {
  for (int size = 1; size <= 17; ++size) {
    Tree chain = build_plain_tree(TreeShape::kChain, 2, size, size / 2);
    EXPECT_EQ(depth(chain), size - 1);
    Tree binary = build_plain_tree(TreeShape::kBinary, 2, size, size - 1);
    for (const auto& kids : binary.children) EXPECT_LE(kids.size(), 2u);
    EXPECT_EQ(depth(binary), ceil_log(size + 1, 2) - 1);
    Tree binomial = build_plain_tree(TreeShape::kBinomial, 2, size, 0);
    EXPECT_EQ(static_cast<int>(binomial.children[0].size()), ceil_log(size, 2));
    EXPECT_EQ(depth(binomial), knomial_depth(size, 2));
  }
}

TEST(AdaptTree, BinomialMatchesKnomialRadixTwoAndServesBigSubtreesFirst) {
  Tree binomial = build_plain_tree(TreeShape::kBinomial, 2, 16, 3);
  Tree knomial = build_plain_tree(TreeShape::kKnomial, 2, 16, 3);
  EXPECT_EQ(binomial.parent, knomial.parent);
  EXPECT_EQ(binomial.children, knomial.children);
  // Root 3 rotates: virtual rank v is rank (3 + v) % 16; the root serves v = 8, 4, 2, 1.
  EXPECT_EQ(binomial.children[3], (std::vector<int>{11, 7, 5, 4}));
}

TEST(AdaptTree, InvalidArgumentsThrow) {
  EXPECT_THROW(build_plain_tree(TreeShape::kBinary, 2, 4, 4), Error);
  EXPECT_THROW(build_plain_tree(TreeShape::kBinary, 2, 0, 0), Error);
  EXPECT_THROW(build_plain_tree(TreeShape::kKnomial, 1, 4, 0), Error);
  EXPECT_THROW(build_plain_tree(TreeShape::kTopo, 2, 4, 0), Error);
}

TEST(AdaptTreeShape, NamesRoundTripAndUnknownNamesListTheValidOnes) {
  for (TreeShape shape : {TreeShape::kChain, TreeShape::kBinary, TreeShape::kBinomial,
                          TreeShape::kKnomial, TreeShape::kTopo}) {
    EXPECT_EQ(parse_tree_shape(tree_shape_name(shape)), shape);
  }
  try {
    parse_tree_shape("ring");
    FAIL() << "no exception";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument);
    EXPECT_NE(std::string(e.what()).find("chain|binary|binomial|knomial|topo"), std::string::npos);
  }
}

TEST(AdaptSegmentation, RoundsToWholeElements) {
  Segmentation s = Segmentation::make(10, 4, 10);  // 10 bytes -> 2 elements
  EXPECT_EQ(s.segment_elements, 2u);
  EXPECT_EQ(s.num_segments, 5u);
  s = Segmentation::make(7, 8, 3);  // smaller than one element -> one element
  EXPECT_EQ(s.segment_elements, 1u);
  EXPECT_EQ(s.num_segments, 7u);
  s = Segmentation::make(11, 4, 16);
  EXPECT_EQ(s.num_segments, 3u);
  EXPECT_EQ(s.elements(2), 3u);
  EXPECT_EQ(s.offset_bytes(2), 32u);
  EXPECT_EQ(s.max_segment_bytes(), 16u);
  s = Segmentation::make(0, 4, 16);
  EXPECT_EQ(s.num_segments, 0u);
  s = Segmentation::make(1000, 2, 0);  // 0: no segmentation
  EXPECT_EQ(s.num_segments, 1u);
}

// Nodes x packages x cores, ranks laid out in order (Figure 4.4 of the dissertation).
std::vector<TopologyRow> regular_table(int nodes, int packages, int cores) {
  std::vector<TopologyRow> rows;
  for (int n = 0; n < nodes; ++n) {
    for (int p = 0; p < packages; ++p) {
      for (int c = 0; c < cores; ++c) {
        TopologyRow row;
        row.node_id = n;
        row.package = p;
        row.numa = p;
        row.core = p * cores + c;
        rows.push_back(row);
      }
    }
  }
  return rows;
}

struct LinkCounts {
  int inter_node = 0;
  int inter_group = 0;
  int intra_group = 0;
};

LinkCounts count_links(const Tree& tree, const std::vector<TopologyRow>& rows) {
  LinkCounts counts;
  for (int r = 0; r < tree.size(); ++r) {
    const int p = tree.parent[static_cast<std::size_t>(r)];
    if (p < 0) continue;
    const TopologyRow& a = rows[static_cast<std::size_t>(r)];
    const TopologyRow& b = rows[static_cast<std::size_t>(p)];
    if (a.node_id != b.node_id) {
      ++counts.inter_node;
    } else if (a.package != b.package || a.numa != b.numa) {
      ++counts.inter_group;
    } else {
      ++counts.intra_group;
    }
  }
  return counts;
}

TEST(AdaptTopoTree, FewestSlowLinksForEveryRoot) {
  // 2 nodes x 2 sockets x 4 cores: 1 inter-node, 2 inter-socket, 12 intra-socket links
  // (section 4.2.1), whatever the root.
  const auto rows = regular_table(2, 2, 4);
  Params params;
  for (int root = 0; root < 16; ++root) {
    Tree tree = build_topo_tree(rows, root, params);
    expect_valid_tree(tree, 16, root, "root " + std::to_string(root));
    LinkCounts links = count_links(tree, rows);
    EXPECT_EQ(links.inter_node, 1);
    EXPECT_EQ(links.inter_group, 2);
    EXPECT_EQ(links.intra_group, 12);
  }
}

TEST(AdaptTopoTree, RerootingSwapsTheRootIntoEveryLeadership) {
  // Figure 4.5: root 14 (node 1, socket 3) leads its socket, its node and the whole tree; the
  // old socket leader 12 becomes an ordinary member of the group.
  const auto rows = regular_table(2, 2, 4);
  Params params;
  params.topo_node_shape = TreeShape::kChain;
  params.topo_group_shape = TreeShape::kChain;
  params.topo_core_shape = TreeShape::kChain;
  Tree tree = build_topo_tree(rows, 14, params);
  // Children of the root: the other node's leader, its node's other socket leader, then the
  // next core of its own socket.
  EXPECT_EQ(tree.children[14], (std::vector<int>{0, 8, 13}));
  EXPECT_EQ(tree.parent[12], 13);  // 14 swapped places with 12 in the socket's chain
  EXPECT_EQ(tree.children[0], (std::vector<int>{4, 1}));
}

TEST(AdaptTopoTree, IrregularAndUnboundTablesForEverySizeAndRoot) {
  std::mt19937 random(12345);
  for (int size = 1; size <= 17; ++size) {
    std::vector<TopologyRow> rows(static_cast<std::size_t>(size));
    for (auto& row : rows) {
      row.node_id = static_cast<int>(random() % 3) * 7;  // ids need not be dense
      row.package = static_cast<int>(random() % 2);
      row.numa = row.package * 2 + static_cast<int>(random() % 2);
      row.core = random() % 4 == 0 ? -1 : static_cast<int>(random() % 32);
    }
    for (int root = 0; root < size; ++root) {
      for (int radix = 2; radix <= 5; ++radix) {
        Params params;
        params.knomial_radix = radix;
        params.topo_node_shape = TreeShape::kKnomial;
        params.topo_group_shape = radix % 2 == 0 ? TreeShape::kBinomial : TreeShape::kChain;
        params.topo_core_shape = radix == 5 ? TreeShape::kKnomial : TreeShape::kBinary;
        Tree tree = build_topo_tree(rows, root, params);
        expect_valid_tree(tree, size, root,
                          "topo size " + std::to_string(size) + " root " + std::to_string(root) +
                              " radix " + std::to_string(radix));
        // Exactly one link into each node other than the root's, and one into each group.
        int nodes = 0;
        std::vector<int> node_ids;
        for (const auto& row : rows) node_ids.push_back(row.node_id);
        std::sort(node_ids.begin(), node_ids.end());
        nodes = static_cast<int>(std::unique(node_ids.begin(), node_ids.end()) - node_ids.begin());
        EXPECT_EQ(count_links(tree, rows).inter_node, nodes - 1);
      }
    }
  }
}

TEST(AdaptTopoTree, TopoIsNotALevelShape) {
  Params params;
  params.topo_core_shape = TreeShape::kTopo;
  EXPECT_THROW(build_topo_tree(regular_table(1, 1, 4), 0, params), Error);
}

}  // namespace
}  // namespace halyard::adapt
