// HAN's task pipelines (dissertation chapter 5): each HAN call is a small graph of sub-collective
// tasks (one per segment and level) that start when their inputs complete, so the segments of
// one level overlap with those of another.
//
// Sub-collectives take their tags from a per-communicator call counter, so every rank must start
// the sub-collectives of one sub-communicator in the same order. Completion order differs
// between ranks, so a task is never started straight from an input's callback: it waits in its
// sub-communicator's OrderedQueue, which starts tasks strictly in the order they were added (the
// same program order on every rank), each once its inputs are done. Nothing waits inside a
// callback: an input's completion only decrements a counter and pumps the queue.
//
// The pipeline is a collective engine (collectives/core/collective_engine.hpp): its request
// completes once every task's sub-collective has, with the first failure. A failure does not
// stop it: later tasks still start, since skipping one would shift every rank's tag order.
#pragma once

#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <vector>

#include "runtime/communicator.hpp"
#include "runtime/request.hpp"

namespace halyard::han {

struct QueuedTasks;
class PipelineEngine;

struct Task {
  std::function<Request()> start;
  int inputs = 0;  // inputs not complete yet
  std::vector<std::shared_ptr<Task>> dependents;
  // Shared: a call in flight keeps its queues even when the communicator whose hierarchy owns
  // them is freed (runtime/attachments.hpp).
  std::shared_ptr<QueuedTasks> queue;
  std::shared_ptr<PipelineEngine> pipeline;
};

struct QueuedTasks {
  std::deque<std::shared_ptr<Task>> tasks;
};

// The start order of the sub-collectives of one sub-communicator (node or leader), shared by
// every HAN call on that communicator.
class OrderedQueue {
 public:
  void push(std::shared_ptr<Task> task) { queued_->tasks.push_back(std::move(task)); }
  // Starts head tasks while their inputs are complete.
  void pump() { pump(queued_); }
  static void pump(std::shared_ptr<QueuedTasks> queued);
  const std::shared_ptr<QueuedTasks>& queued() const noexcept { return queued_; }

 private:
  std::shared_ptr<QueuedTasks> queued_ = std::make_shared<QueuedTasks>();
};

// One HAN call on `comm`: build the tasks in program order, add edges, then launch().
class Pipeline {
 public:
  explicit Pipeline(const Communicator& comm);

  // A task on `queue`; queues keep the order of add() calls.
  std::shared_ptr<Task> add(OrderedQueue& queue, std::function<Request()> start);
  // `later` starts only after `earlier` completed; a null task on either side is no edge.
  static void depend(const std::shared_ptr<Task>& later, const std::shared_ptr<Task>& earlier);
  // The call's request: completes when every task has, with the first failure if any.
  Request launch();

 private:
  std::shared_ptr<PipelineEngine> engine_;
  std::vector<std::shared_ptr<QueuedTasks>> queues_;
};

}  // namespace halyard::han
