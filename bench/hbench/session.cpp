#include "bench/hbench/session.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <optional>
#include <sstream>
#include <utility>

#include "bench/hbench/measurement.hpp"
#include "bench/hbench/runner.hpp"
#include "bench/hbench/size_schedule.hpp"
#include "collectives/adapt/params.hpp"
#include "collectives/collectives.hpp"
#include "collectives/select/selection.hpp"

namespace hbench {

namespace {

using halyard::Communicator;

std::string format_ms(double ms) {
  std::ostringstream text;
  text << ms;
  return text.str();
}

// Uniform noise needs enough timed iterations that every rank meets many noise events: the
// quiet loop's pace says how many fit in --noise-seconds. Every rank must run the same count,
// so rank 0's figure is broadcast.
int noisy_iterations(const Options& o, const Communicator& world, const SizeStep& step,
                     double quiet_loop_seconds) {
  std::int64_t iterations = step.iterations;
  if (o.uniform.active() && !o.iterations) {
    const double per_iteration = quiet_loop_seconds / (step.warmup + step.iterations);
    if (per_iteration > 0) {
      iterations = std::max<std::int64_t>(
          iterations, static_cast<std::int64_t>(std::ceil(o.noise_seconds / per_iteration)));
    }
  }
  halyard::bcast(world, &iterations, 1, halyard::Datatype::kInt64, 0);
  return static_cast<int>(std::min<std::int64_t>(iterations, 1 << 30));
}

double mean_over_ranks(const Communicator& world, double mine) {
  double sum = 0;
  halyard::allreduce(world, &mine, &sum, 1, halyard::Datatype::kFloat64, halyard::Op::kSum);
  return sum / world.size();
}

struct Timed {
  Summary summary;
  double loop_seconds = 0;
  double noise_ms = 0;  // mean over ranks
};

Timed summarize(const Communicator& world, const Runner& runner, const Samples& samples,
                double loop_seconds) {
  Timed timed;
  timed.summary = gather_summary(world, summarize_samples(samples.times_us), runner.takes_part());
  timed.loop_seconds = loop_seconds;
  timed.noise_ms = mean_over_ranks(world, samples.injected_ms);
  return timed;
}

Timed timed_loop(Runner& runner, const Communicator& world, const SizeStep& step) {
  const auto start = std::chrono::steady_clock::now();
  const Samples samples = measure(runner, world, step, NoiseSetup{});
  const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
  return summarize(world, runner, samples, elapsed.count());
}

// Quiet and noisy iterations alternate in kNoiseBlocks blocks, so a drift in the machine's load
// (other jobs on a shared machine) weighs on both alike instead of on whichever ran second.
constexpr int kNoiseBlocks = 5;

void append(Samples& into, const Samples& more) {
  into.times_us.insert(into.times_us.end(), more.times_us.begin(), more.times_us.end());
  into.injected_ms += more.injected_ms;
  into.noise_events += more.noise_events;
}

std::pair<Timed, Timed> alternating_loops(Runner& runner, const Communicator& world,
                                          const SizeStep& step, const NoiseSetup& noise) {
  Samples quiet, noisy;
  for (int block = 0; block < kNoiseBlocks; ++block) {
    SizeStep part = step;
    part.iterations = (step.iterations + kNoiseBlocks - 1 - block) / kNoiseBlocks;
    if (part.iterations == 0) continue;
    part.warmup = block == 0 ? step.warmup : 0;
    append(quiet, measure(runner, world, part, NoiseSetup{}));
    part.warmup = 0;
    append(noisy, measure(runner, world, part, noise));
  }
  return {summarize(world, runner, quiet, 0), summarize(world, runner, noisy, 0)};
}

}  // namespace

std::string selected_algorithm(Benchmark benchmark, int ranks, std::size_t bytes) {
  const auto collective = selection_collective(benchmark);
  if (!collective) return "p2p";
  const halyard::select::SelectedAlgorithm selected =
      halyard::select::choose(*collective, ranks, bytes);
  std::string name = halyard::select::algorithm_name(selected);
  if (selected.algorithm == halyard::select::Algorithm::kAdapt) {
    static constexpr const char* kVariants[] = {"event", "blocking", "waitall"};
    name += "/";
    name += kVariants[static_cast<int>(halyard::adapt::params_for(*collective, selected).variant)];
  }
  return name;
}

std::string noise_label(const Options& o) {
  std::string label;
  if (o.delay.active()) {
    label =
        "delay " + format_ms(o.delay.ms) + " ms on rank" + (o.delay.ranks.size() > 1 ? "s " : " ");
    for (std::size_t i = 0; i < o.delay.ranks.size(); ++i) {
      label += (i ? "+" : "") + std::to_string(o.delay.ranks[i]);
    }
    if (o.delay.inside) label += " (inside)";
  }
  if (o.uniform.active()) {
    if (!label.empty()) label += " + ";
    label += "uniform 0-" + format_ms(o.uniform.max_ms) + " ms at " + format_ms(o.uniform.hz) +
             " Hz (seed " + std::to_string(o.uniform.seed) + ")";
  }
  return label.empty() ? "none" : label;
}

std::vector<ResultRow> run_session(const Options& o, const Communicator& world, TableWriter* table,
                                   Progress& progress) {
  std::vector<ResultRow> rows;
  const ScheduleOverrides overrides{o.iterations, o.warmup, o.scale};
  const std::optional<UniformNoiseSchedule> schedule =
      o.uniform.active() ? std::optional(UniformNoiseSchedule(o.uniform.seed, world.rank(),
                                                              o.uniform.max_ms, o.uniform.hz))
                         : std::nullopt;
  const NoiseSetup noise{&o.delay, schedule ? &*schedule : nullptr};
  const std::string label = noise_label(o);

  for (Benchmark benchmark : o.benchmarks) {
    auto runner = make_runner(benchmark, world, o.root, o.max_size);
    const std::vector<SizeStep> steps =
        size_schedule(o.min_size, o.max_size, runner->element_bytes(), overrides);
    if (table) table->begin(benchmark, o.algorithm);
    for (std::size_t s = 0; s < steps.size(); ++s) {
      const SizeStep& step = steps[s];
      runner->verify(step.bytes);
      ResultRow row;
      row.benchmark = benchmark;
      row.algorithm = selected_algorithm(benchmark, world.size(), step.bytes);
      row.bytes = step.bytes;
      row.iterations = step.iterations;
      row.warmup = step.warmup;
      const Timed pilot = timed_loop(*runner, world, step);
      row.summary = pilot.summary;
      if (!o.noisy()) {
        rows.push_back(row);
        if (table) table->row(row);
      } else {
        SizeStep noisy_step = step;
        noisy_step.iterations = noisy_iterations(o, world, step, pilot.loop_seconds);
        progress.report(benchmark_name(benchmark) + " " + std::to_string(step.bytes) +
                        " B: " + std::to_string(noisy_step.iterations) +
                        " iterations with and without noise");
        const auto [quiet, noisy] = alternating_loops(*runner, world, noisy_step, noise);
        row.iterations = noisy_step.iterations;
        row.summary = quiet.summary;
        rows.push_back(row);
        if (table) table->row(row);
        ResultRow noisy_row = row;
        noisy_row.noise = label;
        noisy_row.summary = noisy.summary;
        noisy_row.baseline_avg_us = quiet.summary.avg_us;
        noisy_row.slowdown = quiet.summary.avg_us > 0
                                 ? std::optional(noisy.summary.avg_us / quiet.summary.avg_us - 1.0)
                                 : std::nullopt;
        noisy_row.noise_ms_per_rank = noisy.noise_ms;
        rows.push_back(noisy_row);
        if (table) table->row(noisy_row);
      }
      progress.report(benchmark_name(benchmark) + " " + std::to_string(step.bytes) + " B done (" +
                      std::to_string(s + 1) + "/" + std::to_string(steps.size()) + " sizes)");
    }
  }
  return rows;
}

}  // namespace hbench
