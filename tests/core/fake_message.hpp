// An IncomingMessage made by hand, for matching and active-message tests: it carries its
// payload and completes deliver() at once (the engine must not care when).
#pragma once

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "runtime/transport.hpp"

namespace halyard::testing {

class FakeMessage final : public IncomingMessage {
 public:
  FakeMessage(const Envelope& env, std::vector<std::byte> payload, int* deliveries = nullptr)
      : IncomingMessage(env), payload_(std::move(payload)), deliveries_(deliveries) {}

  void deliver(void* dst, std::size_t capacity, Completion done) override {
    if (deliveries_ != nullptr) ++*deliveries_;
    std::size_t n = std::min(capacity, payload_.size());
    if (n > 0) std::memcpy(dst, payload_.data(), n);
    Status s;
    if (capacity < payload_.size()) s = Status::failure(ErrorCode::kTruncated, "truncated");
    s.bytes = n;
    last_destination = dst;
    done(s);
  }
  void* last_destination = nullptr;

 private:
  std::vector<std::byte> payload_;
  int* deliveries_;
};

inline std::vector<std::byte> bytes_of(const std::string& s) {
  std::vector<std::byte> out(s.size());
  if (!s.empty()) std::memcpy(out.data(), s.data(), s.size());
  return out;
}

inline std::unique_ptr<IncomingMessage> fake_message(std::uint32_t context, int source, int tag,
                                                     const std::string& text,
                                                     std::uint32_t flags = 0) {
  Envelope env;
  env.context = context;
  env.source = source;
  env.tag = tag;
  env.flags = flags;
  env.size = text.size();
  return std::make_unique<FakeMessage>(env, bytes_of(text));
}

}  // namespace halyard::testing
