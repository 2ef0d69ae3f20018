#include "runtime/progress_thread.hpp"

#include <sched.h>

#include <exception>
#include <string>

#include "runtime/support/config.hpp"
#include "runtime/support/log.hpp"

namespace halyard {

bool ProgressThread::enabled_from_environment() {
  return config::env_choice("HALYARD_PROGRESS_THREAD", {"0", "1"}, "0") == "1";
}

ProgressThread::ProgressThread(EventLoop& loop) : loop_(loop) {
  if (loop_.threaded()) {
    throw Error(ErrorCode::kInvalidArgument, "ProgressThread: the loop already has one");
  }
  loop_.set_lock(&lock_);
  try {
    thread_ = std::thread([this] { run(); });
  } catch (...) {
    loop_.set_lock(nullptr);
    throw;
  }
}

ProgressThread::~ProgressThread() {
  stop();
}

void ProgressThread::stop() {
  if (!thread_.joinable()) return;
  if (thread_.get_id() == std::this_thread::get_id()) {
    throw Error(ErrorCode::kInvalidArgument,
                "ProgressThread::stop: called from a callback on the progress thread");
  }
  lock_.lock();
  stop_requested_ = true;
  lock_.unlock();  // wakes the thread if it sleeps
  thread_.join();
  loop_.set_lock(nullptr);
}

void ProgressThread::run() {
  log::debug("progress thread started");
  lock_.lock();
  int idle = 0;
  const WaitPolicy policy = loop_.policy();
  while (!stop_requested_) {
    int events = 0;
    try {
      events = loop_.poll();
    } catch (const std::exception& e) {
      // A callback threw: there is no caller to hand the exception to. Fail what is pending so
      // that the application's waits return with the reason instead of hanging.
      log::error("progress thread: a completion callback threw: {}", e.what());
      loop_.fail_all_pending(Status::failure(
          ErrorCode::kInternal, std::string("a completion callback threw: ") + e.what()));
      events = 1;
    }
    if (events > 0) {
      idle = 0;
      lock_.notify_after_pass();
      lock_.yield_to_contenders();
      continue;
    }
    ++idle;
    if (policy == WaitPolicy::kSpin || idle < EventLoop::kSpinPasses) {
      lock_.yield_to_contenders();
      continue;
    }
    if (policy == WaitPolicy::kYield || idle < EventLoop::kSpinPasses + EventLoop::kYieldPasses) {
      lock_.unlock();
      ::sched_yield();
      lock_.lock();
      continue;
    }
    if (!loop_.sleep_while_idle()) {
      // A source without a wait fd (an ofi CQ opened without one) must be polled: at least
      // let every other runnable thread go first.
      lock_.unlock();
      ::sched_yield();
      lock_.lock();
    }
  }
  lock_.unlock();
  log::debug("progress thread stopped");
}

}  // namespace halyard
