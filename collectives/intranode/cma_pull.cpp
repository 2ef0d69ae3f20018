#include "collectives/intranode/cma_pull.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <utility>

namespace halyard::intranode {

namespace {

class CmaPull final : public NoticeMachine {
 public:
  CmaPull(const Communicator& comm, NodeMemory& memory, PullPlan plan, int address_tag,
          int done_tag)
      : NoticeMachine(comm, memory),
        plan_(std::move(plan)),
        address_tag_(address_tag),
        done_tag_(done_tag),
        sources_(plan_.providers.size()) {}

 private:
  struct Source {
    bool known = false;  // its address arrived
    std::uint64_t address = 0;
    std::size_t copied = 0;
    bool done = false;
  };

  void start() override {
    auto provided = reinterpret_cast<std::uintptr_t>(plan_.provided);
    for (int puller : plan_.pullers) {
      notify(puller, address_tag_, provided);
      expect(puller, done_tag_, 1, [this](const Notice&) { ++readers_done_; });
    }
    for (std::size_t i = 0; i < plan_.providers.size(); ++i) {
      expect(plan_.providers[i], address_tag_, 1, [this, i](const Notice& notice) {
        sources_[i].known = true;
        sources_[i].address = notice.first;
      });
    }
  }

  // One chunk of the first block whose address is known; the rest waits for a later pass.
  void advance() override {
    for (std::size_t i = 0; i < sources_.size(); ++i) {
      Source& s = sources_[i];
      if (!s.known || s.done) continue;
      std::size_t n = std::min(kCmaChunkBytes, plan_.bytes - s.copied);
      if (!failed() && n > 0) {
        Status status = memory().read(
            comm().world_rank(plan_.providers[i]),
            reinterpret_cast<const void*>(static_cast<std::uintptr_t>(s.address + s.copied)),
            static_cast<std::byte*>(plan_.destinations[i]) + s.copied, n);
        if (!status.ok()) record_failure(std::move(status));
      }
      s.copied += n;
      if (failed()) s.copied = plan_.bytes;  // stop copying; still play the protocol out
      if (s.copied == plan_.bytes) {
        s.done = true;
        notify(plan_.providers[i], done_tag_);
      }
      schedule();
      return;
    }
  }

  bool finished() const override {
    if (readers_done_ < plan_.pullers.size()) return false;
    return std::all_of(sources_.begin(), sources_.end(), [](const Source& s) { return s.done; });
  }

  PullPlan plan_;
  int address_tag_;
  int done_tag_;
  std::vector<Source> sources_;
  std::size_t readers_done_ = 0;
};

}  // namespace

Request start_cma_pull(const Communicator& comm, NodeMemory& memory, PullPlan plan, int address_tag,
                       int done_tag) {
  return NoticeMachine::launch(
      std::make_shared<CmaPull>(comm, memory, std::move(plan), address_tag, done_tag));
}

}  // namespace halyard::intranode
