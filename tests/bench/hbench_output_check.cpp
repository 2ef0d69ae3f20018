// Reads the CSV and JSON files of one hbench run and checks that they hold the expected rows:
//   hbench_output_check --csv F --json F --benchmark B --ranks R --sizes 4,8,16
//                       [--per-rank] [--noise] [--delayed-rank r --delay-us D] [--injected]
// Exit 0 when every check holds; otherwise each failed check is printed and the exit is 1.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Expectation {
  std::string csv_path, json_path, benchmark;
  int ranks = 0;
  std::vector<std::size_t> sizes;
  bool per_rank = false, noise = false, injected = false;
  int delayed_rank = -1;
  double delay_us = 0;
};

int failures = 0;
void check(bool ok, const std::string& what) {
  if (!ok) {
    std::printf("FAIL: %s\n", what.c_str());
    ++failures;
  }
}

std::vector<std::string> split(const std::string& line, char separator) {
  std::vector<std::string> fields;
  std::stringstream stream(line);
  std::string field;
  while (std::getline(stream, field, separator)) fields.push_back(field);
  if (!line.empty() && line.back() == separator) fields.emplace_back();
  return fields;
}

Expectation parse(int argc, char** argv) {
  Expectation e;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&] { return std::string(i + 1 < argc ? argv[++i] : ""); };
    if (arg == "--csv")
      e.csv_path = value();
    else if (arg == "--json")
      e.json_path = value();
    else if (arg == "--benchmark")
      e.benchmark = value();
    else if (arg == "--ranks")
      e.ranks = std::stoi(value());
    else if (arg == "--sizes") {
      for (const std::string& s : split(value(), ',')) e.sizes.push_back(std::stoull(s));
    } else if (arg == "--per-rank")
      e.per_rank = true;
    else if (arg == "--noise")
      e.noise = true;
    else if (arg == "--injected")
      e.injected = true;
    else if (arg == "--delayed-rank")
      e.delayed_rank = std::stoi(value());
    else if (arg == "--delay-us")
      e.delay_us = std::stod(value());
    else {
      std::fprintf(stderr, "hbench_output_check: unknown argument %s\n", arg.c_str());
      std::exit(2);
    }
  }
  return e;
}

// One CSV line as named fields.
using Row = std::map<std::string, std::string>;

std::vector<Row> read_csv(const Expectation& e) {
  std::ifstream file(e.csv_path);
  check(static_cast<bool>(file), "cannot read " + e.csv_path);
  std::string line;
  std::getline(file, line);
  const std::string header =
      "benchmark,algorithm,buffers,ranks,nodes,size_bytes,iterations,warmup,noise,rank,avg_us,"
      "min_us,max_us,baseline_avg_us,slowdown";
  check(line == header, "CSV header is '" + line + "'");
  const std::vector<std::string> names = split(header, ',');
  std::vector<Row> rows;
  while (std::getline(file, line)) {
    const std::vector<std::string> fields = split(line, ',');
    check(fields.size() == names.size(),
          "CSV line has " + std::to_string(fields.size()) + " fields: " + line);
    Row row;
    for (std::size_t i = 0; i < names.size() && i < fields.size(); ++i) row[names[i]] = fields[i];
    rows.push_back(row);
  }
  return rows;
}

// min <= avg <= max and avg > 0 (to the 3 decimals the CSV keeps).
void check_figures(double avg, double lo, double hi, const std::string& where) {
  check(avg > 0, where + ": average " + std::to_string(avg) + " is not positive");
  check(lo <= avg + 1e-3 && avg <= hi + 1e-3, where + ": not min <= avg <= max (" +
                                                  std::to_string(lo) + ", " + std::to_string(avg) +
                                                  ", " + std::to_string(hi) + ")");
}

void check_csv(const Expectation& e, const std::vector<Row>& rows) {
  const std::size_t per_size = (e.noise ? 2 : 1) * (1 + (e.per_rank ? e.ranks : 0));
  check(rows.size() == e.sizes.size() * per_size, "CSV has " + std::to_string(rows.size()) +
                                                      " rows, expected " +
                                                      std::to_string(e.sizes.size() * per_size));
  std::size_t next = 0;
  for (std::size_t size : e.sizes) {
    for (int noisy = 0; noisy <= (e.noise ? 1 : 0); ++noisy) {
      if (next >= rows.size()) return;
      const Row& all = rows[next++];
      const std::string where =
          "CSV " + e.benchmark + " " + std::to_string(size) + " B" + (noisy ? " with noise" : "");
      check(all.at("benchmark") == e.benchmark, where + ": benchmark " + all.at("benchmark"));
      check(all.at("size_bytes") == std::to_string(size), where + ": size " + all.at("size_bytes"));
      check(all.at("ranks") == std::to_string(e.ranks), where + ": ranks " + all.at("ranks"));
      check(all.at("rank") == "all", where + ": rank column " + all.at("rank"));
      check(all.at("buffers") == "host", where + ": buffers " + all.at("buffers"));
      check(std::stoi(all.at("iterations")) > 0, where + ": no iterations");
      check((all.at("noise") == "none") == (noisy == 0), where + ": noise " + all.at("noise"));
      check(all.at("slowdown").empty() == (noisy == 0),
            where + ": slowdown '" + all.at("slowdown") + "'");
      check_figures(std::stod(all.at("avg_us")), std::stod(all.at("min_us")),
                    std::stod(all.at("max_us")), where);
      if (!e.per_rank) continue;
      double sum = 0;
      for (int r = 0; r < e.ranks && next < rows.size(); ++r) {
        const Row& mine = rows[next++];
        check(mine.at("rank") == std::to_string(r), where + ": per-rank row " + mine.at("rank"));
        const double avg = std::stod(mine.at("avg_us"));
        check_figures(avg, std::stod(mine.at("min_us")), std::stod(mine.at("max_us")),
                      where + " rank " + std::to_string(r));
        sum += avg;
        if (noisy && r == e.delayed_rank) {
          check(avg >= e.delay_us, where + ": delayed rank " + std::to_string(r) + " took " +
                                       std::to_string(avg) + " us, less than its delay");
        }
      }
      // The row's average is the mean of the ranks' averages.
      check(std::fabs(sum / e.ranks - std::stod(all.at("avg_us"))) < 0.01,
            where + ": average is not the mean of the ranks' averages");
    }
  }
}

void check_json(const Expectation& e, const std::vector<Row>& csv) {
  std::ifstream file(e.json_path);
  check(static_cast<bool>(file), "cannot read " + e.json_path);
  nlohmann::json document;
  try {
    document = nlohmann::json::parse(file);
  } catch (const std::exception& error) {
    check(false, std::string("JSON does not parse: ") + error.what());
    return;
  }
  check(document["run"]["ranks"] == e.ranks, "JSON run.ranks");
  check(document["run"]["buffers"] == "host", "JSON run.buffers");
  const nlohmann::json& results = document["results"];
  const std::size_t expected = e.sizes.size() * (e.noise ? 2 : 1);
  check(results.size() == expected, "JSON has " + std::to_string(results.size()) +
                                        " results, expected " + std::to_string(expected));
  std::vector<Row> summaries;
  for (const Row& row : csv) {
    if (row.at("rank") == "all") summaries.push_back(row);
  }
  for (std::size_t i = 0; i < results.size() && i < summaries.size(); ++i) {
    const nlohmann::json& result = results[i];
    const std::string where = "JSON result " + std::to_string(i);
    check(result["benchmark"] == e.benchmark, where + ": benchmark");
    check(std::to_string(result["size_bytes"].get<std::size_t>()) == summaries[i].at("size_bytes"),
          where + ": size differs from the CSV");
    check(std::fabs(result["avg_us"].get<double>() - std::stod(summaries[i].at("avg_us"))) < 1e-3,
          where + ": average differs from the CSV");
    const bool noisy = result["noise"] != "none";
    check(result["slowdown"].is_null() != noisy, where + ": slowdown");
    if (noisy && e.injected) {
      check(result["noise_ms_per_rank"].get<double>() > 0, where + ": no uniform noise injected");
    }
    if (e.per_rank) {
      check(result["per_rank"].size() == static_cast<std::size_t>(e.ranks), where + ": per_rank");
    } else {
      check(!result.contains("per_rank"), where + ": per_rank without --per-rank");
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  const Expectation e = parse(argc, argv);
  const std::vector<Row> rows = read_csv(e);
  check_csv(e, rows);
  check_json(e, rows);
  if (failures == 0) std::printf("ok: %zu CSV rows\n", rows.size());
  return failures == 0 ? 0 : 1;
}
