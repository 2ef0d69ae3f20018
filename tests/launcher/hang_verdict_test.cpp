// The flight recorder end to end without processes: a rank's ring written by FlightRecorder
// and read back by RecorderDirectory, and the verdict hlaunch prints from records.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "launcher/hang_verdict.hpp"
#include "launcher/launch_options.hpp"
#include "launcher/recorder_directory.hpp"
#include "runtime/flight_recorder.hpp"

namespace halyard::launcher {
namespace {

using recorder::CallState;

recorder::Call call(const char* name, std::uint32_t comm, std::uint32_t comm_size,
                    std::uint64_t sequence, CallState state) {
  recorder::Call slot;
  slot.sequence = sequence;
  slot.comm = comm;
  slot.comm_size = comm_size;
  slot.bytes = 4;
  slot.state = static_cast<std::uint32_t>(state);
  std::strcpy(slot.collective, name);
  std::strcpy(slot.algorithm, "base:ring");
  return slot;
}

RankRecord rank_with(int rank, std::vector<recorder::Call> calls, char process_state = 'S') {
  RankRecord r;
  r.rank = rank;
  r.has_recorder = true;
  r.process_state = process_state;
  r.calls = std::move(calls);
  return r;
}

std::string first_line(const std::string& text) {
  return text.substr(0, text.find('\n'));
}

TEST(HangVerdict, RankRangesCollapseRuns) {
  EXPECT_EQ(rank_ranges({6, 0, 1, 2, 3, 4, 7, 8, 9, 10, 11, 12, 13, 14, 15}), "0-4,6-15");
  EXPECT_EQ(rank_ranges({5}), "5");
  EXPECT_EQ(rank_ranges({3, 1, 1}), "1,3");
}

TEST(HangVerdict, NamesTheRankThatNeverEntered) {
  std::vector<RankRecord> ranks;
  for (int r = 0; r < 16; ++r) {
    std::vector<recorder::Call> calls{call("allreduce", 3, 16, 1831, CallState::kCompleted)};
    if (r != 5) calls.push_back(call("allreduce", 3, 16, 1832, CallState::kPosted));
    ranks.push_back(rank_with(r, calls, r == 5 ? 'R' : 'S'));
  }
  const std::string text = hang_verdict(ranks);
  EXPECT_EQ(first_line(text),
            "rank 5 never entered allreduce #1832 on comm 3 (running (computing, or polling)); "
            "ranks 0-4,6-15 wait for it");
  EXPECT_NE(text.find("rank 5: running (computing, or polling); outside any collective, last "
                      "completed allreduce #1831 on comm 3\n"),
            std::string::npos);
  EXPECT_NE(text.find("rank 0: waiting in allreduce #1832 on comm 3 (4 B, base:ring)\n"),
            std::string::npos);
}

TEST(HangVerdict, SubCommunicatorMembersOnly) {
  // Comm 7 holds ranks 0 and 1 of 4; ranks 2 and 3 never used it and are not blamed.
  std::vector<RankRecord> ranks{rank_with(0, {call("bcast", 7, 2, 3, CallState::kPosted)}),
                                rank_with(1, {call("bcast", 7, 2, 2, CallState::kCompleted)}, 'T'),
                                rank_with(2, {call("barrier", 0, 4, 1, CallState::kCompleted)}),
                                rank_with(3, {call("barrier", 0, 4, 1, CallState::kCompleted)})};
  EXPECT_EQ(first_line(hang_verdict(ranks)),
            "rank 1 never entered bcast #3 on comm 7 (stopped (SIGSTOP)); rank 0 waits for it");
}

TEST(HangVerdict, EveryMemberEnteredOrNobodyWaits) {
  std::vector<RankRecord> inside{rank_with(0, {call("allgather", 0, 2, 4, CallState::kPosted)}),
                                 rank_with(1, {call("allgather", 0, 2, 4, CallState::kPosted)})};
  EXPECT_EQ(first_line(hang_verdict(inside)),
            "ranks 0-1 wait in allgather #4 on comm 0, which every member entered: a message or a "
            "peer's progress is missing");
  std::vector<RankRecord> idle{rank_with(0, {}), rank_with(1, {})};
  EXPECT_EQ(first_line(hang_verdict(idle)), "no rank is waiting in a collective");
  std::vector<RankRecord> unrecorded(2);
  unrecorded[0].rank = 0;
  unrecorded[1].rank = 1;
  EXPECT_EQ(first_line(hang_verdict(unrecorded)),
            "no rank keeps a flight recorder (HALYARD_RECORDER_SIZE=0, or none initialized yet)");
  EXPECT_FALSE(any_timed_out(idle));
}

TEST(FlightRecorder, RingWrittenByARankIsReadBack) {
  RecorderDirectory dir;
  ASSERT_EQ(::setenv("HALYARD_RECORDER_DIR", dir.path().c_str(), 1), 0);
  ASSERT_EQ(::setenv("HALYARD_RECORDER_SIZE", "6", 1), 0);  // rounded up to 8
  std::unique_ptr<FlightRecorder> recorder = FlightRecorder::open_from_environment(1);
  ::unsetenv("HALYARD_RECORDER_DIR");
  ::unsetenv("HALYARD_RECORDER_SIZE");
  ASSERT_NE(recorder, nullptr);
  // 10 calls into 8 slots: the first two are overwritten; the last stays pending.
  static const std::string kCollective = "allreduce-with-a-long-name";
  static const std::string kSameCollective = kCollective;  // other address, same name
  constexpr std::string_view kAlgorithm = "base:ring";
  const std::uint16_t collective = recorder->name_index(kCollective);
  EXPECT_EQ(recorder->name_index(kSameCollective), collective);
  EXPECT_EQ(recorder->name_index(kCollective), collective);
  // A call kind's names, cached under a key: the same indices on every later call.
  static const int kKey = 0;
  auto names_of = [&] {
    return std::pair<std::string_view, std::string_view>(kCollective, kAlgorithm);
  };
  const FlightRecorder::CallNames names = recorder->call_names(&kKey, names_of);
  EXPECT_EQ(names.collective, collective);
  EXPECT_EQ(names.algorithm, recorder->name_index(kAlgorithm));
  int looked_up = 0;
  auto counted = [&] {
    ++looked_up;
    return names_of();
  };
  EXPECT_EQ(recorder->call_names(&kKey, counted).algorithm, names.algorithm);
  EXPECT_EQ(looked_up, 0);  // cached
  std::vector<FlightRecorder::Entry> entries;
  for (std::uint64_t seq = 1; seq <= 10; ++seq) {
    entries.push_back(recorder->posted(0, 4, seq, names, 4 * seq));
    if (seq < 10) FlightRecorder::ended(entries.back(), Status{});
  }
  // Slot reused by the ninth call since: ignored.
  FlightRecorder::ended(entries.front(), Status::failure(ErrorCode::kTimeout, "late"));
  recorder->waiting_for({2, -1});

  RankRecord read = dir.read(1, ::getpid());
  ASSERT_TRUE(read.has_recorder);
  EXPECT_EQ(read.process_state, 'R');
  ASSERT_EQ(read.calls.size(), 8u);
  EXPECT_EQ(read.calls.front().sequence, 3u);
  EXPECT_EQ(read.calls.back().sequence, 10u);
  EXPECT_EQ(read.calls.back().bytes, 40u);
  EXPECT_STREQ(read.calls.back().collective, "allreduce-with-");  // cut to 15 characters
  EXPECT_STREQ(read.calls.back().algorithm, "base:ring");
  EXPECT_EQ(read.calls[0].state, static_cast<std::uint32_t>(CallState::kCompleted));
  EXPECT_EQ(read.calls.front().state, static_cast<std::uint32_t>(CallState::kCompleted));
  EXPECT_EQ(read.calls.back().state, static_cast<std::uint32_t>(CallState::kTimedOut));
  EXPECT_EQ(read.waits_for, std::vector<int>{2});
  EXPECT_TRUE(any_timed_out({read}));
  EXPECT_FALSE(dir.read(2, -1).has_recorder);  // no file: that rank made no recorder
}

TEST(FlightRecorder, NameTableFullReadsAsQuestionMark) {
  RecorderDirectory dir;
  ASSERT_EQ(::setenv("HALYARD_RECORDER_DIR", dir.path().c_str(), 1), 0);
  std::unique_ptr<FlightRecorder> recorder =
      FlightRecorder::open_from_environment(0);  // 64 slots: the default
  ::unsetenv("HALYARD_RECORDER_DIR");
  ASSERT_NE(recorder, nullptr);
  static std::vector<std::string> names;
  for (std::uint32_t i = 0; i <= recorder::kMaxNames; ++i)
    names.push_back("name" + std::to_string(i));
  for (std::uint32_t i = 0; i < recorder::kMaxNames; ++i)
    EXPECT_EQ(recorder->name_index(names[i]), i);
  const std::uint16_t overflow = recorder->name_index(names.back());
  EXPECT_EQ(overflow, recorder::kUnnamed);
  recorder->posted(5, 2, 1, {recorder->name_index(names[3]), overflow}, 8);
  RankRecord read = dir.read(0, ::getpid());
  ASSERT_EQ(read.calls.size(), 1u);
  EXPECT_STREQ(read.calls[0].collective, "name3");
  EXPECT_STREQ(read.calls[0].algorithm, "?");
}

TEST(FlightRecorder, DumpOptionTakesAPid) {
  ParsedCommandLine parsed = parse_command_line({"hlaunch", "--dump", "4242"});
  EXPECT_EQ(parsed.dump_pid, 4242);
}

}  // namespace
}  // namespace halyard::launcher
