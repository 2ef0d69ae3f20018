#include "collectives/han/task_pipeline.hpp"

#include <algorithm>
#include <exception>

#include "collectives/core/collective_engine.hpp"
#include "runtime/support/error.hpp"

namespace halyard::han {

// Tracks the call's tasks: each is one operation of the engine from add() until its
// sub-collective completes. It owns no receives (its children are collectives of their own).
class PipelineEngine final : public core::CollectiveEngine {
 public:
  explicit PipelineEngine(const Communicator& comm) : CollectiveEngine(comm) {}

  void add_task() { track(); }
  void task_done(const Status& status) {
    settle_carrying_on(status);
    try_complete(all_added_);
  }
  Request launch() {
    all_added_ = true;
    try_complete(true);
    return launched();
  }

 private:
  bool all_added_ = false;  // launch() ran: no more tasks come
};

namespace {

void finish(const std::shared_ptr<Task>& task, const Status& status) {
  // Dependents still run after a failure: their queues hold tasks of later calls too, and
  // skipping one would shift every rank's tag order. The call reports the failure at the end.
  for (const std::shared_ptr<Task>& next : task->dependents) {
    if (--next->inputs == 0) OrderedQueue::pump(next->queue);
  }
  task->pipeline->task_done(status);
}

}  // namespace

// `queued` by value: a task that finishes inside this loop may drop the last other reference.
void OrderedQueue::pump(std::shared_ptr<QueuedTasks> queued) {
  std::deque<std::shared_ptr<Task>>& tasks = queued->tasks;
  while (!tasks.empty() && tasks.front()->inputs == 0) {
    std::shared_ptr<Task> task = std::move(tasks.front());
    tasks.pop_front();
    Request request;
    try {
      request = task->start();
    } catch (const Error& e) {
      finish(task, Status::failure(e.code(), e.what()));
      continue;
    } catch (const std::exception& e) {
      finish(task, Status::failure(ErrorCode::kInternal, e.what()));
      continue;
    }
    if (!request.valid()) {
      finish(task, Status{});
      continue;
    }
    request.on_complete([task](const Status& status) { finish(task, status); });
  }
}

Pipeline::Pipeline(const Communicator& comm) : engine_(std::make_shared<PipelineEngine>(comm)) {}

std::shared_ptr<Task> Pipeline::add(OrderedQueue& queue, std::function<Request()> start) {
  auto task = std::make_shared<Task>();
  task->start = std::move(start);
  task->queue = queue.queued();
  task->pipeline = engine_;
  engine_->add_task();
  queue.push(task);
  if (std::find(queues_.begin(), queues_.end(), task->queue) == queues_.end()) {
    queues_.push_back(task->queue);
  }
  return task;
}

void Pipeline::depend(const std::shared_ptr<Task>& later, const std::shared_ptr<Task>& earlier) {
  if (!later || !earlier) return;
  ++later->inputs;
  earlier->dependents.push_back(later);
}

Request Pipeline::launch() {
  // The request exists before any task starts: tasks that complete at once (on an already
  // failed process) report to it from the loop.
  Request result = engine_->launch();
  for (const std::shared_ptr<QueuedTasks>& queue : queues_) OrderedQueue::pump(queue);
  return result;
}

}  // namespace halyard::han
