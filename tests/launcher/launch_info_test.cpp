// LaunchInfo::from_environment: what a rank reads from the variables hlaunch sets.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "runtime/bootstrap/launch_info.hpp"
#include "runtime/support/error.hpp"

namespace halyard {
namespace {

class LaunchInfoTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* name : kNames) ::unsetenv(name);
  }
  void TearDown() override {
    for (const char* name : kNames) ::unsetenv(name);
  }
  static void set_all() {
    ::setenv("HALYARD_BOOTSTRAP_ADDR", "127.0.0.1:4242", 1);
    ::setenv("HALYARD_RANK", "5", 1);
    ::setenv("HALYARD_SIZE", "8", 1);
    ::setenv("HALYARD_LOCAL_RANK", "1", 1);
    ::setenv("HALYARD_LOCAL_SIZE", "4", 1);
    ::setenv("HALYARD_NODE_ID", "1", 1);
    ::setenv("HALYARD_NUM_NODES", "2", 1);
    ::setenv("HALYARD_JOB_ID", "hl1-abcd", 1);
    ::setenv("HALYARD_JOB_TOKEN", "00112233", 1);
  }
  static std::string error() {
    try {
      LaunchInfo::from_environment();
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::kBootstrap);
      return e.what();
    }
    return "no error";
  }
  static constexpr const char* kNames[] = {
      "HALYARD_BOOTSTRAP_ADDR", "HALYARD_RANK",       "HALYARD_SIZE",
      "HALYARD_LOCAL_RANK",     "HALYARD_LOCAL_SIZE", "HALYARD_NODE_ID",
      "HALYARD_NUM_NODES",      "HALYARD_JOB_ID",     "HALYARD_JOB_TOKEN",
      "SLURM_PROCID",           "SLURM_NTASKS",       "SLURM_LOCALID",
      "SLURM_NODEID",           "SLURM_NNODES",       "SLURM_STEP_TASKS_PER_NODE",
      "SLURM_JOB_ID",           "SLURM_STEP_ID"};
};

TEST_F(LaunchInfoTest, NotStartedByHlaunchWithoutServerAddress) {
  ::setenv("HALYARD_RANK", "3", 1);
  EXPECT_FALSE(LaunchInfo::from_environment().has_value());
}

TEST_F(LaunchInfoTest, ReadsEveryVariable) {
  set_all();
  auto info = LaunchInfo::from_environment();
  ASSERT_TRUE(info.has_value());
  EXPECT_EQ(info->server, "127.0.0.1:4242");
  EXPECT_EQ(info->rank, 5);
  EXPECT_EQ(info->size, 8);
  EXPECT_EQ(info->local_rank, 1);
  EXPECT_EQ(info->local_size, 4);
  EXPECT_EQ(info->node_id, 1);
  EXPECT_EQ(info->num_nodes, 2);
  EXPECT_EQ(info->job_id, "hl1-abcd");
  EXPECT_EQ(info->token, "00112233");
}

TEST_F(LaunchInfoTest, MissingOrMalformedVariablesAreNamed) {
  set_all();
  ::unsetenv("HALYARD_JOB_TOKEN");
  EXPECT_EQ(error(),
            "HALYARD_JOB_TOKEN is not set although HALYARD_BOOTSTRAP_ADDR is: the process was not "
            "started by a complete hlaunch environment");
  set_all();
  ::setenv("HALYARD_SIZE", "eight", 1);
  EXPECT_EQ(error(), "HALYARD_SIZE='eight' is not valid: expected an integer >= 1");
  set_all();
  ::setenv("HALYARD_RANK", "8", 1);
  EXPECT_EQ(error(), "HALYARD_RANK=8 is not below HALYARD_SIZE=8");
  set_all();
  ::setenv("HALYARD_NODE_ID", "-1", 1);
  EXPECT_EQ(error(), "HALYARD_NODE_ID='-1' is not valid: expected an integer >= 0");
}

// Ranks started by srun next to `hlaunch --serve-bootstrap` take their place from Slurm.
TEST_F(LaunchInfoTest, SrunStartedRankReadsSlurm) {
  ::setenv("HALYARD_BOOTSTRAP_ADDR", "10.0.0.1:4242", 1);
  ::setenv("HALYARD_JOB_TOKEN", "00112233", 1);
  ::setenv("SLURM_PROCID", "4", 1);
  ::setenv("SLURM_NTASKS", "5", 1);
  ::setenv("SLURM_LOCALID", "0", 1);
  ::setenv("SLURM_NODEID", "2", 1);
  ::setenv("SLURM_NNODES", "3", 1);
  ::setenv("SLURM_STEP_TASKS_PER_NODE", "2(x2),1", 1);
  ::setenv("SLURM_JOB_ID", "77", 1);
  ::setenv("SLURM_STEP_ID", "3", 1);
  auto info = LaunchInfo::from_environment();
  ASSERT_TRUE(info.has_value());
  EXPECT_EQ(info->rank, 4);
  EXPECT_EQ(info->size, 5);
  EXPECT_EQ(info->local_rank, 0);
  EXPECT_EQ(info->local_size, 1);
  EXPECT_EQ(info->node_id, 2);
  EXPECT_EQ(info->num_nodes, 3);
  EXPECT_EQ(info->job_id, "slurm-77.3");
  EXPECT_EQ(info->token, "00112233");
  ::setenv("SLURM_STEP_TASKS_PER_NODE", "2(x2)", 1);
  EXPECT_EQ(error(), "SLURM_STEP_TASKS_PER_NODE='2(x2)' is not valid for SLURM_NNODES=3");
}

TEST(SlurmCounts, Expand) {
  EXPECT_EQ(expand_slurm_counts("2(x3),1"), (std::vector<int>{2, 2, 2, 1}));
  EXPECT_EQ(expand_slurm_counts("16"), (std::vector<int>{16}));
  EXPECT_FALSE(expand_slurm_counts("2(x3").has_value());
  EXPECT_FALSE(expand_slurm_counts("0").has_value());
  EXPECT_FALSE(expand_slurm_counts("").has_value());
}

}  // namespace
}  // namespace halyard
