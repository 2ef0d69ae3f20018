// htune --validate's arithmetic on synthetic outcomes: the model's choice, its rank among the
// exhaustive figures, the re-timed comparison and the report's summary lines.
#include <gtest/gtest.h>

#include <string>

#include "runtime/support/error.hpp"
#include "tuner/search.hpp"
#include "tuner/validation.hpp"

namespace halyard::tuner {
namespace {

using select::Collective;

ScoredConfig config(const std::string& label, double us) {
  ScoredConfig c;
  c.label = label;
  c.us = us;
  return c;
}

SearchOutcome outcome(Mode mode, std::vector<ScoredConfig> scored) {
  SearchOutcome o;
  o.collective = Collective::kAllreduce;
  o.mode = mode;
  o.sizes.push_back(SizeOutcome{65536, std::move(scored)});
  o.seconds = mode == Mode::kExhaustive ? 10.0 : 1.0;
  return o;
}

TEST(Validation, RowsRankTheModelsChoiceAmongTheMeasuredConfigurations) {
  const SearchOutcome exhaustive =
      outcome(Mode::kExhaustive, {config("a", 100), config("b", 120), config("c", 300)});
  const SearchOutcome model =
      outcome(Mode::kTaskHeuristic, {config("c", 95), config("b", 90), config("a", 92)});
  const std::vector<ValidationRow> rows = validate(exhaustive, model);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].chosen, "b");
  EXPECT_DOUBLE_EQ(rows[0].predicted_us, 90);
  EXPECT_DOUBLE_EQ(rows[0].measured_us, 120);
  EXPECT_EQ(rows[0].best, "a");
  EXPECT_EQ(rows[0].rank, 2);
  EXPECT_EQ(rows[0].configurations, 3);
  EXPECT_DOUBLE_EQ(rows[0].median_us, 120);
  EXPECT_FALSE(rows[0].within_10_percent());          // 1.2x
  EXPECT_FALSE(rows[0].retimed_within_10_percent());  // not re-timed
}

TEST(Validation, RetimedFiguresCompareTheChoiceWithTheBestSideBySide) {
  const SearchOutcome exhaustive = outcome(Mode::kExhaustive, {config("a", 100), config("b", 120)});
  const SearchOutcome model = outcome(Mode::kTaskModel, {config("a", 70), config("b", 60)});
  Retimed retimed{Collective::kAllreduce, {RetimedSize{65536, {{"a", 110}, {"b", 115}}}}};
  const std::vector<ValidationRow> rows = validate(exhaustive, model, &retimed);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_DOUBLE_EQ(rows[0].retimed_us, 115);
  EXPECT_DOUBLE_EQ(rows[0].retimed_best_us, 110);
  EXPECT_FALSE(rows[0].within_10_percent());         // 120 / 100 in the sweep
  EXPECT_TRUE(rows[0].retimed_within_10_percent());  // 115 / 110 side by side

  const std::string report = format_validation({exhaustive, model}, {retimed});
  EXPECT_NE(report.find("# allreduce, task mode vs exhaustive"), std::string::npos) << report;
  EXPECT_NE(report.find("within 10% of the exhaustive best at 0 of 1 sizes; re-timed side by "
                        "side: 1 of 1"),
            std::string::npos)
      << report;
  EXPECT_NE(report.find("task                 1.00    10.0% of exhaustive"), std::string::npos)
      << report;

  Retimed missing{Collective::kAllreduce, {RetimedSize{65536, {{"a", 110}}}}};
  EXPECT_THROW(validate(exhaustive, model, &missing), Error);
}

}  // namespace
}  // namespace halyard::tuner
