#include "collectives/select/selection.hpp"

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "collectives/base/base.hpp"
#include "collectives/select/catalog.hpp"
#include "collectives/select/tuning_table.hpp"
#include "collectives/select/tuning_table_json.hpp"
#include "runtime/datatypes/custom_op.hpp"
#include "runtime/node_memory.hpp"
#include "runtime/support/config.hpp"
#include "runtime/support/error.hpp"
#include "runtime/support/fast_tls.hpp"
#include "runtime/support/log.hpp"
#include "runtime/tuning_file_share.hpp"

namespace halyard::select {

namespace {

// Thresholds of the built-in rules (docs/collectives.md has the table and the reasons).
constexpr std::size_t kTreeBcastLargeBytes = 128 * 1024;
constexpr std::size_t kTreeReduceLargeBytes = 128 * 1024;
constexpr std::size_t kBruckAllgatherTotalBytes = 64 * 1024;
// Bruck alltoall sends each block about log2(p)/2 times, packed into log2 p messages: it wins
// while per-message latency dominates (small blocks, enough ranks for log2 p << p - 1).
constexpr std::size_t kBruckAlltoallBlockBytes = 256;
constexpr int kBruckAlltoallMinRanks = 4;
// From these sizes up HAN beat (allreduce) or matched (bcast) the best flat algorithm on 8 ranks
// in 2 emulated nodes (docs/han.md). Reduce was not measured: it is allreduce's first half and
// takes bcast's (more cautious) threshold. Allgather won from 4 KiB to 64 KiB per rank (up to
// 2.3x) and lost to the ring from 256 KiB. Barrier has no size: HAN's crosses the network among
// leaders only, and measured faster.
constexpr std::size_t kHanBcastBytes = 1024 * 1024;
constexpr std::size_t kHanReduceBytes = 1024 * 1024;
constexpr std::size_t kHanAllreduceBytes = 256 * 1024;
constexpr std::size_t kHanAllgatherMinBytes = 4 * 1024;
constexpr std::size_t kHanAllgatherMaxBytes = 64 * 1024;

// Communicators inside one node, on 2 ranks and where the host's ranks share CPUs
// (docs/collectives.md, "The shm engine", has the measurements: hbench on 2 ranks and on 4 and 8
// oversubscribed ranks, 1 KiB to 4 MiB; own_cpus_rule below has the rest). The shm engine won
// bcast up to 64 KiB on more than 2 ranks, reduce at every size (its root reduces straight
// from the cells), and barrier; allreduce, since its sliced form, at every size (below). Above,
// bcast ran best as CMA pulls on more than 2 ranks (the gather family's rules are at
// kShmScatterBytes below). Bcast on 2 ranks takes the engine at every size since its cells copy at
// full speed (copy_bytes' aliasing fix): 2026-11-28, mpi_collectives, 2 ranks, 3 alternating runs,
// engine / binomial: 16 KiB 1.40-1.45 / 6.62-6.79 us, 256 KiB 11.7-12.9 / 15.9-17.8, 1 MiB 42-45 /
// 54-106, 4 MiB 173-259 / 209-237, 16 MiB 742-819 / 1,201-1,313 (before the fix 1 MiB took 101-107
// us through the cells). On 3 and 4 ranks the engine's cells beat the CMA pulls at every size since
// the aliasing fix (2026-11-29, mpi_collectives, medians of 3 alternating rounds, engine /
// intranode:cma: 3 ranks 1 MiB 59 / 110 us, 16 MiB 1,582 / 3,235; 4 ranks 256 KiB 20.7 / 30.0, 1
// MiB 90 / 122, 16 MiB 1,990 / 3,503; on 2026-11-27, before it, 4 ranks 1 MiB took 277 / 257). On 8
// ranks the two stay level above 64 KiB (2026-11-29, 4 rounds: 128 KiB 16.8 / 20.9, 512 KiB 78 /
// 73, 2 MiB 315 / 343, 8 MiB 2,159 / 2,352; earlier 1 MiB 176 / 150): CMA, as measured before
// (2026-11-27: 128 KiB 62.9 / 56.3, 256 KiB 103.7 / 82.5). Every reader copies each chunk out of
// the root's cell: the more readers, the sooner the root's own buffer, read in place by CMA,
// catches up.
constexpr int kShmBcastFewRanks = 4;
constexpr std::size_t kShmBcastBytes = 64 * 1024;
// Allreduce takes the engine at every size where the ranks share CPUs too. On 2 ranks: medians
// of 5 alternating rounds (2026-11-26, mpi_collectives, bound), engine / intranode:cma: 64 KiB
// 15.5 / 29.3 us, 256 KiB 54.6 / 71.0, 1 MiB 197 / 247, 4 MiB 1,094 / 1,927, 16 MiB 6,050 /
// 9,839. On 3-8 oversubscribed ranks, since the sliced allreduce (2026-11-29, mpi_collectives,
// medians of 2-3 alternating rounds, engine / intranode:cma): 4 ranks 256 KiB 68 / 124, 1 MiB
// 264 / 484, 16 MiB 5,815 / 9,233; 8 ranks 256 KiB 222 / 357, 1 MiB 749 / 973, 16 MiB 12,609
// / 22,389; 3 and 6 ranks alike (docs/collectives.md). Before, CMA took over above 64 KiB.
// Allgather, gather, scatter and reduce_scatter(_block): the engine forced against the rules
// before (2026-11-28, bench/mpi_collectives --only, 4 B to 16 MiB, best of 2-3 alternating
// rounds on 2, 3, 4 and 8 ranks of the 2 cores; docs/collectives.md, "The gather family"):
// - allgather: the engine first or level at every size and rank count (before, the ring above
//   64 KiB per rank: 2 ranks 1 MiB 102 / 257 us, 8 ranks 1 MiB 2,704 / 4,909);
// - gather: the engine at every size on 2 ranks (4 MiB 319 / 671); on more it was behind the
//   linear gather from 256 KiB then (8 ranks 1 MiB 860 / 423), but first at every size since
//   (2026-11-29, mpi_collectives, 3 alternating rounds, engine / base:linear / Open MPI tuned,
//   us: 3 ranks 1 MiB 89-96 / 143-150 / 123-129, 4 MiB 306-445 / 859-960 / 663-762; 4 ranks
//   256 KiB 26-42 / 41-69 / 50-61, 1 MiB 113-152 / 153-176 / 170-192, 16 MiB 3,492-4,096 /
//   7,704-7,815 / 5,004-5,476; 8 ranks 1 MiB 267-279 / 323-396 / 482-830, 4 MiB 1,799-1,958 /
//   2,332-2,604 / 7,174-9,763): the engine at every size;
// - scatter: the engine at every size on 2 ranks (16 MiB 1,951 / 3,552); on more, while the
//   whole vector is at most 64 KiB (4 ranks 16 KiB blocks 5.3 / 19.1, 8 ranks 16 KiB blocks
//   62.5 / 24.3): every member's block passes through the root's one cell;
// - reduce_scatter_block: the engine at every size and rank count (the ring, which then copied
//   its whole input per call, took 154 ms for 16 MiB blocks on 2 ranks, against 3.4 ms).
// - alltoall (OSU 5.7, 2026-11-29, the engine / the p2p rule): 0.15-0.98 at every size from 1 B
//   to 1 MiB per block on 2, 4 and 8 ranks (2 ranks 4 B 0.47, 1 MiB 0.91); above, since the
//   engine's alltoall in steps (mpi_collectives, 2026-11-29, engine / base:pairwise, us): 2 ranks
//   4 MiB 353-380 / 788-819, 16 MiB 2,802-3,001 / 4,303-4,596; 4 ranks 4 MiB 3,161-3,331 /
//   4,524-4,693; 8 ranks 4 MiB 14,181-14,652 / 20,128-20,293. The engine at every size.
// The v-variants go by the shape alone (one_node_rule): their bytes are this rank's own block,
// which differs between ranks, so a rule by size could choose differently on different members.
constexpr std::size_t kShmScatterBytes = 64 * 1024;

// Where each of more than 2 ranks has a CPU of its own, the measurements above (2 cores, 3-8
// ranks oversubscribed) do not hold: there the engine's readers copy out of the root's cells in
// parallel, while CMA pulls from one process contend in its kernel mm. 2026-11-28 on the 16-core
// GPU machine (bench/device_run.sh rules: every candidate forced; best of 4 rounds on 16 and 8
// ranks, of 2 on 4; us; docs/collectives.md has the table):
// - bcast: the engine fastest at every size 16 KiB-16 MiB (1 MiB 178 / 166 / 102 on 16 / 8 / 4
//   ranks against the next best's 399 / 286 / 157 and intranode:cma's 1,591 / 812 / 367);
// - reduce on 8 and 16 ranks: the engine up to 64 KiB (16 ranks 23.5 against binomial's 26.1),
//   binomial at 256 KiB (95.6 / 72.5 against intranode:cma's 155 / 107, the engine's 245 / 117),
//   intranode:cma from 1 MiB (480 / 364 against ADAPT binary's 599 / 558); on 4 ranks the
//   engine is first or within 2% of the first at every size (1 MiB 270 against binomial's 265);
// - allreduce on 16 ranks: the engine up to 64 KiB (52.4 against Rabenseifner's 54.8), the flat
//   rule's Rabenseifner at 256 KiB and 1 MiB (160 and 625 against the engine's 174 and 748 and
//   intranode:cma's 236 and 761), intranode:cma from 4 MiB (2,377 against 2,626); on 8 and 4
//   ranks the engine up to 4 MiB (8 ranks 1 MiB 488 against Rabenseifner's 480, 4 MiB 1,978
//   against intranode:cma's 2,049; 4 ranks 4 MiB 1,403 against 1,343), intranode:cma above
//   (8 ranks 16 MiB 8,993 against 9,961).
constexpr int kOwnCpusFewRanks = 4;
constexpr int kOwnCpusMidRanks = 8;
constexpr std::size_t kOwnCpusShmReduceBytes = 64 * 1024;
constexpr std::size_t kOwnCpusBinomialReduceBytes = 512 * 1024;
constexpr std::size_t kOwnCpusShmAllreduceBytes = 64 * 1024;
constexpr std::size_t kOwnCpusFlatAllreduceBytes = 1024 * 1024;
constexpr std::size_t kOwnCpusShmAllreduceMidRanksBytes = 4 * 1024 * 1024;

// The default for bcast, reduce and allreduce on more than 2 ranks of one node that have a CPU
// each; nullopt: the flat rule's.
std::optional<SelectedAlgorithm> own_cpus_rule(Collective collective, int ranks,
                                               std::size_t bytes) {
  switch (collective) {
    case Collective::kReduce:
      if (ranks <= kOwnCpusFewRanks || bytes <= kOwnCpusShmReduceBytes) {
        return SelectedAlgorithm{Algorithm::kShm};
      }
      if (bytes <= kOwnCpusBinomialReduceBytes) return SelectedAlgorithm{Algorithm::kBinomial};
      return SelectedAlgorithm{Algorithm::kIntranodeCma};
    case Collective::kAllreduce:
      if (ranks <= kOwnCpusMidRanks) {
        if (bytes <= kOwnCpusShmAllreduceMidRanksBytes) return SelectedAlgorithm{Algorithm::kShm};
        return SelectedAlgorithm{Algorithm::kIntranodeCma};
      }
      if (bytes <= kOwnCpusShmAllreduceBytes) return SelectedAlgorithm{Algorithm::kShm};
      if (bytes <= kOwnCpusFlatAllreduceBytes) return std::nullopt;
      return SelectedAlgorithm{Algorithm::kIntranodeCma};
    default:
      return SelectedAlgorithm{Algorithm::kShm};
  }
}

// The default on a communicator whose members share one node, if the rules have one.
std::optional<SelectedAlgorithm> one_node_rule(Collective collective, const CommShape& shape,
                                               std::size_t bytes) {
  if (shape.nodes != 1 || shape.size < 2) return std::nullopt;
  const bool measured_on_own_cpus = collective == Collective::kBcast ||
                                    collective == Collective::kReduce ||
                                    collective == Collective::kAllreduce;
  if (shape.size > 2 && !shape.cpus_shared && measured_on_own_cpus) {
    return own_cpus_rule(collective, shape.size, bytes);
  }
  switch (collective) {
    case Collective::kBarrier:
    case Collective::kReduce:
      return SelectedAlgorithm{Algorithm::kShm};
    case Collective::kBcast:
      if (shape.size <= kShmBcastFewRanks || bytes <= kShmBcastBytes) {
        return SelectedAlgorithm{Algorithm::kShm};
      }
      return SelectedAlgorithm{Algorithm::kIntranodeCma};
    case Collective::kAllreduce:
    case Collective::kAllgather:
    case Collective::kGather:
    case Collective::kReduceScatterBlock:
    case Collective::kReduceScatter:
      return SelectedAlgorithm{Algorithm::kShm};
    // The v-variants' bytes are this rank's own block, which differs between members: their
    // rules depend on the shape alone, so that every member chooses alike. Measured with OSU
    // 5.7 on 2, 4 and 8 ranks against the p2p rules (docs/collectives.md): allgatherv and
    // gatherv gain at every size there; scatterv on 2 ranks only.
    case Collective::kAllgatherv:
    case Collective::kGatherv:
      return SelectedAlgorithm{Algorithm::kShm};
    case Collective::kScatterv:
      if (shape.size == 2) return SelectedAlgorithm{Algorithm::kShm};
      return std::nullopt;
    case Collective::kAlltoall:
    case Collective::kAlltoallv:
      return SelectedAlgorithm{Algorithm::kShm};
    case Collective::kScatter:
      // `bytes` is one block: the vector is size() of them.
      if (shape.size == 2 || bytes * static_cast<std::size_t>(shape.size) <= kShmScatterBytes) {
        return SelectedAlgorithm{Algorithm::kShm};
      }
      return std::nullopt;
    default:
      return std::nullopt;
  }
}

// Whether HAN is the default for (collective, bytes) on a hierarchical communicator.
bool han_wins(Collective collective, std::size_t bytes) {
  switch (collective) {
    case Collective::kBcast:
      return bytes >= kHanBcastBytes;
    case Collective::kReduce:
      return bytes >= kHanReduceBytes;
    case Collective::kAllreduce:
      return bytes >= kHanAllreduceBytes;
    case Collective::kAllgather:
      return bytes >= kHanAllgatherMinBytes && bytes <= kHanAllgatherMaxBytes;
    case Collective::kBarrier:
      return true;
    default:
      return false;
  }
}

// The table named by HALYARD_TUNING_FILE, if any: in a job, the text rank 0 read and shared,
// so that every rank takes the same table or none (runtime/tuning_file_share.hpp). A file that
// cannot be used is reported once, by rank 0, naming the file and the problem, and the built-in
// rules stay in force on every rank: a bad table must not stop a job that would run correctly
// without it.
DecisionTable table_from_tuning_file() {
  std::optional<TuningFileText> file = tuning_file_text();
  if (!file) return {};
  const std::string source = "tuning file '" + file->path + "'";
  auto report = [&](const std::string& problem) {
    if (file->reporter) {
      log::error("{}; the built-in rules stay in force", problem);
    } else {
      log::debug("{}; the built-in rules stay in force (rank 0 reports it)", problem);
    }
  };
  if (!file->text) {
    report(source + ": " + file->problem);
    return {};
  }
  try {
    auto table = std::make_shared<const TuningTable>(parse_tuning_table(*file->text, source));
    log::debug("decision table {} ({} entries, {} mode, made on {} at {}, commit {})", file->path,
               table->entries.size(), table->mode, table->machine, table->date, table->commit);
    return as_decision_table(std::move(table));
  } catch (const Error& error) {
    report(error.what());
    return {};
  }
}

DecisionTable& decision_table() {
  static DecisionTable table = table_from_tuning_file();
  return table;
}

// Bumped by set_decision_table(): every thread's remembered choices are stale then.
std::atomic<std::uint64_t> table_generation{0};

// Whether the catalog's entry for `selected` runs on communicators of `shape` (the intranode
// entries need one node). No entry at all is cannot_run()'s to report.
bool fits(Collective collective, const SelectedAlgorithm& selected, const CommShape& shape) {
  const core::AlgorithmEntry* entry = entry_for(collective, selected.algorithm);
  return entry == nullptr || entry->supports.fits(shape);
}

[[noreturn, gnu::cold]] void forced_does_not_fit(Collective collective,
                                                 const SelectedAlgorithm& forced,
                                                 const CommShape& shape) {
  throw Error(ErrorCode::kInvalidArgument,
              std::string(operation_name(collective)) + ": " + algorithm_variable(collective) +
                  "=" + algorithm_name(forced) +
                  " runs only on a communicator whose ranks share one node; this one spans " +
                  std::to_string(shape.nodes) + " nodes");
}

// The full choice (forced name, table, rules) for (collective, shape, bytes). A forced name
// that cannot run on this communicator is the user's error; a decision table's choice that
// cannot is advice for another shape, and the built-in rules decide instead.
SelectedAlgorithm choose_afresh(Collective collective, const CommShape& shape, std::size_t bytes) {
  if (shape.size == 1) return {Algorithm::kSelf};  // first: see selection.hpp
  if (const auto& forced = forced_algorithm(collective)) {
    if (!fits(collective, *forced, shape)) forced_does_not_fit(collective, *forced, shape);
    return *forced;
  }
  if (const DecisionTable& table = decision_table()) {
    if (auto chosen = table(collective, shape, bytes); chosen && fits(collective, *chosen, shape)) {
      return *chosen;
    }
  }
  return builtin_rule(collective, shape, bytes);
}

// The last choice per collective on this thread. A job calls the same collective at the same
// size over and over; choosing afresh cost ~100 instructions of a ~2,000-instruction small
// broadcast.
struct RememberedChoice {
  bool valid = false;
  std::uint64_t generation = 0;
  CommShape shape;
  std::size_t bytes = 0;
  Choice choice;  // the catalog entry is remembered too (null: the collective has no such one)
};

// The last choice for `collective` on this thread, made afresh when anything it depends on
// changed.
const RememberedChoice& remembered_choice(Collective collective, const CommShape& shape,
                                          std::size_t bytes) {
  // On the heap, not in the thread-local block: libhalyard's block takes glibc's static TLS
  // (runtime/support/fast_tls.hpp), and a process that dlopens the library (the Python module,
  // the torch backend) has only ~1.6 KB of it to spare; this 2.5 KB table would not fit.
  HALYARD_FAST_TLS thread_local std::unique_ptr<std::array<RememberedChoice, kCollectiveCount>>
      remembered;
  if (!remembered) remembered = std::make_unique<std::array<RememberedChoice, kCollectiveCount>>();
  RememberedChoice& last = (*remembered)[static_cast<std::size_t>(collective)];
  const std::uint64_t generation = table_generation.load(std::memory_order_acquire);
  if (last.valid && last.generation == generation && last.bytes == bytes && last.shape == shape) {
    return last;
  }
  SelectedAlgorithm selected = choose_afresh(collective, shape, bytes);
  last = {true, generation, shape, bytes, {entry_for(collective, selected.algorithm), selected}};
  return last;
}

// The last choice per collective on one communicator, attached to it: a job calls the same
// collective on the same communicator at the same size over and over, and then neither the
// communicator's shape nor the choice is worked out again.
struct CommunicatorChoices {
  std::array<RememberedChoice, kCollectiveCount> last;
};

bool is_power_of_two(int n) {
  return n > 0 && (n & (n - 1)) == 0;
}

}  // namespace

void set_decision_table(DecisionTable table) {
  decision_table() = std::move(table);
  table_generation.fetch_add(1, std::memory_order_release);
}

SelectedAlgorithm builtin_rule(Collective collective, const CommShape& shape, std::size_t bytes) {
  if (shape.hierarchical() && han_wins(collective, bytes)) return {Algorithm::kHan};
  if (auto chosen = one_node_rule(collective, shape, bytes)) return *chosen;
  return builtin_rule(collective, shape.size, bytes);
}

SelectedAlgorithm builtin_rule(Collective collective, int comm_size, std::size_t bytes) {
  switch (collective) {
    case Collective::kBcast:
      // Few large messages pipeline best in ADAPT's segmented binary tree; small ones are all
      // latency, which the binomial tree's log2 p rounds minimise.
      if (bytes >= kTreeBcastLargeBytes && comm_size > 2) {
        return {Algorithm::kAdapt, core::TreeShape::kBinary};
      }
      return {Algorithm::kBinomial};
    case Collective::kReduce:
      if (bytes >= kTreeReduceLargeBytes && comm_size > 2) {
        return {Algorithm::kAdapt, core::TreeShape::kBinary};
      }
      return {Algorithm::kBinomial};
    case Collective::kAllreduce:
      // Small: fewest rounds. Large: Rabenseifner moves ~2x the vector in 2 log2 p rounds, but
      // its fold sends whole vectors when p is not a power of two; the ring does not fold.
      if (bytes <= base::kRecursiveDoublingMaxBytes || comm_size <= 2)
        return {Algorithm::kRecursiveDoubling};
      if (is_power_of_two(comm_size)) return {Algorithm::kRabenseifner};
      return {Algorithm::kRing};
    case Collective::kAllgather:
      if (bytes * static_cast<std::size_t>(comm_size) <= kBruckAllgatherTotalBytes) {
        return {Algorithm::kBruck};
      }
      return {Algorithm::kRing};
    case Collective::kBarrier:
      return {Algorithm::kDissemination};
    case Collective::kGather:
    case Collective::kScatter:
      return {Algorithm::kLinear};
    case Collective::kAlltoall:
      if (bytes <= kBruckAlltoallBlockBytes && comm_size >= kBruckAlltoallMinRanks) {
        return {Algorithm::kBruck};
      }
      return {Algorithm::kPairwise};
    // One algorithm each so far (docs/collectives.md).
    case Collective::kGatherv:
    case Collective::kScatterv:
      return {Algorithm::kLinear};
    case Collective::kAllgatherv:
    case Collective::kReduceScatterBlock:
    case Collective::kReduceScatter:
      return {Algorithm::kRing};
    case Collective::kAlltoallv:
      return {Algorithm::kPairwise};
    case Collective::kScan:
    case Collective::kExscan:
      return {Algorithm::kRecursiveDoubling};
  }
  return {Algorithm::kLinear};
}

const std::optional<SelectedAlgorithm>& forced_algorithm(Collective collective) {
  // Read once per collective; a bad name is not cached, so every call reports it. Runtimes in
  // several threads of one process (in-process tests) share the cache: the flag is read with
  // acquire and set once under the mutex.
  struct Cached {
    std::atomic<bool> read{false};
    std::optional<SelectedAlgorithm> value;
  };
  static std::array<Cached, kCollectiveCount> cache;
  static std::mutex mutex;
  Cached& slot = cache[static_cast<std::size_t>(collective)];
  if (!slot.read.load(std::memory_order_acquire)) {
    std::lock_guard lock(mutex);
    if (!slot.read.load(std::memory_order_relaxed)) {
      const char* variable = algorithm_variable(collective);
      if (auto text = config::env_string(variable)) {
        slot.value = parse_algorithm(collective, *text, variable);
      }
      slot.read.store(true, std::memory_order_release);
    }
  }
  return slot.value;
}

SelectedAlgorithm choose(Collective collective, const CommShape& shape, std::size_t bytes) {
  return remembered_choice(collective, shape, bytes).choice.params;
}

SelectedAlgorithm choose(Collective collective, int comm_size, std::size_t bytes) {
  return choose(collective, CommShape::single_node(comm_size), bytes);
}

namespace {

// Device buffers: the device entry that fits the communicator (not remembered: finding it is a
// scan of a few entries, and device calls are large).
Choice device_choice(const core::CollArgs& args, const CommShape& shape) {
  Choice choice;
  choice.entry = entry_for_memory(args.collective, args.memory, shape);
  if (choice.entry == nullptr) {
    throw Error(ErrorCode::kUnsupported, std::string(collective_name(args.collective)) +
                                             ": no algorithm for " + memory_kind_name(args.memory) +
                                             " memory");
  }
  choice.params.algorithm = choice.entry->algorithm;
  return choice;
}

[[noreturn, gnu::cold]] void cannot_run(Collective collective, const SelectedAlgorithm& selected) {
  throw Error(ErrorCode::kInvalidArgument, std::string(collective_name(collective)) +
                                               ": the selection chose " + algorithm_name(selected) +
                                               ", which this collective does not have");
}

// Why `entry` may not run `op`, or null when it may (or when there is no entry: cannot_run()
// reports that).
const char* refusal(const core::AlgorithmEntry* entry, Op op) {
  if (entry == nullptr) return nullptr;
  if (!entry->supports.custom_ops) {
    return "does not run custom ops (it reduces blocks of the vector, which could cut an element)";
  }
  if (!op_is_commutative(op) && !entry->supports.rank_order) {
    return "does not combine in rank order, which a non-commutative op needs";
  }
  return nullptr;
}

[[noreturn, gnu::cold]] void forced_refuses(const core::CollArgs& args,
                                            const SelectedAlgorithm& forced, const char* why) {
  throw Error(ErrorCode::kInvalidArgument, std::string(operation_name(args.collective)) + ": " +
                                               algorithm_variable(args.collective) + "=" +
                                               algorithm_name(forced) + " " + why + " (op " +
                                               std::string(op_name(args.op)) + ")");
}

// A custom op (not remembered: the choice depends on the op, and custom ops are rare): the
// forced name, the table's or the rule's choice where the catalog admits it for the op, else
// the flat rule's choice for the smallest size, else the first admitted entry in catalog order
// (docs/collectives.md).
Choice custom_op_choice(const core::CollArgs& args) {
  const std::string call(operation_name(args.collective));
  if (args.memory != MemoryKind::kHost) {
    throw Error(ErrorCode::kUnsupported, call + ": custom op " + std::string(op_name(args.op)) +
                                             " runs on host buffers only");
  }
  const CommShape shape = shape_of(args.comm);
  if (shape.size == 1) return {entry_for(args.collective, Algorithm::kSelf), {Algorithm::kSelf}};
  auto admitted = [&](const SelectedAlgorithm& selected) {
    const core::AlgorithmEntry* entry = entry_for(args.collective, selected.algorithm);
    return entry != nullptr && entry->supports.fits(shape) && refusal(entry, args.op) == nullptr;
  };
  if (const auto& forced = forced_algorithm(args.collective)) {
    const core::AlgorithmEntry* entry = entry_for(args.collective, forced->algorithm);
    if (const char* why = refusal(entry, args.op)) forced_refuses(args, *forced, why);
    if (!fits(args.collective, *forced, shape))
      forced_does_not_fit(args.collective, *forced, shape);
    return {entry, *forced};
  }
  std::optional<SelectedAlgorithm> selected;
  if (const DecisionTable& table = decision_table())
    selected = table(args.collective, shape, args.bytes);
  if (!selected || !admitted(*selected))
    selected = builtin_rule(args.collective, shape, args.bytes);
  // The rules' flat choice for the smallest size: the latency-optimal tree (binomial reduce,
  // recursive doubling), which reduces whole vectors.
  if (!admitted(*selected)) selected = builtin_rule(args.collective, shape.size, 0);
  if (admitted(*selected)) return {entry_for(args.collective, selected->algorithm), *selected};
  for (const core::AlgorithmEntry& entry : catalog()) {
    if (entry.collective == args.collective && entry.supports.memory == MemoryKind::kHost &&
        entry.supports.fits(shape) && refusal(&entry, args.op) == nullptr) {
      return {&entry, SelectedAlgorithm{entry.algorithm}};
    }
  }
  throw Error(ErrorCode::kUnsupported,
              call + ": no algorithm runs custom op " + std::string(op_name(args.op)));
}

}  // namespace

Choice choose(const core::CollArgs& args) {
  if (op_is_custom(args.op)) return custom_op_choice(args);
  if (args.memory != MemoryKind::kHost) return device_choice(args, shape_of(args.comm));
  auto* choices = args.comm.peek_attachment<CommunicatorChoices>();
  if (choices == nullptr) {
    choices = args.comm.attach(std::make_shared<CommunicatorChoices>()).get();
  }
  RememberedChoice& last = choices->last[static_cast<std::size_t>(args.collective)];
  const std::uint64_t generation = table_generation.load(std::memory_order_acquire);
  if (!last.valid || last.generation != generation || last.bytes != args.bytes) {
    const CommShape shape = shape_of(args.comm);
    SelectedAlgorithm selected = choose_afresh(args.collective, shape, args.bytes);
    const bool on_node_memory = selected.algorithm == Algorithm::kIntranodeCma ||
                                selected.algorithm == Algorithm::kIntranodeSm;
    if (on_node_memory && !forced_algorithm(args.collective) &&
        node_memory_of(args.comm) == nullptr) {
      // The shm transport is off: the one-node rules give way to the flat ones (a forced name
      // reports it instead).
      selected = builtin_rule(args.collective, shape.size, args.bytes);
    }
    last = {true,
            generation,
            shape,
            args.bytes,
            {entry_for(args.collective, selected.algorithm), selected}};
  }
  if (last.choice.entry == nullptr) cannot_run(args.collective, last.choice.params);
  return last.choice;
}

}  // namespace halyard::select
