#include "bench/hbench/output_writers.hpp"

#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace hbench {

namespace {

std::ofstream open_for_writing(const std::string& path) {
  std::ofstream file(path);
  if (!file) throw std::runtime_error("cannot write " + path);
  return file;
}

void close_checked(std::ofstream& file, const std::string& path) {
  file.close();
  if (!file) throw std::runtime_error("writing " + path + " failed");
}

std::string optional_number(const std::optional<double>& value) {
  if (!value) return "";
  char text[32];
  std::snprintf(text, sizeof text, "%.4f", *value);
  return text;
}

nlohmann::json optional_json(const std::optional<double>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

}  // namespace

TableWriter::TableWriter(std::FILE* out, const RunInfo& info, bool show_noise)
    : out_(out), info_(info), show_noise_(show_noise) {}

void TableWriter::begin(Benchmark benchmark, const std::string& algorithm_option) {
  std::fprintf(out_, "# hbench %s: %d ranks on %d node%s, %s buffers, algorithm %s%s\n",
               benchmark_name(benchmark).c_str(), info_.ranks, info_.nodes,
               info_.nodes == 1 ? "" : "s", info_.buffers.c_str(), algorithm_option.c_str(),
               benchmark == Benchmark::kP2p ? " (one-way latency, ranks 0 and 1)" : "");
  std::fprintf(out_, "%-10s %-24s %6s %10s %10s %10s", "# size(B)", "algorithm", "iters", "avg(us)",
               "min(us)", "max(us)");
  if (show_noise_) std::fprintf(out_, "  %-34s %9s", "noise", "slowdown");
  if (info_.per_rank) {
    for (int r = 0; r < info_.ranks; ++r)
      std::fprintf(out_, " %9s", ("r" + std::to_string(r)).c_str());
  }
  std::fprintf(out_, "\n");
  std::fflush(out_);
}

void TableWriter::row(const ResultRow& row) {
  std::fprintf(out_, "%-10zu %-24s %6d %10.2f %10.2f %10.2f", row.bytes, row.algorithm.c_str(),
               row.iterations, row.summary.avg_us, row.summary.min_us, row.summary.max_us);
  if (show_noise_) {
    char slowdown[32] = "-";
    if (row.slowdown) std::snprintf(slowdown, sizeof slowdown, "%+.1f%%", *row.slowdown * 100.0);
    std::fprintf(out_, "  %-34s %9s", row.noise.c_str(), slowdown);
  }
  if (info_.per_rank) {
    for (const RankTiming& rank : row.summary.per_rank) std::fprintf(out_, " %9.2f", rank.avg_us);
  }
  std::fprintf(out_, "\n");
  std::fflush(out_);
}

void write_csv(const std::string& path, const RunInfo& info, const std::vector<ResultRow>& rows) {
  std::ofstream file = open_for_writing(path);
  file << "benchmark,algorithm,buffers,ranks,nodes,size_bytes,iterations,warmup,noise,rank,"
          "avg_us,min_us,max_us,baseline_avg_us,slowdown\n";
  char figures[96];
  for (const ResultRow& row : rows) {
    const std::string prefix = benchmark_name(row.benchmark) + "," + row.algorithm + "," +
                               info.buffers + "," + std::to_string(info.ranks) + "," +
                               std::to_string(info.nodes) + "," + std::to_string(row.bytes) + "," +
                               std::to_string(row.iterations) + "," + std::to_string(row.warmup) +
                               "," + row.noise + ",";
    const std::string noise_columns =
        optional_number(row.baseline_avg_us) + "," + optional_number(row.slowdown);
    std::snprintf(figures, sizeof figures, "%.3f,%.3f,%.3f", row.summary.avg_us, row.summary.min_us,
                  row.summary.max_us);
    file << prefix << "all," << figures << "," << noise_columns << "\n";
    if (!info.per_rank) continue;
    for (std::size_t r = 0; r < row.summary.per_rank.size(); ++r) {
      const RankTiming& rank = row.summary.per_rank[r];
      std::snprintf(figures, sizeof figures, "%.3f,%.3f,%.3f", rank.avg_us, rank.min_us,
                    rank.max_us);
      file << prefix << r << "," << figures << ",,\n";
    }
  }
  close_checked(file, path);
}

void write_json(const std::string& path, const RunInfo& info, const std::vector<ResultRow>& rows) {
  nlohmann::json document;
  document["run"] = {{"ranks", info.ranks},
                     {"nodes", info.nodes},
                     {"buffers", info.buffers},
                     {"host", info.host},
                     {"date_utc", info.date_utc},
                     {"command", info.command},
                     {"version", HALYARD_VERSION_STRING}};
  nlohmann::json results = nlohmann::json::array();
  for (const ResultRow& row : rows) {
    nlohmann::json entry = {{"benchmark", benchmark_name(row.benchmark)},
                            {"algorithm", row.algorithm},
                            {"size_bytes", row.bytes},
                            {"iterations", row.iterations},
                            {"warmup", row.warmup},
                            {"noise", row.noise},
                            {"avg_us", row.summary.avg_us},
                            {"min_us", row.summary.min_us},
                            {"max_us", row.summary.max_us},
                            {"baseline_avg_us", optional_json(row.baseline_avg_us)},
                            {"slowdown", optional_json(row.slowdown)},
                            {"noise_ms_per_rank", row.noise_ms_per_rank}};
    if (info.per_rank) {
      nlohmann::json ranks = nlohmann::json::array();
      for (std::size_t r = 0; r < row.summary.per_rank.size(); ++r) {
        const RankTiming& rank = row.summary.per_rank[r];
        ranks.push_back({{"rank", r},
                         {"avg_us", rank.avg_us},
                         {"min_us", rank.min_us},
                         {"max_us", rank.max_us}});
      }
      entry["per_rank"] = ranks;
    }
    results.push_back(entry);
  }
  document["results"] = results;
  std::ofstream file = open_for_writing(path);
  file << document.dump(2) << "\n";
  close_checked(file, path);
}

}  // namespace hbench
