// Issue 27, item 11: a number of seconds too large for a clock (10^10 s overflows a steady_clock
// deadline in nanoseconds) is refused with an error that names the variable, instead of firing at
// once (HALYARD_COLL_TIMEOUT=10000000000 failed a healthy job after 1 s,
// HALYARD_BOOTSTRAP_TIMEOUT=9223372036854775807 timed out at once).
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "runtime/bootstrap/bootstrap_client.hpp"
#include "runtime/bootstrap/launch_info.hpp"
#include "runtime/collective_watchdog.hpp"
#include "runtime/support/config.hpp"
#include "runtime/support/error.hpp"

namespace halyard {
namespace {

// Runs `read` with `name`=`value` set and expects Error(kInvalidArgument) naming the variable.
template <typename Read>
void expect_refused(const char* name, const char* value, Read read) {
  ::setenv(name, value, 1);
  try {
    read();
    ADD_FAILURE() << name << "=" << value << " was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument) << e.what();
    EXPECT_NE(std::string(e.what()).find(std::string(name) + "='" + value + "'"), std::string::npos)
        << e.what();
  }
  ::unsetenv(name);
}

TEST(HugeEnvValues, SecondsAcceptTheRangeAndTheFallback) {
  ::setenv("HALYARD_TEST_SECONDS", "31536000", 1);
  EXPECT_EQ(config::env_seconds("HALYARD_TEST_SECONDS", 5, 0).count(), 31536000);
  ::unsetenv("HALYARD_TEST_SECONDS");
  EXPECT_EQ(config::env_seconds("HALYARD_TEST_SECONDS", 5, 0).count(), 5);
}

TEST(HugeEnvValues, SecondsRefuseMoreThanAYearAndLessThanTheMinimum) {
  auto read = [] { config::env_seconds("HALYARD_TEST_SECONDS", 5, 1); };
  expect_refused("HALYARD_TEST_SECONDS", "31536001", read);
  expect_refused("HALYARD_TEST_SECONDS", "0", read);
  expect_refused("HALYARD_TEST_SECONDS", "99999999999999999999", read);
}

TEST(HugeEnvValues, CollectiveTimeoutRefusesTenBillionSeconds) {
  expect_refused("HALYARD_COLL_TIMEOUT", "10000000000",
                 [] { CollectiveWatchdog::timeout_from_environment(); });
  ::setenv("HALYARD_COLL_TIMEOUT", "0", 1);
  EXPECT_FALSE(CollectiveWatchdog::timeout_from_environment().has_value());
  ::unsetenv("HALYARD_COLL_TIMEOUT");
}

TEST(HugeEnvValues, BootstrapTimeoutRefusesTheLargestInteger) {
  LaunchInfo info;
  info.server = "127.0.0.1:1";  // never reached: the variable is read first
  info.token = "t";
  expect_refused("HALYARD_BOOTSTRAP_TIMEOUT", "9223372036854775807",
                 [&] { BootstrapClient::connect(info); });
}

}  // namespace
}  // namespace halyard
