// LaunchInfo::from_environment: what a rank reads from the variables hlaunch sets.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "runtime/error.hpp"
#include "runtime/launch_info.hpp"

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
      "HALYARD_NUM_NODES",      "HALYARD_JOB_ID",     "HALYARD_JOB_TOKEN"};
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

}  // namespace
}  // namespace halyard
