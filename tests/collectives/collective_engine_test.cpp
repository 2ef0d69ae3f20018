// The collective engine contract (collectives/core/collective_engine.hpp) on a one-rank
// runtime: the first failure is kept, the request waits for everything tracked, abort withdraws
// the unmatched receives of the engine's tags, and the engine keeps itself alive; then the same
// through two engines built on it, base::StepMachine and HAN's task pipeline.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <vector>

#include "collectives/base/step_machine.hpp"
#include "collectives/core/collective_engine.hpp"
#include "collectives/core/collective_tag.hpp"
#include "collectives/han/task_pipeline.hpp"
#include "runtime/event_loop.hpp"
#include "tests/core/thread_job.hpp"

namespace halyard {
namespace {

using testing::run_thread_job;
using testing::ThreadJob;

// An engine whose protocol the test drives by hand.
class ProbeEngine final : public core::CollectiveEngine {
 public:
  ProbeEngine(const Communicator& comm, int tag) : CollectiveEngine(comm, tag), tag_(tag) {}

  Request start() { return launched(); }

  // A receive from this rank itself on the engine's tag; its outcome lands in `outcomes`.
  void receive(void* buffer, std::size_t bytes) {
    track();
    comm().receive_internal(0, tag_, buffer, bytes,
                            [self = keep_alive(this)](const Status& status) {
                              self->outcomes.push_back(status);
                              self->settle(status);
                              self->try_complete(self->work_done);
                            });
  }
  // A child (a sub-collective, device work): the engine waits for it.
  void await_child(const Request& child) {
    track();
    child.on_complete([self = keep_alive(this)](const Status& status) {
      self->settle_carrying_on(status);
      self->try_complete(self->work_done);
    });
  }
  void finish_work() {
    work_done = true;
    try_complete(true);
  }
  void record(Status status) { record_failure(std::move(status)); }
  void stop(Status status) {
    abort(std::move(status));
    try_complete(work_done);
  }
  void release() override { ++releases; }

  std::vector<Status> outcomes;
  bool work_done = false;
  int releases = 0;

 private:
  int tag_;
};

Status failure(const char* text) {
  return Status::failure(ErrorCode::kTransport, text);
}

void on_one_rank(const std::function<void(const Communicator&)>& body) {
  ThreadJob job({0});
  run_thread_job(job, [&](Runtime& rt) { body(rt.world()); });
}

TEST(CollectiveEngine, CompletesAtOnceWhenNothingIsOutstanding) {
  on_one_rank([](const Communicator& world) {
    auto engine = std::make_shared<ProbeEngine>(world, next_collective_tag(world));
    engine->finish_work();
    Request request = engine->start();
    EXPECT_TRUE(request.done());
    EXPECT_TRUE(request.wait().ok());
    EXPECT_EQ(engine->releases, 1);
  });
}

TEST(CollectiveEngine, KeepsTheFirstFailure) {
  on_one_rank([](const Communicator& world) {
    auto engine = std::make_shared<ProbeEngine>(world, next_collective_tag(world));
    Request request = engine->start();
    engine->record(failure("first"));
    engine->stop(failure("second"));
    engine->stop(failure("third"));
    Status status = request.wait();
    EXPECT_EQ(status.code, ErrorCode::kTransport);
    EXPECT_EQ(status.message, "first");
    EXPECT_EQ(engine->releases, 1);
  });
}

TEST(CollectiveEngine, CompletionWaitsForEveryOutstandingChild) {
  on_one_rank([](const Communicator& world) {
    auto engine = std::make_shared<ProbeEngine>(world, next_collective_tag(world));
    Request first = Request::make_pending(world.loop());
    Request second = Request::make_pending(world.loop());
    engine->await_child(first);
    engine->await_child(second);
    Request request = engine->start();
    engine->stop(failure("stopped"));  // a failure does not complete while children run
    engine->finish_work();
    for (int i = 0; i < 8; ++i) world.loop().poll();
    EXPECT_FALSE(request.done());
    first.complete(failure("child failed later"));
    for (int i = 0; i < 8; ++i) world.loop().poll();
    EXPECT_FALSE(request.done()) << "one child is still running";
    second.complete(Status{});
    Status status = request.wait();
    EXPECT_EQ(status.message, "stopped");
    EXPECT_EQ(engine->outstanding(), 0);
  });
}

TEST(CollectiveEngine, AbortWithdrawsUnmatchedReceivesBeforeCompleting) {
  on_one_rank([](const Communicator& world) {
    const int tag = next_collective_tag(world);
    auto engine = std::make_shared<ProbeEngine>(world, tag);
    std::vector<int> buffers(3, -1);
    for (int& b : buffers) engine->receive(&b, sizeof b);
    int other = -1;  // a receive of another collective on the same communicator
    const int other_tag = next_collective_tag(world);
    world.receive_internal(0, other_tag, &other, sizeof other, [](const Status&) {});
    Request request = engine->start();
    EXPECT_EQ(world.posted_receives(), 4u);
    engine->stop(failure("local failure"));
    EXPECT_FALSE(request.done()) << "three receives are still posted into the buffers";
    Status status = request.wait();
    EXPECT_EQ(status.message, "local failure");
    ASSERT_EQ(engine->outcomes.size(), 3u);
    for (const Status& s : engine->outcomes) EXPECT_EQ(s.code, ErrorCode::kCancelled);
    EXPECT_EQ(world.posted_receives(), 1u) << "only the other collective's receive is left";
    // A message on the engine's tag now finds no receive: nothing writes into its buffers.
    const int late = 42;
    world.isend_internal(0, tag, &late, sizeof late).wait_ok();
    for (int i = 0; i < 8; ++i) world.loop().poll();
    EXPECT_EQ(buffers, std::vector<int>(3, -1));
    world.isend_internal(0, other_tag, &late, sizeof late).wait_ok();
    for (int i = 0; i < 8; ++i) world.loop().poll();
    EXPECT_EQ(other, 42);
  });
}

TEST(CollectiveEngine, KeepsItselfAliveUntilTheLastCompletion) {
  on_one_rank([](const Communicator& world) {
    const int tag = next_collective_tag(world);
    auto engine = std::make_shared<ProbeEngine>(world, tag);
    int buffer = 0;
    engine->receive(&buffer, sizeof buffer);
    engine->work_done = true;
    Request request = engine->start();
    std::weak_ptr<ProbeEngine> watch = engine;
    engine.reset();  // only the receive's completion holds it now
    EXPECT_FALSE(watch.expired());
    const int value = 7;
    world.isend_internal(0, tag, &value, sizeof value).wait_ok();
    EXPECT_TRUE(request.wait().ok());
    EXPECT_EQ(buffer, 7);
    for (int i = 0; i < 8; ++i) world.loop().poll();
    EXPECT_TRUE(watch.expired()) << "nothing holds a completed engine";
  });
}

// A step machine whose first step posts receives that nothing will match, then throws.
class ThrowingStep final : public base::StepMachine {
 public:
  ThrowingStep(const Communicator& comm, int tag) : StepMachine(comm, tag) {}
  std::vector<int> buffers = std::vector<int>(3, -1);

 protected:
  bool post_next_step() override {
    for (int& b : buffers) recv(0, &b, sizeof b);
    throw Error(ErrorCode::kInvalidArgument, "the step found bad arguments");
  }
};

TEST(CollectiveEngine, StepMachineWithdrawsTheReceivesOfAStepThatFailed) {
  on_one_rank([](const Communicator& world) {
    const int tag = next_collective_tag(world);
    Request request = base::StepMachine::launch<ThrowingStep>(world, tag);
    EXPECT_FALSE(request.done()) << "three receives are posted into the machine's buffers";
    Status status = request.wait();
    EXPECT_EQ(status.code, ErrorCode::kInvalidArgument);
    EXPECT_EQ(status.message, "the step found bad arguments");
    EXPECT_EQ(world.posted_receives(), 0u);
  });
}

TEST(CollectiveEngine, TaskPipelineWaitsForEveryTaskAndKeepsTheFirstFailure) {
  on_one_rank([](const Communicator& world) {
    han::OrderedQueue queue;
    han::Pipeline pipeline(world);
    Request slow = Request::make_pending(world.loop());
    Request failing = Request::make_pending(world.loop());
    int started = 0;
    auto first = pipeline.add(queue, [&] {
      ++started;
      return failing;
    });
    auto second = pipeline.add(queue, [&] {
      ++started;
      return slow;
    });
    han::Pipeline::depend(second, first);
    Request request = pipeline.launch();
    EXPECT_EQ(started, 1);
    failing.complete(failure("first task failed"));
    for (int i = 0; i < 8; ++i) world.loop().poll();
    EXPECT_EQ(started, 2) << "a failed task's dependents still start (tag order)";
    EXPECT_FALSE(request.done()) << "the second task is still running";
    slow.complete(failure("second task failed too"));
    Status status = request.wait();
    EXPECT_EQ(status.message, "first task failed");
  });
}

}  // namespace
}  // namespace halyard
