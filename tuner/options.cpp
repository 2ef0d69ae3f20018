#include "tuner/options.hpp"

#include <CLI/CLI.hpp>
#include <iostream>
#include <sstream>

#include "runtime/support/config.hpp"
#include "runtime/support/error.hpp"

namespace halyard::tuner {

namespace {

[[noreturn]] void invalid(const std::string& message) {
  throw Error(ErrorCode::kInvalidArgument, "htune: " + message);
}

std::vector<std::size_t> byte_list(const std::string& text, const char* option) {
  std::vector<std::size_t> values;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    std::size_t bytes = config::parse_bytes(item, option);
    if (bytes == 0 || bytes % sizeof(float) != 0) {
      invalid(std::string(option) + ": " + item + " is not a positive multiple of 4 bytes");
    }
    values.push_back(bytes);
  }
  return values;
}

}  // namespace

std::vector<std::size_t> geometric_sizes(std::size_t min, std::size_t max, std::size_t factor) {
  if (factor < 2) invalid("--size-factor must be at least 2");
  if (min == 0 || min % sizeof(float) != 0) invalid("--min-size must be a positive multiple of 4");
  if (min > max) invalid("--min-size is above --max-size");
  std::vector<std::size_t> sizes;
  for (std::size_t s = min; s <= max; s *= factor) sizes.push_back(s);
  return sizes;
}

Options parse_options(int argc, char** argv, int& exit_code) {
  exit_code = -1;
  Options o;
  CLI::App app{"htune: task-based autotuning of HAN's bcast and allreduce (docs/tuning.md)"};
  std::string mode = "task-heuristic", collectives = "bcast,allreduce";
  std::string min_size = "16K", max_size = "4M", segments = "16K,64K,256K,1M";
  std::size_t factor = 4;
  app.add_option("--mode", mode, "exhaustive, task or task-heuristic")->capture_default_str();
  app.add_option("--collectives", collectives, "comma-separated: bcast, allreduce")
      ->capture_default_str();
  app.add_option("--min-size", min_size, "smallest sampled message (bytes, K/M suffix)")
      ->capture_default_str();
  app.add_option("--max-size", max_size, "largest sampled message")->capture_default_str();
  app.add_option("--size-factor", factor, "ratio between sampled sizes")->capture_default_str();
  app.add_option("--segments", segments, "HAN segment sizes (fs) to try, besides the whole message")
      ->capture_default_str();
  app.add_option("--space", o.space, "small, medium or full (docs/tuning.md)")
      ->capture_default_str();
  app.add_option("--iterations", o.bench.iterations, "timed repetitions per measurement")
      ->capture_default_str();
  app.add_option("--warmup", o.bench.warmup, "untimed repetitions first")->capture_default_str();
  app.add_option("--output", o.output, "the decision table (JSON)")->capture_default_str();
  app.add_flag("--validate", o.validate,
               "run all three modes and report predicted vs measured time and the chosen "
               "configuration's rank among all measured exhaustively");
  app.add_option("--report", o.report, "also write --validate's report to this file");
  app.add_option("--validate-rounds", o.validate_rounds,
                 "--validate: rounds in which each mode's choice and the exhaustive best are "
                 "re-timed side by side (0: none)")
      ->capture_default_str();
  app.add_flag("--quiet", o.quiet, "no progress lines");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    exit_code = app.exit(e);
    return o;
  } catch (const CLI::ParseError& e) {
    invalid(e.what());
  }
  auto parsed = parse_mode(mode);
  if (!parsed) invalid("--mode " + mode + ": expected exhaustive, task or task-heuristic");
  o.mode = *parsed;
  o.collectives.clear();
  std::stringstream in(collectives);
  std::string name;
  while (std::getline(in, name, ',')) {
    if (name == "bcast") {
      o.collectives.push_back(select::Collective::kBcast);
    } else if (name == "allreduce") {
      o.collectives.push_back(select::Collective::kAllreduce);
    } else {
      invalid("--collectives: '" + name + "' is not bcast or allreduce");
    }
  }
  if (o.collectives.empty()) invalid("--collectives: none given");
  o.sizes = geometric_sizes(config::parse_bytes(min_size, "--min-size"),
                            config::parse_bytes(max_size, "--max-size"), factor);
  o.segments = byte_list(segments, "--segments");
  if (o.bench.iterations < 1 || o.bench.warmup < 0) {
    invalid("--iterations must be at least 1 and --warmup at least 0");
  }
  if (o.validate_rounds < 0) invalid("--validate-rounds must be at least 0");
  return o;
}

}  // namespace halyard::tuner
