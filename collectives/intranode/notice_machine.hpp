// NoticeMachine: the engine of the intra-node primitives (collectives/intranode).
//
// Data moves through memory (the node's scratch slots, or CMA reads of peers' buffers); only
// small notices travel as p2p messages: "my buffer is at X", "fragment ready", "I am done
// reading". A primitive is a state machine: advance() does every piece of work the notices
// received so far allow, and each notice's arrival calls it again, so nothing ever waits inside
// a callback (ADAPT's rule).
//
// Every notice carries a `failed` flag: a rank whose part failed (a refused CMA read) still
// plays the protocol to its end, flagging its notices, so its peers fail too instead of hanging
// or using bad data. A failed p2p operation (a peer died) stops the protocol; the request then
// completes with that failure once nothing is in flight.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>

#include "runtime/communicator.hpp"
#include "runtime/error.hpp"
#include "runtime/event_loop.hpp"
#include "runtime/node_memory.hpp"
#include "runtime/request.hpp"

namespace halyard::intranode {

// Fixed-size, trivially copyable: the payload of every notice.
struct Notice {
  std::uint64_t first = 0;   // an address in the sender's process (send buffer), if any
  std::uint64_t second = 0;  // another address (where its result lies), if any
  std::uint32_t failed = 0;  // non-zero: the sender's part failed; the receiver must fail too
  std::uint32_t reserved = 0;
};

class NoticeMachine : public std::enable_shared_from_this<NoticeMachine> {
 public:
  NoticeMachine(const Communicator& comm, NodeMemory& memory);
  virtual ~NoticeMachine() = default;
  NoticeMachine(const NoticeMachine&) = delete;
  NoticeMachine& operator=(const NoticeMachine&) = delete;

  // Runs start() and returns the Request of the whole primitive.
  static Request launch(const std::shared_ptr<NoticeMachine>& machine);

 protected:
  // Posts the first notices and receives.
  virtual void start() = 0;
  // Does whatever work is possible now (copies, reductions, notices). Called after start(),
  // after every notice arrives, and when schedule() asked for another pass.
  virtual void advance() = 0;
  // True once this rank's part of the protocol is over.
  virtual bool finished() const = 0;
  // Runs once, just before the request completes (success or not): give back what the
  // machine holds (the scratch slot).
  virtual void release() {}

  // Sends a notice to communicator rank `peer`, with this rank's failure flag.
  void notify(int peer, int tag, std::uint64_t first = 0, std::uint64_t second = 0);
  // Receives `count` notices from `peer` on `tag`, one posted at a time; `on_each` runs for each
  // (a flagged notice has already marked this machine failed), then advance() runs.
  void expect(int peer, int tag, std::size_t count, std::function<void(const Notice&)> on_each);
  // Runs advance() again from a later pass of the event loop: big copies are cut into chunks,
  // one per pass, so that other traffic keeps moving.
  void schedule();

  // Records the first failure of this rank's part; later notices carry the flag.
  void record_failure(Status status);
  bool failed() const noexcept { return !failure_.ok(); }

  // Runs advance() unless the protocol is broken, then completes the request when it can.
  void step();

  const Communicator& comm() const noexcept { return comm_; }
  NodeMemory& memory() const noexcept { return memory_; }
  EventLoop& loop() const noexcept { return loop_; }
  int rank() const noexcept { return rank_; }
  int size() const noexcept { return size_; }

 private:
  void receive_next(int peer, int tag, std::shared_ptr<std::size_t> remaining,
                    std::shared_ptr<std::function<void(const Notice&)>> on_each);
  void operation_done(const Status& status);

  Communicator comm_;
  NodeMemory& memory_;
  EventLoop& loop_;
  int rank_;
  int size_;
  Request request_;
  Status failure_;
  bool p2p_broken_ = false;  // a send or receive failed: no more notices will come
  bool scheduled_ = false;
  bool completed_ = false;
  bool stepping_ = false;
  int outstanding_ = 0;        // posted p2p operations not yet completed
  std::deque<Notice> outbox_;  // notices being sent (stable addresses)
};

}  // namespace halyard::intranode
