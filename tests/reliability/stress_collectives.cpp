// Randomized stress test of the collectives, reproducible from its seed:
//   hlaunch -n N [--vnodes K] stress_collectives [--seed S] [--ops N] [--inflight K]
//                                                [--max-bytes B]
// Every rank draws the same sequence from the seed, so all agree on each call without talking:
// collective, communicator (world, a dup, even/odd ranks, lower/upper half), algorithm (any name
// HALYARD_<COLL>_ALG accepts, installed as the decision table for that one call, with random
// ADAPT segment sizes), datatype, op, root, size (0 to --max-bytes, log-uniform) and in-place
// use. Up to --inflight calls are pending at once; each result is checked element by element
// against a serial reference (tests/collectives/test_data.hpp). A wrong result prints the seed
// and the call and exits 1; a hang is caught by hlaunch --timeout. At the end rank 0 prints
//   stress: seed S: N calls (C checked, U unsupported), 0 wrong, T s, RSS warm-up X MiB end Y MiB
//   stress: RSS by tenth of the calls (MiB): a b c ... (rank 0)
//   stress: malloc by tenth (MiB, in use/free in heap/mapped): u/f/m ...
// (RSS of rank 0 after the first tenth of the calls, at each further tenth, and at the end;
// then glibc's mallinfo2 at the same moments).
#include <malloc.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "collectives/select/selection.hpp"
#include "halyard/halyard.hpp"
#include "tests/collectives/test_data.hpp"

namespace {

using namespace halyard;
using halyard::testing::ElementCase;
using select::Collective;

struct Options {
  std::uint64_t seed = 1;
  long ops = 2000;
  int inflight = 8;
  std::size_t max_bytes = 8u << 20;
};

struct Call {
  long index = 0;
  Collective collective{};
  ElementCase element{Datatype::kInt32, Op::kSum, true};
  std::string comm_name;
  Communicator comm;
  std::string algorithm;
  std::size_t count = 0;  // elements (per block for block collectives)
  int root = 0;
  bool in_place = false;
  std::uint32_t data_seed = 0;
  std::vector<std::byte> send, recv;
  Request request;

  std::string describe(std::uint64_t seed) const {
    return "seed " + std::to_string(seed) + " call " + std::to_string(index) + ": " +
           std::string(select::collective_name(collective)) + " " + algorithm + " on " + comm_name +
           " (" + std::to_string(comm.size()) + " ranks), count " + std::to_string(count) + " " +
           halyard::testing::case_name(element) + ", root " + std::to_string(root) +
           (in_place ? ", in place" : "");
  }
};

// malloc's view at the same moments (glibc's mallinfo2): bytes in use from the heap, free but
// held in the heap (fragments), and in blocks mapped on their own.
struct HeapView {
  double in_use, free_in_heap, mapped;
};
HeapView heap_view() {
  const struct mallinfo2 m = ::mallinfo2();
  constexpr double kMiB = 1024.0 * 1024.0;
  return {static_cast<double>(m.uordblks) / kMiB, static_cast<double>(m.fordblks) / kMiB,
          static_cast<double>(m.hblkhd) / kMiB};
}

double rss_mib() {
  std::ifstream statm("/proc/self/statm");
  long pages = 0, resident = 0;
  statm >> pages >> resident;
  return static_cast<double>(resident) * static_cast<double>(::sysconf(_SC_PAGESIZE)) /
         (1024.0 * 1024.0);
}

bool is_block_collective(Collective c) {
  return c == Collective::kAllgather || c == Collective::kGather || c == Collective::kScatter ||
         c == Collective::kAlltoall;
}

// Draws one call. Every rank draws the same, whatever communicator it belongs to.
Call draw(std::mt19937_64& rng, long index, const Options& o,
          const std::vector<std::pair<std::string, Communicator>>& comms, int world_size) {
  auto pick = [&](std::size_t n) { return static_cast<std::size_t>(rng() % n); };
  Call call;
  call.index = index;
  constexpr Collective kAll[] = {
      Collective::kBcast,  Collective::kReduce,  Collective::kAllreduce, Collective::kAllgather,
      Collective::kGather, Collective::kScatter, Collective::kAlltoall,  Collective::kBarrier};
  call.collective = kAll[pick(8)];
  const auto& [name, comm] = comms[pick(comms.size())];
  call.comm_name = name;
  call.comm = comm;
  auto names = select::valid_algorithm_names(call.collective);
  call.algorithm = names[pick(names.size())];
  if (call.algorithm.rfind("adapt:", 0) == 0) {
    constexpr std::size_t kSegments[] = {0, 1024, 8192, 65536};
    std::size_t segment = kSegments[pick(4)];
    if (segment != 0) call.algorithm += "@" + std::to_string(segment);
  }
  do {
    call.element.type = static_cast<Datatype>(pick(kDatatypeCount));
    call.element.op = static_cast<Op>(pick(kOpCount));
  } while (!op_supports(call.element.op, call.element.type));
  // The largest group decides the block size, so every group's draw is the same.
  std::size_t cap = o.max_bytes / (is_block_collective(call.collective) ? world_size : 1);
  std::size_t bytes = 0;
  if (pick(20) != 0) {
    int bits = static_cast<int>(pick(24));
    bytes = std::min<std::size_t>(cap, (std::size_t{1} << bits) + pick(std::size_t{1} << bits));
  }
  call.count = bytes / datatype_size(call.element.type);
  call.root = static_cast<int>(pick(1 << 16));  // reduced modulo the group size below
  call.in_place = pick(4) == 0;
  call.data_seed = static_cast<std::uint32_t>(rng());
  return call;
}

using halyard::testing::fill_input;
using halyard::testing::fill_junk;

// The harness reuses its buffers (resized within their capacity) instead of allocating them per
// call, as an application reuses its own: what the resident size then shows is the library's.
void input_into(std::vector<std::byte>& out, const ElementCase& c, int rank, std::size_t count,
                std::uint32_t seed) {
  out.resize(count * datatype_size(c.type));
  fill_input(c, rank, count, seed, out.data());
}

void concat_blocks_into(std::vector<std::byte>& out, const ElementCase& c, int first_id, int stride,
                        int blocks, std::size_t count, std::uint32_t seed) {
  const std::size_t block = count * datatype_size(c.type);
  out.resize(block * static_cast<std::size_t>(blocks));
  for (int b = 0; b < blocks; ++b) {
    fill_input(c, first_id + b * stride, count, seed, out.data() + block * std::size_t(b));
  }
}

// Posts `call` on this rank; false when the selection cannot run the drawn algorithm here
// (every rank of the group decides the same).
bool post(Call& call) {
  const Communicator& comm = call.comm;
  const int me = comm.rank(), p = comm.size();
  call.root %= p;
  const ElementCase& c = call.element;
  const std::size_t n = call.count, esize = datatype_size(c.type);
  select::SelectedAlgorithm chosen;
  {
    std::string name = call.algorithm;
    std::size_t at = name.find('@');
    std::size_t segment = at == std::string::npos ? 0 : std::stoul(name.substr(at + 1));
    chosen = select::parse_algorithm(call.collective, name.substr(0, at), "stress");
    chosen.segment_bytes = segment;
  }
  select::set_decision_table(
      [chosen](Collective, const select::CommShape&,
               std::size_t) -> std::optional<select::SelectedAlgorithm> { return chosen; });
  const std::uint32_t seed = call.data_seed;
  try {
    switch (call.collective) {
      case Collective::kBcast:
        if (me == call.root) {
          input_into(call.recv, c, me, n, seed);
        } else {
          fill_junk(call.recv, n * esize);
        }
        call.request = ibcast(comm, call.recv.data(), n, c.type, call.root);
        break;
      case Collective::kReduce:
      case Collective::kAllreduce: {
        bool all = call.collective == Collective::kAllreduce;
        bool receives = all || me == call.root;
        input_into(call.send, c, me, n, seed);
        fill_junk(call.recv, receives ? n * esize : 0);
        const void* send = call.send.data();
        if (call.in_place && receives) {
          call.recv = call.send;
          send = kInPlace;
        }
        call.request = all ? iallreduce(comm, send, call.recv.data(), n, c.type, c.op)
                           : ireduce(comm, send, call.recv.data(), n, c.type, c.op, call.root);
        break;
      }
      case Collective::kAllgather:
      case Collective::kGather: {
        bool receives = call.collective == Collective::kAllgather || me == call.root;
        input_into(call.send, c, me, n, seed);
        fill_junk(call.recv, receives ? n * esize * static_cast<std::size_t>(p) : 0);
        call.request =
            call.collective == Collective::kAllgather
                ? iallgather(comm, call.send.data(), call.recv.data(), n, c.type)
                : igather(comm, call.send.data(), call.recv.data(), n, c.type, call.root);
        break;
      }
      case Collective::kScatter:
        if (me == call.root) concat_blocks_into(call.send, c, 0, 1, p, n, seed);
        fill_junk(call.recv, n * esize);
        call.request = iscatter(comm, call.send.data(), call.recv.data(), n, c.type, call.root);
        break;
      case Collective::kAlltoall:
        concat_blocks_into(call.send, c, me * p, 1, p, n, seed);  // block r: id me*p + r
        fill_junk(call.recv, n * esize * static_cast<std::size_t>(p));
        call.request = ialltoall(comm, call.send.data(), call.recv.data(), n, c.type);
        break;
      case Collective::kBarrier:
        call.request = ibarrier(comm);
        break;
      default:  // not in the stress mix (kinds above)
        return false;
    }
  } catch (const Error& e) {
    if (e.code() != ErrorCode::kUnsupported) throw;
    return false;
  }
  return true;
}

// `expected` and `scratch`: the caller's, reused from call to call.
void check(const Call& call, std::uint64_t seed, std::vector<std::byte>& expected,
           std::vector<std::byte>& scratch) {
  Status s = call.request.wait();
  const std::string what = call.describe(seed);
  if (!s.ok()) {
    halyard::testing::fail(what + ": " + std::string(error_code_name(s.code)) + ": " + s.message);
  }
  const Communicator& comm = call.comm;
  const int me = comm.rank(), p = comm.size();
  const ElementCase& c = call.element;
  const std::size_t n = call.count;
  const std::uint32_t ds = call.data_seed;
  switch (call.collective) {
    case Collective::kBcast:
      input_into(expected, c, call.root, n, ds);
      break;
    case Collective::kReduce:
      if (me != call.root) return;
      [[fallthrough]];
    case Collective::kAllreduce:
      halyard::testing::reference_reduction_into(c, p, n, ds, expected, scratch);
      break;
    case Collective::kGather:
      if (me != call.root) return;
      [[fallthrough]];
    case Collective::kAllgather:
      concat_blocks_into(expected, c, 0, 1, p, n, ds);
      break;
    case Collective::kScatter:
      input_into(expected, c, me, n, ds);
      break;
    case Collective::kAlltoall:
      concat_blocks_into(expected, c, me, p, p, n, ds);  // block s: id s*p + me
      break;
    case Collective::kBarrier:
    default:  // not in the stress mix
      return;
  }
  std::size_t elements = expected.size() / datatype_size(c.type);
  halyard::testing::expect_elements(what, c, call.recv.data(), expected.data(), elements);
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string flag = argv[i];
    const char* v = argv[i + 1];
    if (flag == "--seed")
      o.seed = std::strtoull(v, nullptr, 10);
    else if (flag == "--ops")
      o.ops = std::strtol(v, nullptr, 10);
    else if (flag == "--inflight")
      o.inflight = std::atoi(v);
    else if (flag == "--max-bytes")
      o.max_bytes = config::parse_bytes(v, "--max-bytes");
    else {
      std::fprintf(stderr, "stress_collectives: unknown option %s\n", flag.c_str());
      std::exit(2);
    }
  }
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  Options o = parse(argc, argv);
  Runtime rt;
  const Communicator& world = rt.world();
  halyard::testing::set_failure_context(world.rank(),
                                        "stress_collectives --seed " + std::to_string(o.seed));
  const int me = world.rank(), p = world.size();
  // Every rank holds a handle to each kind; a draw of "even/odd" runs on the rank's own half.
  std::vector<std::pair<std::string, Communicator>> comms = {
      {"world", world},
      {"dup", world.dup()},
      {"even/odd", world.split(me % 2, me)},
      {"halves", world.split(me < p / 2 ? 0 : 1, p - me)},  // reversed order inside each half
  };
  std::mt19937_64 rng(o.seed);
  std::deque<Call> pending;
  // Finished calls' buffers, handed to the next calls; the expected results' and the reference
  // reduction's buffers, likewise kept.
  std::vector<std::pair<std::vector<std::byte>, std::vector<std::byte>>> spare;
  std::vector<std::byte> expected, scratch;
  auto give_back = [&spare](Call& call) {
    spare.emplace_back(std::move(call.send), std::move(call.recv));
  };
  // Every buffer the harness will use, at its largest (a call's buffer holds at most
  // --max-bytes: a block collective's blocks together), touched now: the resident size measured
  // from the first tenth on then holds the harness's whole share, and what changes after is
  // the library's.
  auto touched = [&o] {
    std::vector<std::byte> v(o.max_bytes);
    v.clear();
    return v;
  };
  for (int slot = 0; slot <= o.inflight; ++slot) spare.emplace_back(touched(), touched());
  expected = touched();
  scratch = touched();
  long unsupported = 0, checked = 0;
  std::vector<double> rss_by_tenth;
  std::vector<HeapView> heap_by_tenth;
  auto start = std::chrono::steady_clock::now();
  for (long i = 0; i < o.ops; ++i) {
    Call call = draw(rng, i, o, comms, p);
    if (!spare.empty()) {
      call.send = std::move(spare.back().first);
      call.recv = std::move(spare.back().second);
      spare.pop_back();
    }
    if (!post(call)) {
      give_back(call);
      ++unsupported;
      continue;
    }
    pending.push_back(std::move(call));
    while (static_cast<int>(pending.size()) >= o.inflight) {
      check(pending.front(), o.seed, expected, scratch);
      give_back(pending.front());
      pending.pop_front();
      ++checked;
    }
    if (o.ops >= 10 && (i + 1) % (o.ops / 10) == 0) {
      rss_by_tenth.push_back(rss_mib());
      heap_by_tenth.push_back(heap_view());
    }
  }
  for (; !pending.empty(); pending.pop_front(), ++checked) {
    check(pending.front(), o.seed, expected, scratch);
  }
  select::set_decision_table({});
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  barrier(world);
  if (me == 0) {
    std::printf(
        "stress: seed %llu: %ld calls (%ld checked, %ld unsupported), 0 wrong, %.1f s, "
        "RSS warm-up %.1f MiB end %.1f MiB\n",
        static_cast<unsigned long long>(o.seed), o.ops, checked, unsupported, seconds,
        rss_by_tenth.empty() ? 0.0 : rss_by_tenth.front(), rss_mib());
    std::printf("stress: RSS by tenth of the calls (MiB):");
    for (double r : rss_by_tenth) std::printf(" %.0f", r);
    std::printf("\nstress: malloc by tenth (MiB, in use/free in heap/mapped):");
    for (const HeapView& h : heap_by_tenth) {
      std::printf(" %.0f/%.0f/%.0f", h.in_use, h.free_in_heap, h.mapped);
    }
    std::printf("\n");
  }
  rt.finalize();
  return 0;
}
