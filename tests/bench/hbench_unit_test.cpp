// hbench's pure parts: the size schedule, the noise schedule and the option parser.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "bench/hbench/noise.hpp"
#include "bench/hbench/options.hpp"
#include "bench/hbench/size_schedule.hpp"

namespace hbench {
namespace {

TEST(SizeSchedule, DoublesFromMinToMaxInclusive) {
  EXPECT_EQ(osu_sizes(1, 16, 1), (std::vector<std::size_t>{1, 2, 4, 8, 16}));
  EXPECT_EQ(osu_sizes(3, 20, 1), (std::vector<std::size_t>{3, 6, 12}));
  EXPECT_EQ(osu_sizes(64, 64, 1), (std::vector<std::size_t>{64}));
}

TEST(SizeSchedule, ReductionSizesAreWholeFloatsFromFourBytes) {
  EXPECT_EQ(osu_sizes(1, 32, 4), (std::vector<std::size_t>{4, 8, 16, 32}));
  EXPECT_EQ(osu_sizes(6, 48, 4), (std::vector<std::size_t>{4, 12, 24, 48}));
  EXPECT_TRUE(osu_sizes(1, 3, 4).empty());
}

TEST(SizeSchedule, BarrierHasOneSizelessRow) {
  EXPECT_EQ(osu_sizes(1, std::size_t{64} << 20, 0), (std::vector<std::size_t>{0}));
}

TEST(SizeSchedule, DefaultRangeIsOneByteToSixtyFourMebibytes) {
  const std::vector<std::size_t> sizes = osu_sizes(1, std::size_t{64} << 20, 1);
  ASSERT_EQ(sizes.size(), 27u);
  EXPECT_EQ(sizes.front(), 1u);
  EXPECT_EQ(sizes.back(), std::size_t{64} << 20);
}

TEST(SizeSchedule, IterationsFallAsSizesGrow) {
  const ScheduleOverrides none;
  EXPECT_EQ(scheduled_step(8 << 10, none).iterations, 1000);
  EXPECT_EQ(scheduled_step(8 << 10, none).warmup, 100);
  EXPECT_EQ(scheduled_step(128 << 10, none).iterations, 200);
  EXPECT_EQ(scheduled_step(2 << 20, none).iterations, 50);
  EXPECT_EQ(scheduled_step(16 << 20, none).iterations, 20);
  EXPECT_EQ(scheduled_step(64 << 20, none).iterations, 10);
  EXPECT_EQ(scheduled_step(64 << 20, none).warmup, 1);
}

TEST(SizeSchedule, OverridesAndScale) {
  EXPECT_EQ(scheduled_step(4, ScheduleOverrides{7, 3, 1.0}).iterations, 7);
  EXPECT_EQ(scheduled_step(4, ScheduleOverrides{7, 3, 1.0}).warmup, 3);
  EXPECT_EQ(scheduled_step(4, ScheduleOverrides{{}, {}, 0.1}).iterations, 100);
  EXPECT_EQ(scheduled_step(64 << 20, ScheduleOverrides{{}, {}, 0.01}).iterations, 1);
}

TEST(UniformNoise, SameSeedSameDelays) {
  const UniformNoiseSchedule a(42, 3, 10.0, 10.0);
  const UniformNoiseSchedule b(42, 3, 10.0, 10.0);
  for (std::uint64_t k = 0; k < 1000; ++k) EXPECT_EQ(a.delay_ms(k), b.delay_ms(k)) << k;
  EXPECT_EQ(a.first_offset_ms(), b.first_offset_ms());
}

TEST(UniformNoise, SeedsAndRanksGiveDifferentStreams) {
  const UniformNoiseSchedule base(42, 3, 10.0, 10.0);
  const UniformNoiseSchedule other_seed(43, 3, 10.0, 10.0);
  const UniformNoiseSchedule other_rank(42, 4, 10.0, 10.0);
  int same_seed_matches = 0;
  int same_rank_matches = 0;
  for (std::uint64_t k = 0; k < 100; ++k) {
    same_seed_matches += base.delay_ms(k) == other_seed.delay_ms(k);
    same_rank_matches += base.delay_ms(k) == other_rank.delay_ms(k);
  }
  EXPECT_EQ(same_seed_matches, 0);
  EXPECT_EQ(same_rank_matches, 0);
}

TEST(UniformNoise, DelaysAreUniformOverZeroToMax) {
  const UniformNoiseSchedule schedule(7, 0, 20.0, 10.0);
  double sum = 0;
  int low_half = 0;
  constexpr int kDraws = 100000;
  for (std::uint64_t k = 0; k < kDraws; ++k) {
    const double ms = schedule.delay_ms(k);
    ASSERT_GE(ms, 0.0);
    ASSERT_LT(ms, 20.0);
    sum += ms;
    low_half += ms < 10.0;
  }
  // 0-20 ms at 10 Hz is the dissertation's 10% noise: mean 10 ms per 100 ms period.
  EXPECT_NEAR(sum / kDraws, 10.0, 0.1);
  EXPECT_NEAR(low_half / static_cast<double>(kDraws), 0.5, 0.01);
  EXPECT_DOUBLE_EQ(schedule.period_ms(), 100.0);
  EXPECT_GT(schedule.first_offset_ms(), 0.0);
  EXPECT_LE(schedule.first_offset_ms(), 100.0);
}

std::optional<Options> parse(std::vector<const char*> args) {
  args.insert(args.begin(), "hbench");
  return parse_options(static_cast<int>(args.size()), args.data());
}

std::string usage_error(std::vector<const char*> args) {
  try {
    parse(std::move(args));
  } catch (const UsageError& e) {
    return e.what();
  }
  return "no error";
}

TEST(Options, Defaults) {
  const Options o = *parse({});
  EXPECT_EQ(o.benchmarks.size(), 7u);
  EXPECT_EQ(o.algorithm, "auto");
  EXPECT_EQ(o.min_size, 1u);
  EXPECT_EQ(o.max_size, std::size_t{64} << 20);
  EXPECT_FALSE(o.noisy());
}

TEST(Options, NoiseAndSizes) {
  const Options o = *parse({"--coll", "bcast,reduce", "--alg", "adapt:binary", "--min-size", "4M",
                            "--max-size", "4M", "--noise-delay-ms", "1", "--noise-ranks", "6,13",
                            "--noise-uniform-ms", "10", "--noise-hz", "10", "--noise-seed", "9"});
  EXPECT_EQ(o.benchmarks, (std::vector<Benchmark>{Benchmark::kBcast, Benchmark::kReduce}));
  EXPECT_EQ(o.min_size, std::size_t{4} << 20);
  EXPECT_EQ(o.delay.ranks, (std::vector<int>{6, 13}));
  EXPECT_DOUBLE_EQ(o.uniform.max_ms, 10.0);
  EXPECT_EQ(o.uniform.seed, 9u);
  EXPECT_TRUE(o.noisy());
}

TEST(Options, BadOptionsNameTheProblem) {
  EXPECT_NE(usage_error({"--coll", "scan"}).find("'scan' is not a benchmark"), std::string::npos);
  EXPECT_NE(usage_error({"--buffers", "cuda"}).find("issue 10"), std::string::npos);
  EXPECT_NE(usage_error({"--coll", "allreduce", "--alg", "adapt:binary"})
                .find("not an algorithm of allreduce"),
            std::string::npos);
  EXPECT_NE(usage_error({"--coll", "p2p", "--alg", "base:ring"}).find("p2p has no algorithms"),
            std::string::npos);
  EXPECT_NE(usage_error({"--min-size", "8K", "--max-size", "1K"}).find("larger than"),
            std::string::npos);
  EXPECT_NE(usage_error({"--noise-delay-ms", "1"}).find("needs --noise-ranks"), std::string::npos);
  EXPECT_NE(usage_error({"--noise-delay-ms", "1", "--noise-ranks", "x"}).find("not a rank"),
            std::string::npos);
  EXPECT_NE(usage_error({"--iterations", "0"}).find("at least 1"), std::string::npos);
  EXPECT_NE(usage_error({"--max-size", "lots"}).find("--max-size"), std::string::npos);
  EXPECT_NE(usage_error({"--frobnicate"}).find("frobnicate"), std::string::npos);
}

}  // namespace
}  // namespace hbench
