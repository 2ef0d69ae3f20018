#include <gtest/gtest.h>

#include <cstdlib>

#include "runtime/support/config.hpp"
#include "runtime/support/error.hpp"

namespace halyard {
namespace {

TEST(Config, BytesAcceptSuffixes) {
  EXPECT_EQ(config::parse_bytes("4096", "X"), 4096u);
  EXPECT_EQ(config::parse_bytes("64K", "X"), 65536u);
  EXPECT_EQ(config::parse_bytes("4m", "X"), 4u << 20);
  EXPECT_EQ(config::parse_bytes("1GiB", "X"), 1u << 30);
}

TEST(Config, BytesRejectGarbageNamingTheVariable) {
  try {
    config::parse_bytes("12Q", "HALYARD_X");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument);
    EXPECT_NE(std::string(e.what()).find("HALYARD_X='12Q'"), std::string::npos) << e.what();
  }
}

TEST(Config, ChoiceListsValidValues) {
  setenv("HALYARD_TEST_CHOICE", "Yield", 1);
  EXPECT_EQ(config::env_choice("HALYARD_TEST_CHOICE", {"spin", "yield", "block"}, "block"),
            "yield");
  setenv("HALYARD_TEST_CHOICE", "nap", 1);
  try {
    config::env_choice("HALYARD_TEST_CHOICE", {"spin", "yield", "block"}, "block");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("spin|yield|block"), std::string::npos) << e.what();
  }
  unsetenv("HALYARD_TEST_CHOICE");
  EXPECT_EQ(config::env_choice("HALYARD_TEST_CHOICE", {"spin", "yield", "block"}, "block"),
            "block");
}

TEST(Config, IntRejectsTrailingText) {
  setenv("HALYARD_TEST_INT", "12x", 1);
  EXPECT_THROW(config::env_int("HALYARD_TEST_INT", 0), Error);
  setenv("HALYARD_TEST_INT", "-7", 1);
  EXPECT_EQ(config::env_int("HALYARD_TEST_INT", 0), -7);
  unsetenv("HALYARD_TEST_INT");
}

}  // namespace
}  // namespace halyard
