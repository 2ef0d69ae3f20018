// The decision table: JSON round trip, lookup between sampled sizes, malformed tables rejected
// with an error naming the file and the problem, and the per-call HAN configuration.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <memory>
#include <string>

#include "collectives/han/han_config.hpp"
#include "collectives/select/selection.hpp"
#include "collectives/select/tuning_table.hpp"
#include "collectives/select/tuning_table_json.hpp"
#include "runtime/support/error.hpp"

namespace halyard::select {
namespace {

SelectedAlgorithm han_with_segment(std::size_t fs) {
  SelectedAlgorithm s{Algorithm::kHan};
  s.han.segment_bytes = fs;
  s.han.inter = han::InterModule::kAdapt;
  s.han.inter_bcast_tree = adapt::TreeShape::kChain;
  s.han.inter_bcast_segment = 16 * 1024;
  s.han.intra = han::IntraModule::kCma;
  s.han.sends_in_flight = 4;
  s.han.recvs_in_flight = 8;
  return s;
}

TuningTable sample_table() {
  TuningTable table{"host, 2 cores", "2026-01-01T00:00:00Z", "abc123", "task", {}};
  TableEntry bcast{Collective::kBcast, 2, 4, {}};
  bcast.ranges = ranges_from_samples(
      {{16384, han_with_segment(16384), 10.5}, {65536, han_with_segment(65536), 20.0}});
  TableEntry allreduce{Collective::kAllreduce, 2, 4, {}};
  allreduce.ranges = ranges_from_samples({{4096, SelectedAlgorithm{Algorithm::kRing}, 0}});
  TableEntry reduce{Collective::kReduce, 2, 4, {}};
  reduce.ranges = ranges_from_samples(
      {{1024, SelectedAlgorithm{Algorithm::kAdapt, adapt::TreeShape::kBinary, 8192}, 0}});
  table.entries = {bcast, allreduce, reduce};
  return table;
}

std::string error_of(const std::string& text) {
  try {
    parse_tuning_table(text, "tuning file 't.json'");
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ErrorCode::kInvalidArgument);
    return error.what();
  }
  return "no error";
}

std::string with_range(const std::string& range) {
  return R"({"format": "halyard-tuning-1", "entries": [{"collective": "bcast", "nodes": 2,
             "ranks_per_node": 2, "ranges": [)" +
         range + "]}]}";
}

TEST(DecisionTable, JsonRoundTripKeepsEverything) {
  const TuningTable table = sample_table();
  const std::string text = format_tuning_table(table);
  EXPECT_EQ(parse_tuning_table(text, "round trip"), table);
  const std::string path = ::testing::TempDir() + "halyard_round_trip.json";
  save_tuning_table(table, path);
  EXPECT_EQ(load_tuning_table(path), table);
  std::remove(path.c_str());
}

TEST(DecisionTable, RangesSplitAtTheGeometricMeanOfSamples) {
  auto ranges = ranges_from_samples({{1024, SelectedAlgorithm{Algorithm::kRing}, 0},
                                     {4096, SelectedAlgorithm{Algorithm::kBruck}, 0},
                                     {65536, SelectedAlgorithm{Algorithm::kLinear}, 0}});
  ASSERT_EQ(ranges.size(), 3u);
  EXPECT_EQ(ranges[0].min_bytes, 0u);
  EXPECT_EQ(ranges[0].max_bytes, 2048u);  // sqrt(1024 * 4096)
  EXPECT_EQ(ranges[1].min_bytes, 2049u);
  EXPECT_EQ(ranges[1].max_bytes, 16384u);  // sqrt(4096 * 65536)
  EXPECT_EQ(ranges[2].min_bytes, 16385u);
  EXPECT_FALSE(ranges[2].max_bytes.has_value());
}

TEST(DecisionTable, LookupBetweenAndBeyondSampledSizes) {
  const TuningTable table = sample_table();
  const CommShape shape{8, 2, 4};
  // 16K and 64K were sampled; 32K is the boundary (sqrt(16K * 64K)).
  EXPECT_EQ(table.lookup(Collective::kBcast, shape, 100)->han.segment_bytes, 16384u);
  EXPECT_EQ(table.lookup(Collective::kBcast, shape, 30000)->han.segment_bytes, 16384u);
  EXPECT_EQ(table.lookup(Collective::kBcast, shape, 32768)->han.segment_bytes, 16384u);
  EXPECT_EQ(table.lookup(Collective::kBcast, shape, 32769)->han.segment_bytes, 65536u);
  EXPECT_EQ(table.lookup(Collective::kBcast, shape, 1u << 30)->han.segment_bytes, 65536u);
  // Another shape or collective: no answer, the rules decide.
  EXPECT_FALSE(table.lookup(Collective::kBcast, CommShape{12, 3, 4}, 4096).has_value());
  EXPECT_FALSE(table.lookup(Collective::kBcast, CommShape{6, 2, 3}, 4096).has_value());
  EXPECT_FALSE(table.lookup(Collective::kAllgather, shape, 4096).has_value());
}

TEST(DecisionTable, LookupInAGapTakesTheNearerRangeByRatio) {
  TuningTable table;
  TableEntry e{Collective::kAllreduce, 2, 2, {}};
  e.ranges = {SizeRange{0, 1000, 0, SelectedAlgorithm{Algorithm::kRing}, 0},
              SizeRange{100000, std::nullopt, 0, SelectedAlgorithm{Algorithm::kRabenseifner}, 0}};
  table.entries = {e};
  const CommShape shape{4, 2, 2};
  EXPECT_EQ(table.lookup(Collective::kAllreduce, shape, 5000)->algorithm, Algorithm::kRing);
  EXPECT_EQ(table.lookup(Collective::kAllreduce, shape, 20000)->algorithm,
            Algorithm::kRabenseifner);
}

TEST(DecisionTable, InstalledTableWinsOverTheRulesForItsShapeOnly) {
  set_decision_table(as_decision_table(std::make_shared<const TuningTable>(sample_table())));
  const SelectedAlgorithm chosen = choose(Collective::kBcast, CommShape{8, 2, 4}, 20000);
  EXPECT_EQ(chosen, han_with_segment(16384));
  EXPECT_EQ(choose(Collective::kReduce, CommShape{8, 2, 4}, 1 << 20).segment_bytes, 8192u);
  // A shape the table does not cover keeps the built-in rules (one node, small: the shm engine).
  EXPECT_EQ(choose(Collective::kBcast, CommShape::single_node(8), 1024).algorithm, Algorithm::kShm);
  EXPECT_EQ(choose(Collective::kBcast, CommShape{8, 8, 1}, 1024).algorithm, Algorithm::kBinomial);
  set_decision_table({});
}

TEST(DecisionTable, MalformedTablesNameTheFileAndTheProblem) {
  struct Case {
    std::string text;
    std::string problem;
  };
  const Case cases[] = {
      {"{", "not valid JSON"},
      {"[]", "expected a JSON object"},
      {R"({"entries": []})", "missing \"format\""},
      {R"({"format": "other", "entries": []})", "'other' is not halyard-tuning-1"},
      {R"({"format": "halyard-tuning-1"})", "missing \"entries\""},
      {R"({"format": "halyard-tuning-1", "entries": [{"collective": "transpose", "nodes": 2,
          "ranks_per_node": 2, "ranges": []}]})",
       "entries[0].collective: 'transpose' is not a collective"},
      {with_range(R"({"min_bytes": 0, "algorithm": "base:ring"})"),
       "entries[0].ranges[0].algorithm"},
      {with_range(R"({"min_bytes": -3, "algorithm": "han"})"), "entries[0].ranges[0].min_bytes"},
      {with_range(R"({"algorithm": "han"})"), "missing \"min_bytes\""},
      {with_range(R"({"min_bytes": 0, "algorithm": "han", "han": {"smod": "nvlink"}})"),
       "entries[0].ranges[0].han.smod: expected auto, sm, cma, base or shm"},
      {with_range(R"({"min_bytes": 0, "algorithm": "han", "han": {"ibalg": "star"}})"),
       "entries[0].ranges[0].han.ibalg"},
      {with_range(R"({"min_bytes": 0, "algorithm": "han", "han": {"fs": 0}})"), "fs"},
      {with_range(R"({"min_bytes": 0, "algorithm": "han", "han": {"N": 4, "M": 4}})"),
       "more than N"},
      {with_range(R"({"min_bytes": 0, "algorithm": "han", "han": {"colour": 1}})"),
       "unknown HAN field"},
      {with_range(R"({"min_bytes": 0, "algorithm": "adapt:binary", "han": {"fs": 1}})"),
       "HAN settings given for adapt:binary"},
      {with_range(R"({"min_bytes": 10, "max_bytes": 5, "algorithm": "han"})"),
       "max_bytes 5 is below min_bytes 10"},
      {with_range(R"({"min_bytes": 0, "max_bytes": 100, "algorithm": "han"},
                     {"min_bytes": 50, "algorithm": "han"})"),
       "entries[0].ranges[0]: overlaps the next range"},
      {with_range(""), "entries[0]: no size ranges"},
  };
  for (const Case& c : cases) {
    const std::string message = error_of(c.text);
    EXPECT_NE(message.find("tuning file 't.json': "), std::string::npos) << message;
    EXPECT_NE(message.find(c.problem), std::string::npos) << c.text << "\n-> " << message;
  }
  TuningTable twice = sample_table();
  twice.entries.push_back(twice.entries.front());
  EXPECT_NE(error_of(format_tuning_table(twice)).find("a second entry for bcast"),
            std::string::npos);
}

TEST(DecisionTable, MissingFileIsAnErrorNamingIt) {
  try {
    load_tuning_table("/nonexistent/halyard.json");
    FAIL() << "no error";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ErrorCode::kInvalidArgument);
    const std::string message = error.what();
    EXPECT_NE(message.find("'/nonexistent/halyard.json'"), std::string::npos) << message;
    EXPECT_NE(message.find("cannot be read"), std::string::npos) << message;
  }
}

TEST(HanTuning, CallTuningReplacesDefaultsAndIsChecked) {
  han::Tuning t = han_with_segment(65536).han;
  t.inter_reduce_tree = adapt::TreeShape::kBinary;
  const han::Config c = han::config_for(t);
  EXPECT_EQ(c.segment_bytes, 65536u);
  EXPECT_EQ(c.inter, han::InterModule::kAdapt);
  EXPECT_TRUE(c.inter_chosen);
  EXPECT_EQ(c.inter_tree, adapt::TreeShape::kChain);
  EXPECT_EQ(c.inter_reduce_tree, adapt::TreeShape::kBinary);
  EXPECT_EQ(c.inter_bcast_segment, 16384u);
  EXPECT_EQ(c.intra, han::IntraModule::kCma);
  EXPECT_EQ(c.sends_in_flight, 4);
  EXPECT_EQ(c.recvs_in_flight, 8);
  // Without a tuning, the process configuration (no HALYARD_HAN_* set in this test).
  EXPECT_EQ(han::config_for({}).segment_bytes, 0u);
  EXPECT_FALSE(han::config_for({}).inter_chosen);
  han::Tuning bad;
  bad.recvs_in_flight = 2;  // M <= N (2)
  EXPECT_THROW(han::config_for(bad), Error);
  EXPECT_EQ(han::describe(han_with_segment(65536).han),
            "fs=64K imod=adapt ibalg=chain ibs=16K smod=cma N=4 M=8");
}

// Issue 27, item 10: a table that nests deeply gives a short error instead of crashing the rank
// (the error printed the offending value whole, recursively), and a number outside its field's
// range is refused and named (4294967297 nodes used to be read as 1).
std::string nested_arrays(std::size_t depth) {
  return std::string(depth, '[') + std::string(depth, ']');
}

std::string entry(const std::string& nodes, const std::string& range) {
  return R"({"format": "halyard-tuning-1", "entries": [{"collective": "bcast", "nodes": )" + nodes +
         R"(, "ranks_per_node": 2, "ranges": [)" + range + "]}]}";
}

constexpr std::size_t kDeep = 200000;

TEST(TuningFileLimits, DeeplyNestedDocumentsAreRefusedBeforeParsing) {
  const std::string cases[] = {
      nested_arrays(kDeep),
      entry("2", nested_arrays(kDeep)),
      entry("2", R"({"min_bytes": 0, "algorithm": "han", "han": )" + nested_arrays(kDeep) + "}"),
      entry("2", R"({"min_bytes": )" + nested_arrays(kDeep) + R"(, "algorithm": "han"})"),
  };
  for (const std::string& text : cases) {
    const std::string message = error_of(text);
    EXPECT_NE(message.find("tuning file 't.json': nested deeper than 32 levels (at byte "),
              std::string::npos)
        << message.substr(0, 400);
  }
  // Brackets inside strings do not count.
  EXPECT_EQ(
      error_of(entry("2", R"({"min_bytes": 0, "algorithm": ")" + nested_arrays(100) + R"("})"))
          .find("nested deeper"),
      std::string::npos);
}

TEST(TuningFileLimits, ValuesInErrorsAreCutShort) {
  const std::string message = error_of(entry("2", nested_arrays(20)));
  EXPECT_NE(message.find("entries[0].ranges[0]: expected an object, got [[[["), std::string::npos)
      << message;
  EXPECT_LT(message.size(), 200u) << message;
}

TEST(TuningFileLimits, OutOfRangeNumbersAreNamed) {
  std::string message = error_of(entry("4294967297", R"({"min_bytes": 0, "algorithm": "han"})"));
  EXPECT_NE(message.find("entries[0].nodes: 4294967297 is out of range"), std::string::npos)
      << message;
  message =
      error_of(entry("2", R"({"min_bytes": 0, "algorithm": "han", "han": {"N": -4294967295}})"));
  EXPECT_NE(message.find("entries[0].ranges[0].han.N: -4294967295 is out of range"),
            std::string::npos)
      << message;
  message = error_of(entry("1e3", R"({"min_bytes": 0, "algorithm": "han"})"));
  EXPECT_NE(message.find("entries[0].nodes: expected an integer, got 1000.0"), std::string::npos)
      << message;
}

}  // namespace
}  // namespace halyard::select
