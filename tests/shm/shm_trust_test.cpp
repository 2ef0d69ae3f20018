// Issue 27, item 3: what the shm transport reads from the bootstrap and from the segment is
// checked before it is trusted. A segment locator must name the node's first rank and a segment
// of this user; a copy slot must name the receiver's published pid and ask for no more than the
// sender's own buffer.
#include <gtest/gtest.h>
#include <unistd.h>

#include <string>

#include "runtime/support/error.hpp"
#include "transports/shm/copy_share.hpp"
#include "transports/shm/shm_segment.hpp"

namespace halyard::shm {
namespace {

std::string error_of_open(const std::string& locator, int creator_pid) {
  try {
    SharedSegment::open(locator, creator_pid);
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ErrorCode::kTransport);
    return error.what();
  }
  return "no error";
}

TEST(ShmTrust, ALocatorMustNameTheNodesFirstRank) {
  SharedSegment segment = SharedSegment::create("trust-test", 4096);
  const int me = static_cast<int>(::getpid());
  EXPECT_EQ(SharedSegment::open(segment.locator(), me).size(), 4096u);
  const std::string message = error_of_open(segment.locator(), me + 1);
  EXPECT_NE(message.find("names pid " + std::to_string(me) + ", not the node's first rank (pid " +
                         std::to_string(me + 1) + ")"),
            std::string::npos)
      << message;
}

TEST(ShmTrust, ASegmentOfAnotherUserIsRefused) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to give the segment to another user";
  SharedSegment segment = SharedSegment::create("trust-test", 4096);
  ASSERT_EQ(::fchown(segment.fd(), 12345, static_cast<gid_t>(-1)), 0);
  const std::string message = error_of_open(segment.locator(), static_cast<int>(::getpid()));
  EXPECT_NE(message.find("belongs to uid 12345, not to this user (uid 0)"), std::string::npos)
      << message;
}

TEST(ShmTrust, ACopySlotIsCheckedAgainstTheSendersKnowledge) {
  CopyShareSlot slot{};
  CopyShare share(&slot);
  const std::uint64_t bytes = 4 * CopyShare::kChunkBytes;
  share.open(0x10000, bytes, 42);
  EXPECT_EQ(share.problem_for_sender(42, bytes), std::nullopt);
  EXPECT_EQ(share.problem_for_sender(43, bytes), "names pid 42, not the receiver's (43)");
  EXPECT_EQ(share.problem_for_sender(42, bytes - 1),
            "asks for 1048576 bytes of a 1048575-byte send");
  slot.chunks = 5;  // one chunk past the bytes: its length would wrap around
  EXPECT_EQ(share.problem_for_sender(42, bytes), "has 5 chunks for 1048576 bytes");
  share.open(~std::uint64_t{0} - 10, bytes, 42);
  EXPECT_NE(share.problem_for_sender(42, bytes)->find("has destination"), std::string::npos);
}

}  // namespace
}  // namespace halyard::shm
