#include "collectives/han/task_graph.hpp"

#include <algorithm>
#include <exception>

#include "runtime/error.hpp"

namespace halyard::han {

struct PipelineState {
  Request result;
  std::size_t remaining = 0;
  Status first_failure;
};

namespace {

void finish(const std::shared_ptr<Task>& task, const Status& status) {
  PipelineState& p = *task->pipeline;
  if (!status.ok() && p.first_failure.ok()) p.first_failure = status;
  // Dependents still run after a failure: their queues hold tasks of later calls too, and
  // skipping one would shift every rank's tag order. The call reports the failure at the end.
  for (const std::shared_ptr<Task>& next : task->dependents) {
    if (--next->inputs == 0) OrderedQueue::pump(next->queue);
  }
  if (--p.remaining == 0) p.result.complete(p.first_failure);
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

Pipeline::Pipeline(EventLoop& loop) : state_(std::make_shared<PipelineState>()) {
  state_->result = Request::make_pending(loop);
}

std::shared_ptr<Task> Pipeline::add(OrderedQueue& queue, std::function<Request()> start) {
  auto task = std::make_shared<Task>();
  task->start = std::move(start);
  task->queue = queue.queued();
  task->pipeline = state_;
  ++state_->remaining;
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
  Request result = state_->result;
  if (state_->remaining == 0) {
    result.complete(Status{});
    return result;
  }
  for (const std::shared_ptr<QueuedTasks>& queue : queues_) OrderedQueue::pump(queue);
  return result;
}

}  // namespace halyard::han
