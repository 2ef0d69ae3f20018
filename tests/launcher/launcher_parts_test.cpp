// hlaunch's pure parts: command line, placement, output line splitting, exit statuses.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <string>
#include <vector>

#include "launcher/environment.hpp"
#include "launcher/job_secrets.hpp"
#include "launcher/launch_options.hpp"
#include "launcher/line_splitter.hpp"
#include "launcher/program_lookup.hpp"
#include "launcher/rank_placement.hpp"
#include "launcher/usage_error.hpp"
#include "launcher/wait_status.hpp"
#include "runtime/support/error.hpp"

namespace halyard::launcher {
namespace {

LaunchOptions parse(std::vector<std::string> args) {
  args.insert(args.begin(), "hlaunch");
  ParsedCommandLine parsed = parse_command_line(args);
  EXPECT_FALSE(parsed.exit_now);
  return parsed.options;
}

std::string usage_error(std::vector<std::string> args) {
  args.insert(args.begin(), "hlaunch");
  try {
    parse_command_line(args);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "no error";
}

TEST(LaunchOptions, ProgramArgumentsPassUntouched) {
  LaunchOptions o = parse({"-n", "4", "--tag-output", "prog", "-n", "3", "--timeout", "x", "--"});
  EXPECT_EQ(o.num_ranks, 4);
  EXPECT_TRUE(o.tag_output);
  EXPECT_EQ(o.command, (std::vector<std::string>{"prog", "-n", "3", "--timeout", "x", "--"}));
}

TEST(LaunchOptions, DoubleDashSeparatesTheProgram) {
  LaunchOptions o = parse({"-n", "2", "--", "-weird-name", "a"});
  EXPECT_EQ(o.command, (std::vector<std::string>{"-weird-name", "a"}));
}

TEST(LaunchOptions, EveryOptionIsRead) {
  LaunchOptions o = parse({"-np", "6", "-x", "A=1", "-x", "B", "--bind-to", "numa", "--map-by",
                           "node", "--vnodes", "3", "--timeout", "9", "prog"});
  EXPECT_EQ(o.num_ranks, 6);
  EXPECT_EQ(o.exports, (std::vector<std::string>{"A=1", "B"}));
  ASSERT_TRUE(o.bind_to.has_value());
  EXPECT_EQ(*o.bind_to, BindTo::kNuma);
  EXPECT_EQ(o.map_by, MapBy::kNode);
  EXPECT_EQ(o.vnodes, 3);
  EXPECT_EQ(o.timeout_s, 9);
  EXPECT_EQ(o.command, (std::vector<std::string>{"prog"}));
}

TEST(LaunchOptions, DefaultsAreMpirunLike) {
  LaunchOptions o = parse({"-n", "1", "prog"});
  EXPECT_FALSE(o.bind_to.has_value());
  EXPECT_EQ(o.map_by, MapBy::kSlot);
  EXPECT_EQ(o.vnodes, 1);
  EXPECT_EQ(o.timeout_s, 0);
  EXPECT_FALSE(o.tag_output);
}

TEST(LaunchOptions, NpAmongProgramArgumentsIsNotRenamed) {
  LaunchOptions o = parse({"-n", "2", "prog", "-np", "5"});
  EXPECT_EQ(o.command, (std::vector<std::string>{"prog", "-np", "5"}));
}

TEST(LaunchOptions, BadInputIsAUsageError) {
  EXPECT_EQ(usage_error({"--bogus", "-n", "2", "prog"}), "unknown option '--bogus'");
  EXPECT_EQ(usage_error({"-n", "2", "--bogus", "prog"}), "unknown option '--bogus'");
  EXPECT_EQ(usage_error({"-n", "0", "prog"}), "-n must be at least 1, got 0");
  EXPECT_EQ(usage_error({"-n", "-3", "prog"}), "-n must be at least 1, got -3");
  EXPECT_EQ(usage_error({"-n", "2"}), "no PROGRAM to run");
  EXPECT_EQ(usage_error({"-n", "2", "--vnodes", "3", "prog"}),
            "--vnodes must be between 1 and the number of ranks (2), got 3");
  EXPECT_EQ(usage_error({"-n", "2", "--vnodes", "0", "prog"}),
            "--vnodes must be between 1 and the number of ranks (2), got 0");
  EXPECT_NE(usage_error({"prog"}), "no error");               // -n missing
  EXPECT_NE(usage_error({"-n", "two", "prog"}), "no error");  // not a number
  EXPECT_NE(usage_error({"-n", "2", "--bind-to", "socket", "p"}), "no error");
}

// Issue 27: -n is decimal only and bounded; more ranks than CPUs need --oversubscribe.
TEST(LaunchOptions, RankCountIsDecimalAndBounded) {
  EXPECT_EQ(usage_error({"-n", "0x10", "prog"}), "-n takes a decimal number of ranks, got '0x10'");
  EXPECT_EQ(usage_error({"-n", "1e3", "prog"}), "-n takes a decimal number of ranks, got '1e3'");
  EXPECT_EQ(usage_error({"-n", "+4", "prog"}), "-n takes a decimal number of ranks, got '+4'");
  EXPECT_EQ(usage_error({"-n", "99999999999999999999", "prog"}),
            "-n takes a decimal number of ranks, got '99999999999999999999'");
  EXPECT_EQ(usage_error({"-n", "1048577", "prog"}),
            "-n 1048577 is more than the 1048576 ranks hlaunch can start");
  EXPECT_EQ(parse({"-n", "010", "prog"}).num_ranks, 10);
}

TEST(LaunchOptions, MoreRanksThanCpusNeedOversubscribe) {
  LaunchOptions o = parse({"-n", "3", "prog"});
  EXPECT_FALSE(o.oversubscribe);
  try {
    check_ranks_fit(o, 2);
    ADD_FAILURE() << "3 ranks on 2 CPUs were accepted";
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(),
                 "3 ranks are more than the 2 CPUs hlaunch may use on this host; pass "
                 "--oversubscribe to run them anyway");
  }
  EXPECT_NO_THROW(check_ranks_fit(o, 3));
  o = parse({"-n", "3", "--oversubscribe", "prog"});
  EXPECT_TRUE(o.oversubscribe);
  EXPECT_NO_THROW(check_ranks_fit(o, 2));
}

TEST(LaunchOptions, HelpAndVersionExitAtOnce) {
  ParsedCommandLine help = parse_command_line({"hlaunch", "--help"});
  EXPECT_TRUE(help.exit_now);
  EXPECT_NE(help.text.find("--bind-to"), std::string::npos);
  ParsedCommandLine version = parse_command_line({"hlaunch", "--version"});
  EXPECT_TRUE(version.exit_now);
  EXPECT_EQ(version.text, std::string("hlaunch (Halyard) ") + HALYARD_VERSION_STRING + "\n");
}

TEST(ProgramLookup, FindsProgramsOnPathAndRejectsOthers) {
  EXPECT_EQ(resolve_program("/bin/sh"), "/bin/sh");
  std::string sh = resolve_program("sh");
  EXPECT_EQ(sh.substr(sh.size() - 3), "/sh");
  EXPECT_EQ(::access(sh.c_str(), X_OK), 0);
  auto error = [](const std::string& p) {
    try {
      resolve_program(p);
    } catch (const UsageError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error("/no/such/program"), "program '/no/such/program' does not exist");
  char plain[] = "/tmp/halyard-plain-XXXXXX";  // mode 0600: not executable
  int fd = ::mkstemp(plain);
  ASSERT_GE(fd, 0);
  ::close(fd);
  EXPECT_EQ(error(plain), "program '" + std::string(plain) + "' is not an executable file");
  ::unlink(plain);
  EXPECT_EQ(error("/tmp"), "program '/tmp' is not an executable file");
  EXPECT_EQ(error("halyard-no-such-program"),
            "program 'halyard-no-such-program' was not found on PATH");
}

std::vector<std::vector<int>> as_rows(const std::vector<RankPlacement>& p) {
  std::vector<std::vector<int>> rows;
  for (const auto& r : p) rows.push_back({r.node_id, r.local_rank, r.local_size});
  return rows;
}

TEST(RankPlacement, SlotIsBlockWithTheRemainderOnEarlierNodes) {
  EXPECT_EQ(as_rows(place_ranks(5, 2, MapBy::kSlot)),
            (std::vector<std::vector<int>>{{0, 0, 3}, {0, 1, 3}, {0, 2, 3}, {1, 0, 2}, {1, 1, 2}}));
  EXPECT_EQ(as_rows(place_ranks(4, 1, MapBy::kSlot)),
            (std::vector<std::vector<int>>{{0, 0, 4}, {0, 1, 4}, {0, 2, 4}, {0, 3, 4}}));
}

TEST(RankPlacement, NodeIsRoundRobin) {
  EXPECT_EQ(as_rows(place_ranks(5, 2, MapBy::kNode)),
            (std::vector<std::vector<int>>{{0, 0, 3}, {1, 0, 2}, {0, 1, 3}, {1, 1, 2}, {0, 2, 3}}));
  EXPECT_EQ(as_rows(place_ranks(3, 3, MapBy::kNode)),
            (std::vector<std::vector<int>>{{0, 0, 1}, {1, 0, 1}, {2, 0, 1}}));
}

TEST(RankPlacement, InvalidCountsThrow) {
  EXPECT_THROW(place_ranks(0, 1, MapBy::kSlot), Error);
  EXPECT_THROW(place_ranks(2, 3, MapBy::kSlot), Error);
}

TEST(LineSplitter, ForwardsWholeLinesOnly) {
  LineSplitter s;
  EXPECT_TRUE(s.feed("hel").empty());
  EXPECT_EQ(s.feed("lo\nwor"), (std::vector<std::string>{"hello\n"}));
  EXPECT_EQ(s.feed("ld\n\nx\n"), (std::vector<std::string>{"world\n", "\n", "x\n"}));
  EXPECT_FALSE(s.finish().has_value());
}

TEST(LineSplitter, UnterminatedLastLineGetsANewline) {
  LineSplitter s;
  EXPECT_EQ(s.feed("a\nlast"), (std::vector<std::string>{"a\n"}));
  EXPECT_EQ(s.finish(), std::optional<std::string>("last\n"));
  EXPECT_FALSE(s.finish().has_value());
}

TEST(LineSplitter, OverlongLinesAreCut) {
  LineSplitter s(4);
  EXPECT_EQ(s.feed("abcdefghij"), (std::vector<std::string>{"abcd\n", "efgh\n"}));
  EXPECT_EQ(s.feed("\n"), (std::vector<std::string>{"ij\n"}));
}

int status_of_child(auto&& body) {
  pid_t pid = ::fork();
  if (pid == 0) {
    body();
    ::_exit(0);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return status;
}

TEST(WaitStatus, DescribesExitsAndSignals) {
  int ok = status_of_child([] {});
  int three = status_of_child([] { ::_exit(3); });
  int killed = status_of_child([] { ::raise(SIGKILL); });
  EXPECT_TRUE(wait_status_ok(ok));
  EXPECT_FALSE(wait_status_ok(three));
  EXPECT_EQ(describe_wait_status(three), "exited with status 3");
  EXPECT_EQ(exit_code_of(three), 3);
  EXPECT_FALSE(wait_status_ok(killed));
  EXPECT_EQ(describe_wait_status(killed), "was killed by signal 9 (Killed)");
  EXPECT_EQ(exit_code_of(killed), 137);
}

TEST(JobSecrets, TokensAreLongRandomHex) {
  std::string a = make_job_token();
  std::string b = make_job_token();
  EXPECT_EQ(a.size(), 32u);
  EXPECT_NE(a, b);
  EXPECT_EQ(a.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_EQ(make_job_id().rfind("hl" + std::to_string(::getpid()) + "-", 0), 0u);
}

// hlaunch gives every rank room for libhalyard's static TLS when Python loads it with dlopen,
// keeping what the user set in GLIBC_TUNABLES and never overriding their own value of it.
TEST(RankEnvironment, LeavesRoomForDlopenedThreadLocals) {
  Environment none;
  leave_room_for_dlopen_tls(none);
  EXPECT_EQ(none["GLIBC_TUNABLES"], "glibc.rtld.optional_static_tls=16384");
  Environment other{{"GLIBC_TUNABLES", "glibc.malloc.arena_max=2"}};
  leave_room_for_dlopen_tls(other);
  EXPECT_EQ(other["GLIBC_TUNABLES"],
            "glibc.malloc.arena_max=2:glibc.rtld.optional_static_tls=16384");
  Environment own{{"GLIBC_TUNABLES", "glibc.rtld.optional_static_tls=65536"}};
  leave_room_for_dlopen_tls(own);
  EXPECT_EQ(own["GLIBC_TUNABLES"], "glibc.rtld.optional_static_tls=65536");
}

}  // namespace
}  // namespace halyard::launcher
