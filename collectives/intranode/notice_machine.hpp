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
// or using bad data (record_failure()). A failed p2p operation (a peer died) or a throwing
// advance() aborts the machine (collectives/core/collective_engine.hpp): the protocol stops,
// the notices still expected are withdrawn, and the request completes with the first failure
// once nothing is in flight.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>

#include "collectives/core/collective_engine.hpp"
#include "runtime/communicator.hpp"
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

class NoticeMachine : public core::CollectiveEngine {
 public:
  NoticeMachine(const Communicator& comm, NodeMemory& memory);

  // Runs start() and returns the Request of the whole primitive.
  static Request launch(const std::shared_ptr<NoticeMachine>& machine);

 protected:
  // Posts the first notices and receives.
  virtual void start() = 0;
  // Does whatever work is possible now (copies, reductions, notices). Called after start(),
  // after every notice arrives, and when schedule() asked for another pass.
  virtual void advance() = 0;
  // True once this rank's part of the protocol is over. (release(), run just before the
  // request completes, gives back what the machine holds: the scratch slot.)
  virtual bool finished() const = 0;

  // Sends a notice to communicator rank `peer`, with this rank's failure flag.
  void notify(int peer, int tag, std::uint64_t first = 0, std::uint64_t second = 0);
  // Receives `count` notices from `peer` on `tag`, one posted at a time; `on_each` runs for each
  // (a flagged notice has already marked this machine failed), then advance() runs.
  void expect(int peer, int tag, std::size_t count, std::function<void(const Notice&)> on_each);
  // Runs advance() again from a later pass of the event loop: big copies are cut into chunks,
  // one per pass, so that other traffic keeps moving.
  void schedule();

  // record_failure() keeps the first failure of this rank's part; later notices carry the
  // flag. Runs advance() unless the machine is stopping, then completes the request when it
  // can.
  void step();

  NodeMemory& memory() const noexcept { return memory_; }
  EventLoop& loop() const noexcept { return loop_; }
  int rank() const noexcept { return rank_; }
  int size() const noexcept { return size_; }

 private:
  void receive_next(int peer, int tag, std::shared_ptr<std::size_t> remaining,
                    std::shared_ptr<std::function<void(const Notice&)>> on_each);

  NodeMemory& memory_;
  EventLoop& loop_;
  int rank_;
  int size_;
  bool scheduled_ = false;
  bool stepping_ = false;
  std::deque<Notice> outbox_;  // notices being sent (stable addresses)
};

}  // namespace halyard::intranode
