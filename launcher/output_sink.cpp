#include "launcher/output_sink.hpp"

#include <boost/asio/post.hpp>

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#include "launcher/output_forwarder.hpp"

namespace halyard::launcher {

struct OutputSink::State {
  boost::asio::io_context* io;  // null once the sink is gone
  int fd;
  mutable std::mutex mutex;
  std::condition_variable changed;
  std::deque<std::string> queue;
  std::size_t queued_bytes = 0;  // in `queue` and the chunk being written
  std::vector<std::function<void()>> waiting_for_room;

  void run() {
    std::unique_lock lock(mutex);
    while (true) {
      changed.wait(lock, [this] { return !queue.empty() || io == nullptr; });
      if (queue.empty()) return;  // the sink is gone and everything is written
      std::string chunk = std::move(queue.front());
      queue.pop_front();
      lock.unlock();
      write_fully(fd, chunk);  // may block for as long as the reader likes
      lock.lock();
      queued_bytes -= chunk.size();
      if (queued_bytes < kMaxQueuedBytes && io != nullptr) {
        for (auto& resume : waiting_for_room) boost::asio::post(*io, std::move(resume));
        waiting_for_room.clear();
      }
      changed.notify_all();
    }
  }
};

OutputSink::OutputSink(boost::asio::io_context& io, int fd) : state_(std::make_shared<State>()) {
  state_->io = &io;
  state_->fd = fd;
  // Detached: at exit it may still be blocked in a write nobody reads.
  std::thread([state = state_] { state->run(); }).detach();
}

OutputSink::~OutputSink() {
  std::lock_guard lock(state_->mutex);
  state_->io = nullptr;
  state_->waiting_for_room.clear();
  state_->changed.notify_all();
}

void OutputSink::write(std::string data) {
  if (data.empty()) return;
  std::lock_guard lock(state_->mutex);
  state_->queued_bytes += data.size();
  state_->queue.push_back(std::move(data));
  state_->changed.notify_all();
}

bool OutputSink::has_room() const {
  std::lock_guard lock(state_->mutex);
  return state_->queued_bytes < kMaxQueuedBytes;
}

void OutputSink::when_room(std::function<void()> resume) {
  std::unique_lock lock(state_->mutex);
  if (state_->queued_bytes < kMaxQueuedBytes) {
    lock.unlock();
    resume();
    return;
  }
  state_->waiting_for_room.push_back(std::move(resume));
}

void OutputSink::flush(std::chrono::milliseconds limit) {
  std::unique_lock lock(state_->mutex);
  state_->changed.wait_for(lock, limit, [this] { return state_->queued_bytes == 0; });
}

}  // namespace halyard::launcher
