// Multi-rank checks of the intra-node primitives (collectives/intranode), run through hlaunch:
//   hlaunch -n N [--vnodes K] intranode_primitives [sm|cma|both]
// Each rank runs every primitive on its node communicator (comm.node_comm()) in the requested
// flavours, for every root, counts 0, 1, odd and a few MiB, every (datatype, op) pair below,
// in place and not, and several primitives in flight at once. Results are compared element by
// element with serial references (tests/collectives/test_data.hpp); any mismatch exits 1.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "collectives/collectives.hpp"
#include "collectives/intranode/intranode.hpp"
#include "halyard/halyard.hpp"
#include "tests/collectives/test_data.hpp"

namespace {

using halyard::Communicator;
using halyard::Datatype;
using halyard::Op;
using halyard::Request;
using halyard::intranode::Flavour;
using halyard::testing::ElementCase;
using halyard::testing::expect_elements;
using halyard::testing::fail;
using halyard::testing::junk;
using halyard::testing::make_input;
using halyard::testing::reference_reduction;

std::vector<ElementCase> reduction_cases() {
  std::vector<ElementCase> cases;
  for (Datatype t : {Datatype::kFloat32, Datatype::kFloat64, Datatype::kInt32, Datatype::kInt64}) {
    for (Op op : {Op::kSum, Op::kMax, Op::kMin, Op::kProd}) cases.push_back({t, op});
  }
  for (Datatype t : {Datatype::kInt32, Datatype::kInt64, Datatype::kUint8}) {
    for (Op op : {Op::kBand, Op::kBor, Op::kBxor}) cases.push_back({t, op});
  }
  cases.push_back({Datatype::kFloat16, Op::kSum});
  cases.push_back({Datatype::kBFloat16, Op::kMax});
  cases.push_back({Datatype::kInt8, Op::kLand});
  return cases;
}

void wait_ok(const Request& r, const std::string& what) {
  halyard::Status s = r.wait();
  if (!s.ok()) fail(what + ": " + std::string(halyard::error_code_name(s.code)) + ": " + s.message);
}

struct Checker {
  Communicator node;
  Flavour flavour;
  std::uint32_t seed = 1;

  std::string label(const std::string& op, std::size_t count, int root = -1) const {
    return std::string(halyard::intranode::flavour_name(flavour)) + " " + op + " count " +
           std::to_string(count) + (root >= 0 ? " root " + std::to_string(root) : "") + " seed " +
           std::to_string(seed);
  }

  void bcast(const ElementCase& c, std::size_t count, int root) {
    ++seed;
    auto expected = make_input(c, root, count, seed);
    auto buf = node.rank() == root ? expected : junk(expected.size());
    wait_ok(halyard::intranode::ibcast(node, buf.data(), count, c.type, root, flavour),
            label("bcast", count, root));
    expect_elements(label("bcast", count, root), c, buf.data(), expected.data(), count);
  }

  void reduce(const ElementCase& c, std::size_t count, int root, bool in_place) {
    ++seed;
    std::string what = label(in_place ? "reduce in place" : "reduce", count, root);
    auto send = make_input(c, node.rank(), count, seed);
    auto recv = node.rank() == root && in_place ? send : junk(send.size());
    const void* s = node.rank() == root && in_place ? halyard::kInPlace : send.data();
    wait_ok(halyard::intranode::ireduce(node, s, recv.data(), count, c.type, c.op, root, flavour),
            what);
    if (node.rank() == root) {
      auto expected = reference_reduction(c, node.size(), count, seed);
      expect_elements(what, c, recv.data(), expected.data(), count);
    }
    // The contribution must come back untouched.
    auto original = make_input(c, node.rank(), count, seed);
    if (!(node.rank() == root && in_place))
      expect_elements(what + " (send)", c, send.data(), original.data(), count);
  }

  void allreduce(const ElementCase& c, std::size_t count, bool in_place) {
    ++seed;
    std::string what = label(in_place ? "allreduce in place" : "allreduce", count);
    auto send = make_input(c, node.rank(), count, seed);
    auto recv = in_place ? send : junk(send.size());
    wait_ok(halyard::intranode::iallreduce(node, in_place ? halyard::kInPlace : send.data(),
                                           recv.data(), count, c.type, c.op, flavour),
            what);
    auto expected = reference_reduction(c, node.size(), count, seed);
    expect_elements(what, c, recv.data(), expected.data(), count);
  }

  std::vector<std::byte> blocks(const ElementCase& c, std::size_t count) const {
    std::vector<std::byte> all;
    for (int r = 0; r < node.size(); ++r) {
      auto b = make_input(c, r, count, seed);
      all.insert(all.end(), b.begin(), b.end());
    }
    return all;
  }

  void gather(const ElementCase& c, std::size_t count, int root, bool in_place) {
    ++seed;
    std::string what = label(in_place ? "gather in place" : "gather", count, root);
    auto expected = blocks(c, count);
    auto send = make_input(c, node.rank(), count, seed);
    auto recv = junk(expected.size());
    const void* s = send.data();
    if (node.rank() == root && in_place) {
      // memcpy with a null source is undefined even for 0 bytes (UBSan says so): skip count 0.
      if (!send.empty()) {
        std::memcpy(recv.data() + static_cast<std::size_t>(root) * send.size(), send.data(),
                    send.size());
      }
      s = halyard::kInPlace;
    }
    wait_ok(halyard::intranode::igather(node, s, recv.data(), count, c.type, root, flavour), what);
    if (node.rank() == root) {
      expect_elements(what, c, recv.data(), expected.data(),
                      count * static_cast<std::size_t>(node.size()));
    }
  }

  void allgather(const ElementCase& c, std::size_t count, bool in_place) {
    ++seed;
    std::string what = label(in_place ? "allgather in place" : "allgather", count);
    auto expected = blocks(c, count);
    auto send = make_input(c, node.rank(), count, seed);
    auto recv = junk(expected.size());
    const void* s = send.data();
    if (in_place) {
      if (!send.empty()) {  // as above: no memcpy from a null pointer
        std::memcpy(recv.data() + static_cast<std::size_t>(node.rank()) * send.size(), send.data(),
                    send.size());
      }
      s = halyard::kInPlace;
    }
    wait_ok(halyard::intranode::iallgather(node, s, recv.data(), count, c.type, flavour), what);
    expect_elements(what, c, recv.data(), expected.data(),
                    count * static_cast<std::size_t>(node.size()));
  }

  // Several primitives in flight at once (they share the ranks' scratch slots in call order).
  void inflight(std::size_t count) {
    ++seed;
    ElementCase sum{Datatype::kFloat64, Op::kSum};
    ElementCase bxor{Datatype::kInt32, Op::kBxor};
    int last = node.size() - 1;
    auto b0 = make_input(sum, 0, count, seed);
    auto bcast_buf = node.rank() == 0 ? b0 : junk(b0.size());
    auto a_send = make_input(sum, node.rank(), count, seed);
    auto a_recv = junk(a_send.size());
    auto r_send = make_input(bxor, node.rank(), count, seed);
    auto r_recv = junk(r_send.size());
    auto g_expected = blocks(bxor, count);
    auto g_recv = junk(g_expected.size());
    std::vector<Request> requests{
        halyard::intranode::ibcast(node, bcast_buf.data(), count, sum.type, 0, flavour),
        halyard::intranode::iallreduce(node, a_send.data(), a_recv.data(), count, sum.type, sum.op,
                                       flavour),
        halyard::intranode::ireduce(node, r_send.data(), r_recv.data(), count, bxor.type, bxor.op,
                                    last, flavour),
        halyard::intranode::iallgather(node, r_send.data(), g_recv.data(), count, bxor.type,
                                       flavour),
        halyard::intranode::iallreduce(node, r_send.data(), r_recv.data() /* unused below */, 0,
                                       bxor.type, bxor.op, flavour)};
    for (std::size_t i = 0; i < requests.size(); ++i)
      wait_ok(requests[i], label("in flight #" + std::to_string(i), count));
    expect_elements(label("in flight bcast", count), sum, bcast_buf.data(), b0.data(), count);
    auto a_expected = reference_reduction(sum, node.size(), count, seed);
    expect_elements(label("in flight allreduce", count), sum, a_recv.data(), a_expected.data(),
                    count);
    if (node.rank() == last) {
      auto r_expected = reference_reduction(bxor, node.size(), count, seed);
      expect_elements(label("in flight reduce", count), bxor, r_recv.data(), r_expected.data(),
                      count);
    }
    expect_elements(label("in flight allgather", count), bxor, g_recv.data(), g_expected.data(),
                    count * static_cast<std::size_t>(node.size()));
  }

  void run_all() {
    auto cases = reduction_cases();
    ElementCase bytes{Datatype::kUint8, Op::kSum};
    ElementCase doubles{Datatype::kFloat64, Op::kSum};
    for (std::size_t count : {std::size_t{0}, std::size_t{1}, std::size_t{7}, std::size_t{1001}}) {
      for (int root = 0; root < node.size(); ++root) {
        bcast(bytes, count * 3, root);
        bcast(doubles, count, root);
        gather(doubles, count, root, false);
        gather(bytes, count, root, true);
        for (const ElementCase& c : cases) reduce(c, count, root, false);
        reduce(doubles, count, root, true);
      }
      for (const ElementCase& c : cases) allreduce(c, count, false);
      allreduce(doubles, count, true);
      allgather(doubles, count, false);
      allgather(bytes, count, true);
      inflight(count);
    }
    // A few MiB (odd element counts): many scratch fragments, several CMA chunks.
    std::size_t large = (std::size_t{3} << 20) / 8 + 3;
    for (int root : {0, node.size() - 1}) {
      bcast(doubles, large, root);
      reduce(ElementCase{Datatype::kInt32, Op::kBxor}, large * 2 + 1, root, root == 0);
      gather(doubles, large / static_cast<std::size_t>(node.size()) + 1, root, false);
    }
    allreduce(doubles, large, false);
    allreduce(ElementCase{Datatype::kFloat32, Op::kMax}, large * 2 + 1, true);
    allgather(doubles, large / static_cast<std::size_t>(node.size()) + 1, true);
    inflight(large / 4);
  }
};

}  // namespace

int main(int argc, char** argv) {
  std::string which = argc > 1 ? argv[1] : "both";
  halyard::Runtime runtime;
  halyard::testing::set_failure_context(runtime.rank(), "intranode_primitives " + which);
  Communicator node = runtime.world().node_comm();
  std::vector<Flavour> flavours;
  if (which == "sm" || which == "both") flavours.push_back(Flavour::kSm);
  if (which == "cma" || which == "both") flavours.push_back(Flavour::kCma);
  if (flavours.empty()) fail("unknown flavour '" + which + "' (expected sm, cma or both)");
  if (!halyard::intranode::available(node)) fail("the intra-node primitives are not available");
  for (Flavour f : flavours) {
    Checker checker{node, f};
    checker.run_all();
  }
  if (runtime.rank() == 0) {
    std::printf("intranode_primitives %s: node of %d ranks, cma %s: ok\n", which.c_str(),
                node.size(),
                halyard::intranode::effective_flavour(node, Flavour::kCma) == Flavour::kCma
                    ? "used"
                    : "unusable (ran as sm)");
  }
  halyard::barrier(runtime.world());
  return 0;
}
