// htune: task-based autotuning of HAN (dissertation chapter 6; docs/tuning.md). Runs under
// hlaunch on the shape to tune (e.g. hlaunch -n 16 --vnodes 2 htune), searches bcast and
// allreduce configurations per sampled message size, and writes the decision table the runtime
// reads from HALYARD_TUNING_FILE. With --validate it runs all three modes and reports the
// model's predictions against exhaustive measurements.
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "collectives/core/comm_shape.hpp"
#include "collectives/select/tuning_table_json.hpp"
#include "halyard/halyard.hpp"
#include "runtime/support/config.hpp"
#include "runtime/support/error.hpp"
#include "tuner/options.hpp"
#include "tuner/retime.hpp"
#include "tuner/search.hpp"
#include "tuner/table_builder.hpp"
#include "tuner/validation.hpp"

namespace {

using namespace halyard;
using namespace halyard::tuner;

void print_progress(const SearchOutcome& outcome, std::size_t index, std::size_t total) {
  const SizeOutcome& size = outcome.sizes[index];
  std::fprintf(
      stderr,
      "htune: %-9s %-14s %zu/%zu %9zu B  %3zu configurations  best %10.1f us  %s  (%.1f s)\n",
      std::string(select::collective_name(outcome.collective)).c_str(),
      std::string(mode_name(outcome.mode)).c_str(), index + 1, total, size.bytes,
      size.scored.size(), size.best().us, size.best().label.c_str(), outcome.seconds);
}

// HALYARD_HAN_* knobs the user set win over every configuration htune tries, so the search would
// compare configurations that all run alike in that knob.
void warn_about_pinned_knobs() {
  for (const char* name : {"HALYARD_HAN_SEGSIZE", "HALYARD_HAN_INTER", "HALYARD_HAN_INTRA",
                           "HALYARD_HAN_IBS", "HALYARD_HAN_IRS"}) {
    if (config::env_string(name)) {
      std::fprintf(stderr, "htune: warning: %s is set and overrides the configurations searched\n",
                   name);
    }
  }
}

int run(const Options& options) {
  Runtime runtime;
  const Communicator& world = runtime.world();
  const select::CommShape shape = select::shape_of(world);
  if (!shape.hierarchical()) {
    throw Error(ErrorCode::kInvalidArgument,
                "htune: HAN needs ranks on more than one node and more than one rank on some node "
                "(got " +
                    std::to_string(shape.nodes) + " nodes, at most " +
                    std::to_string(shape.max_ranks_per_node) +
                    " ranks per node); on one host use hlaunch --vnodes");
  }
  if (runtime.rank() == 0) warn_about_pinned_knobs();
  SearchSpace space = space_preset(options.space);
  space.segments = options.segments;
  std::vector<Mode> modes{options.mode};
  if (options.validate) modes = {Mode::kExhaustive, Mode::kTaskModel, Mode::kTaskHeuristic};
  std::vector<SearchOutcome> outcomes;
  for (Mode mode : modes) {
    TaskBench tasks(world, options.bench);  // per mode, so each mode's time counts its own tasks
    for (select::Collective collective : options.collectives) {
      SearchRequest request{collective, options.sizes, space, options.bench};
      ProgressReport progress;
      if (!options.quiet) {
        progress = [total = options.sizes.size()](const SearchOutcome& o, std::size_t i) {
          print_progress(o, i, total);
        };
      }
      outcomes.push_back(run_search(world, mode, request, tasks, progress));
    }
    if (runtime.rank() == 0 && mode != Mode::kExhaustive && !options.quiet) {
      std::fprintf(stderr, "htune: %s: %d task benchmarks run, %d answered from the cache\n",
                   std::string(mode_name(mode)).c_str(), tasks.measured(), tasks.reused());
    }
  }
  std::vector<Retimed> retimed;
  if (options.validate && options.validate_rounds > 0) {
    retimed = retime_choices(world, outcomes, options.bench, options.validate_rounds);
  }
  if (runtime.rank() == 0) {
    select::TuningTable table = build_table(outcomes, options.mode, shape, current_provenance());
    select::save_tuning_table(table, options.output);
    std::printf("htune: wrote %s (%s mode, %d nodes x %d ranks per node)\n", options.output.c_str(),
                std::string(mode_name(options.mode)).c_str(), shape.nodes,
                shape.max_ranks_per_node);
    if (options.validate) {
      std::string report = format_validation(outcomes, retimed);
      std::fputs(report.c_str(), stdout);
      if (!options.report.empty()) std::ofstream(options.report) << report;
    }
  }
  runtime.finalize();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    int exit_code = -1;
    Options options = parse_options(argc, argv, exit_code);
    if (exit_code >= 0) return exit_code;
    return run(options);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "%s\n", error.what());
    return 2;
  }
}
