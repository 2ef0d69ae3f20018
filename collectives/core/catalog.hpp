// The algorithm catalog's entry type. Each family (base, adapt, han, intranode, device) exports
// a table of entries, one per algorithm it has for one collective; collectives/select joins the
// tables into the catalog and reads everything from it: the names HALYARD_<COLL>_ALG, the
// decision table and htune accept, the choice for device buffers, and the post() of the chosen
// algorithm. Adding an algorithm is adding an entry.
#pragma once

#include <span>
#include <string_view>

#include "collectives/core/coll_args.hpp"
#include "collectives/core/comm_shape.hpp"
#include "collectives/core/selected_algorithm.hpp"
#include "runtime/request.hpp"

namespace halyard::core {

// The communicators an algorithm runs on.
enum class CommShapes {
  kAny,           // any communicator
  kOneNode,       // every member on this rank's node (intranode, device IPC)
  kSeveralNodes,  // members on more than one node (device staging)
  kOneMember,     // a communicator of one member (collectives/self)
};

// What an algorithm supports. Every family takes every valid Datatype and, for reductions,
// every Op defined for it (op_supports); memory kind and communicator shape tell them apart.
struct Supports {
  MemoryKind memory = MemoryKind::kHost;
  CommShapes comm = CommShapes::kAny;
  // Whether HALYARD_<COLL>_ALG, the decision table and htune may name it. Host algorithms for
  // any communicator are; the device ones follow the buffers, and the intranode primitives are
  // HAN's submodules, not algorithms of a whole communicator.
  bool nameable = true;
  // Whether it may run a custom op (runtime/datatypes/custom_op.hpp: MPI_Op_create's functions,
  // MAXLOC/MINLOC on pair types): it reduces whole vectors only, never a block that could cut
  // an element in two.
  bool custom_ops = false;
  // Whether it combines the contributions in rank order, r0 (op) r1 (op) ... (op) r(p-1), with
  // each partial result over a contiguous range of ranks: what a non-commutative op needs.
  bool rank_order = false;
  // Whether its post() reads and writes this call's buffers through CollArgs' layouts (a derived
  // datatype packed and unpacked inside the algorithm's own copies, not staged around it); null:
  // never. Asked per call, after the selection, by an entry that has layouts to give
  // (post_call.hpp, layouts_taken): the selection itself never looks at layouts, since MPI lets
  // ranks describe the same data with different datatypes.
  bool (*takes_layouts)(const CollArgs& args) = nullptr;

  bool fits(const CommShape& shape) const {
    switch (comm) {
      case CommShapes::kAny:
        return true;
      case CommShapes::kOneNode:
        return shape.nodes <= 1;
      case CommShapes::kSeveralNodes:
        return shape.nodes > 1;
      case CommShapes::kOneMember:
        return shape.size == 1;
    }
    return false;
  }
};

// Starts the algorithm on arguments the entry validated; `params` is the selection's choice
// (ADAPT's tree and segment, HAN's tuning). A plain function pointer: posting costs no
// allocation and no type erasure.
using PostFn = Request (*)(const CollArgs& args, const SelectedAlgorithm& params);

struct AlgorithmEntry {
  Collective collective;
  std::string_view name;  // "base:ring", "adapt:binary", "han", "device:node_ipc"
  Algorithm algorithm;
  TreeShape tree;  // the tree of adapt:<tree> (has_tree); unused otherwise
  Supports supports;
  PostFn post;
};

using AlgorithmTable = std::span<const AlgorithmEntry>;

}  // namespace halyard::core
