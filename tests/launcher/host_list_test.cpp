// Multi-host launching without processes: --host and hostfile parsing, Slurm's compressed node
// lists, rank placement over hosts, the agent protocol's frames, the new command-line options.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "launcher/agent_protocol.hpp"
#include "launcher/host_list.hpp"
#include "launcher/launch_options.hpp"
#include "launcher/rank_placement.hpp"
#include "launcher/slurm_nodelist.hpp"
#include "launcher/usage_error.hpp"
#include "runtime/support/error.hpp"

namespace halyard::launcher {

bool operator==(const HostEntry& a, const HostEntry& b) {
  return a.name == b.name && a.slots == b.slots;
}

namespace {

using Hosts = std::vector<HostEntry>;
using Names = std::vector<std::string>;

std::string usage_error_of(auto&& call) {
  try {
    call();
  } catch (const UsageError& e) {
    return e.what();
  }
  return "no error";
}

TEST(HostOption, NamesAndSlots) {
  EXPECT_EQ(parse_host_option("a:4,b:4"), (Hosts{{"a", 4}, {"b", 4}}));
  EXPECT_EQ(parse_host_option("node1"), (Hosts{{"node1", 1}}));
  EXPECT_EQ(parse_host_option("a:2, b ,c:3"), (Hosts{{"a", 2}, {"b", 1}, {"c", 3}}));
}

TEST(HostOption, RepeatedNameAddsSlots) {
  EXPECT_EQ(parse_host_option("a,b:2,a:3"), (Hosts{{"a", 4}, {"b", 2}}));
}

TEST(HostOption, BadEntriesAreNamed) {
  EXPECT_EQ(usage_error_of([] { parse_host_option("a:0"); }),
            "--host entry 'a:0' is not valid: the slots after ':' must be a number of at least 1");
  EXPECT_EQ(usage_error_of([] { parse_host_option("a:x"); }),
            "--host entry 'a:x' is not valid: the slots after ':' must be a number of at least 1");
  EXPECT_EQ(usage_error_of([] { parse_host_option("a,,b"); }),
            "--host entry '' is not valid: expected HOST or HOST:SLOTS");
  EXPECT_EQ(usage_error_of([] { parse_host_option(":2"); }),
            "--host entry ':2' is not valid: expected HOST or HOST:SLOTS");
}

// Issue 27: a name that begins with '-' would reach ssh as an option; the slot sum must not wrap.
TEST(HostOption, OptionLikeNamesAndHugeSlotSumsAreRefused) {
  EXPECT_EQ(usage_error_of([] { parse_host_option("a,-F/tmp/x"); }),
            "--host entry '-F/tmp/x' is not valid: expected HOST or HOST:SLOTS");
  EXPECT_EQ(usage_error_of([] { parse_hostfile("a\n-oProxyCommand=x slots=2\n", "hf"); }),
            "hf:2: '-oProxyCommand=x' is not a host name");
  EXPECT_EQ(usage_error_of([] { parse_host_option("b:1,a:2147483647"); }),
            "the hosts' slots add up to 2147483648, more than the 1048576 ranks hlaunch can start");
  EXPECT_EQ(usage_error_of([] { parse_host_option("a:1048576,a:1"); }),
            "the hosts' slots add up to 1048577, more than the 1048576 ranks hlaunch can start");
  EXPECT_EQ(usage_error_of([] { parse_hostfile("a slots=1048576\nb\n", "hf"); }),
            "the hosts' slots add up to 1048577, more than the 1048576 ranks hlaunch can start");
  EXPECT_EQ(total_slots(parse_host_option("a:1048575,b:1")), 1048576);
}

TEST(Hostfile, OpenMpiSyntax) {
  const char* text =
      "# cluster A\n"
      "n01 slots=4\n"
      "\n"
      "n02 slots=2 max_slots=8   # trailing comment\n"
      "  n03\n"
      "n01 slots=1\n";
  EXPECT_EQ(parse_hostfile(text, "hosts"), (Hosts{{"n01", 5}, {"n02", 2}, {"n03", 1}}));
  EXPECT_EQ(total_slots(parse_hostfile(text, "hosts")), 8);
}

TEST(Hostfile, BadLinesAreNamedWithTheirNumber) {
  EXPECT_EQ(usage_error_of([] { parse_hostfile("a slots=2\nb slots=0\n", "hf"); }),
            "hf:2: 'slots=0' is not valid: expected slots=N with N at least 1");
  EXPECT_EQ(usage_error_of([] { parse_hostfile("a cpus=2\n", "hf"); }),
            "hf:1: unknown attribute 'cpus=2' (expected slots=N or max_slots=N)");
  EXPECT_EQ(usage_error_of([] { read_hostfile("/nonexistent/halyard-hosts"); }),
            "cannot read hostfile '/nonexistent/halyard-hosts'");
}

TEST(SlurmNodelist, CompressedSyntax) {
  EXPECT_EQ(expand_nodelist("n[01-03,07],gpu1"), (Names{"n01", "n02", "n03", "n07", "gpu1"}));
  EXPECT_EQ(expand_nodelist("node7"), (Names{"node7"}));
  EXPECT_EQ(expand_nodelist("r[1-2]-n[8-9]"), (Names{"r1-n8", "r1-n9", "r2-n8", "r2-n9"}));
  EXPECT_EQ(expand_nodelist("c[098-101]"), (Names{"c098", "c099", "c100", "c101"}));
  EXPECT_EQ(expand_nodelist("a[1,3],b[2-3]x"), (Names{"a1", "a3", "b2x", "b3x"}));
}

TEST(SlurmNodelist, MalformedListsAreRefused) {
  EXPECT_EQ(usage_error_of([] { expand_nodelist("n[1-3"); }),
            "Slurm node list 'n[1-3' is malformed: unbalanced '['");
  EXPECT_EQ(usage_error_of([] { expand_nodelist("n[3-1]"); }),
            "Slurm node list 'n[3-1]' is malformed: '3-1' is not a number or a range LOW-HIGH");
  EXPECT_EQ(usage_error_of([] { expand_nodelist("a,,b"); }),
            "Slurm node list 'a,,b' is malformed: empty host name");
}

TEST(SlurmTasksPerNode, RepeatCounts) {
  EXPECT_EQ(expand_tasks_per_node("2(x3),1"), (std::vector<int>{2, 2, 2, 1}));
  EXPECT_EQ(expand_tasks_per_node("4"), (std::vector<int>{4}));
  EXPECT_EQ(usage_error_of([] { expand_tasks_per_node("2(x"); }),
            "SLURM_TASKS_PER_NODE='2(x' is malformed: expected e.g. '2(x3),1'");
}

TEST(SlurmHosts, FromTheEnvironment) {
  ::setenv("SLURM_JOB_NODELIST", "n[1-3]", 1);
  ::setenv("SLURM_TASKS_PER_NODE", "2(x2),1", 1);
  EXPECT_EQ(slurm_hosts_from_environment(), (Hosts{{"n1", 2}, {"n2", 2}, {"n3", 1}}));
  ::setenv("SLURM_TASKS_PER_NODE", "2", 1);
  EXPECT_EQ(usage_error_of([] { slurm_hosts_from_environment(); }),
            "SLURM_TASKS_PER_NODE='2' gives 1 node(s) but SLURM_JOB_NODELIST='n[1-3]' names 3");
  ::unsetenv("SLURM_JOB_NODELIST");
  ::unsetenv("SLURM_TASKS_PER_NODE");
}

TEST(HostPlacement, SlotMappingFillsHostsInOrder) {
  auto p = place_ranks_on_hosts(5, {2, 4}, MapBy::kSlot);
  std::vector<std::vector<int>> got;
  for (const auto& r : p) got.push_back({r.node_id, r.local_rank, r.local_size});
  EXPECT_EQ(got,
            (std::vector<std::vector<int>>{{0, 0, 2}, {0, 1, 2}, {1, 0, 3}, {1, 1, 3}, {1, 2, 3}}));
}

TEST(HostPlacement, NodeMappingSkipsFullHosts) {
  auto p = place_ranks_on_hosts(5, {1, 4}, MapBy::kNode);
  std::vector<std::vector<int>> got;
  for (const auto& r : p) got.push_back({r.node_id, r.local_rank, r.local_size});
  EXPECT_EQ(got,
            (std::vector<std::vector<int>>{{0, 0, 1}, {1, 0, 4}, {1, 1, 4}, {1, 2, 4}, {1, 3, 4}}));
  EXPECT_THROW(place_ranks_on_hosts(6, {1, 4}, MapBy::kNode), Error);
}

LaunchOptions parse(std::vector<std::string> args) {
  args.insert(args.begin(), "hlaunch");
  return parse_command_line(args).options;
}

TEST(HostOptions, HostsGiveTheLauncherAndTheRankCount) {
  LaunchOptions o = parse({"--host", "a:2,b:3", "prog"});
  EXPECT_EQ(o.launcher, LauncherKind::kRsh);
  EXPECT_EQ(o.num_ranks, 5);
  EXPECT_EQ(o.hosts, (Hosts{{"a", 2}, {"b", 3}}));
  o = parse({"-H", "a:2,b:3", "-n", "3", "--bootstrap-address", "eth1", "prog", "--host"});
  EXPECT_EQ(o.num_ranks, 3);
  EXPECT_EQ(o.bootstrap_address, "eth1");
  EXPECT_EQ(o.command, (std::vector<std::string>{"prog", "--host"}));
  EXPECT_EQ(parse({"-n", "2", "prog"}).launcher, LauncherKind::kLocal);
  EXPECT_EQ(parse({"-H", "a:4", "-np", "3", "prog"}).num_ranks, 3);
}

TEST(HostOptions, ConflictsAreUsageErrors) {
  EXPECT_EQ(usage_error_of([] {
              parse({"--host", "a:2", "-n", "3", "prog"});
            }),
            "3 ranks do not fit the 2 slots of the hosts (give more slots: --host a:8, slots=8 "
            "in the hostfile)");
  EXPECT_EQ(usage_error_of([] {
              parse({"--host", "a:2", "--vnodes", "2", "prog"});
            }),
            "--vnodes emulates nodes on this host; with hosts every host entry is a node already");
  EXPECT_EQ(usage_error_of([] {
              parse({"--launcher", "ssh", "-n", "2", "prog"});
            }),
            "--launcher ssh needs --host or --hostfile");
  EXPECT_EQ(usage_error_of([] { parse({"prog"}); }), "-n N, the number of ranks, is required");
}

TEST(HostOptions, SlurmAllocationIsUsedInsideOne) {
  ::setenv("SLURM_JOB_ID", "42", 1);
  ::setenv("SLURM_JOB_NODELIST", "c[1-2]", 1);
  ::setenv("SLURM_TASKS_PER_NODE", "2(x2)", 1);
  LaunchOptions o = parse({"prog"});
  EXPECT_EQ(o.launcher, LauncherKind::kSlurm);
  EXPECT_EQ(o.num_ranks, 4);
  EXPECT_EQ(o.hosts, (Hosts{{"c1", 2}, {"c2", 2}}));
  // --vnodes asks for emulation on this host, and --launcher local for this host only.
  EXPECT_EQ(parse({"-n", "4", "--vnodes", "2", "prog"}).launcher, LauncherKind::kLocal);
  EXPECT_EQ(parse({"-n", "4", "--launcher", "local", "prog"}).launcher, LauncherKind::kLocal);
  for (const char* v : {"SLURM_JOB_ID", "SLURM_JOB_NODELIST", "SLURM_TASKS_PER_NODE"}) {
    ::unsetenv(v);
  }
}

TEST(AgentProtocol, FramesSurviveArbitrarySplits) {
  AgentSpec spec{"prog", {"prog", "a b", ""}, "/tmp", {"X=1"}, "core", {}};
  spec.ranks.push_back({4, {"HALYARD_RANK=4"}});
  spec.ranks.push_back({7, {"HALYARD_RANK=7", "Y="}});
  std::string stream = encode_spec(spec) + encode_output({7, 2, std::string("li\0ne\n", 6)}) +
                       encode_rank_exit({4, 3 << 8}) + encode_signal(15);
  AgentFrameDecoder decoder;
  std::vector<AgentFrame> frames;
  for (char c : stream) {  // one byte at a time: the worst split
    decoder.feed(std::string_view(&c, 1));
    while (auto f = decoder.next()) frames.push_back(*f);
  }
  ASSERT_EQ(frames.size(), 4u);
  AgentSpec got = decode_spec(frames[0].payload);
  EXPECT_EQ(got.argv, spec.argv);
  EXPECT_EQ(got.cwd, "/tmp");
  EXPECT_EQ(got.bind_to, "core");
  ASSERT_EQ(got.ranks.size(), 2u);
  EXPECT_EQ(got.ranks[1].rank, 7);
  EXPECT_EQ(got.ranks[1].env, (std::vector<std::string>{"HALYARD_RANK=7", "Y="}));
  AgentOutput out = decode_output(frames[1].payload);
  EXPECT_EQ(out.rank, 7);
  EXPECT_EQ(out.stream, 2);
  EXPECT_EQ(out.line, std::string("li\0ne\n", 6));
  EXPECT_EQ(decode_rank_exit(frames[2].payload).wait_status, 3 << 8);
  EXPECT_EQ(decode_signal(frames[3].payload), 15);
}

TEST(AgentProtocol, ForeignBytesAreRefused) {
  AgentFrameDecoder decoder;
  decoder.feed("Welcome to node7!\n");
  EXPECT_THROW(decoder.next(), Error);
}

}  // namespace
}  // namespace halyard::launcher
