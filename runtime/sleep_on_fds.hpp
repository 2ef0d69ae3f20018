// The one way an idle loop sleeps: ppoll(2) on its sources' wait fds with a bounded timeout.
// Shared by EventLoop::block_once (single-threaded) and the progress thread's LoopLock.
#pragma once

#include <poll.h>

#include <chrono>
#include <vector>

namespace halyard {

// Sleeps until a fd of `fds` is readable or `timeout` passes; fills their revents. An
// interrupted sleep returns early; any other failure is logged as a warning naming `who`.
void sleep_on_fds(std::vector<pollfd>& fds, std::chrono::nanoseconds timeout, const char* who);

}  // namespace halyard
