#include "runtime/matching_engine.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "runtime/delivery_guard.hpp"
#include "runtime/event_loop.hpp"

namespace halyard {

bool MatchingEngine::matches(const PostedReceive& r, const Envelope& e) {
  if (r.source != kAnySource && r.source != e.source) return false;
  if (r.tag == kAnyTag) return is_user_tag(e.tag);
  return r.tag == e.tag;
}

void MatchingEngine::deliver(IncomingMessage& message, PostedReceive receive) {
  const Envelope env = message.envelope();
  const std::size_t written = std::min<std::uint64_t>(env.size, receive.capacity);
  message.deliver(receive.buffer, receive.capacity,
                  [env, written, capacity = receive.capacity,
                   done = std::move(receive.done)](const Status& transport_status) {
                    Status s = transport_status;
                    s.source = env.source;
                    s.tag = env.tag;
                    s.bytes = written;
                    if (s.code == ErrorCode::kTruncated) {
                      s.message = "message of " + std::to_string(env.size) + " bytes (tag " +
                                  std::to_string(env.tag) +
                                  ") truncated to the receive buffer of " +
                                  std::to_string(capacity) + " bytes";
                    }
                    done(s);
                  });
}

MatchingEngine::ReceiveId MatchingEngine::post(std::uint32_t context, int source, int tag,
                                               void* buffer, std::size_t capacity,
                                               Completion done) {
  ReceiveId id = next_id_++;
  PostedReceive receive{id, source, tag, buffer, capacity, std::move(done)};
  ContextQueues& q = contexts_[context];
  for (auto it = q.unexpected.begin(); it != q.unexpected.end(); ++it) {
    if (!matches(receive, (*it)->envelope())) continue;
    std::shared_ptr<IncomingMessage> message = std::move(*it);
    q.unexpected.erase(it);
    receive.done = keep_alive_until_done(loop_, message, std::move(receive.done));
    deliver(*message, std::move(receive));
    return id;
  }
  q.posted.push_back(std::move(receive));
  posted_context_.emplace(id, context);
  return id;
}

void MatchingEngine::arrive(std::unique_ptr<IncomingMessage> message) {
  const Envelope& env = message->envelope();
  ContextQueues& q = contexts_[env.context];
  for (auto it = q.posted.begin(); it != q.posted.end(); ++it) {
    if (!matches(*it, env)) continue;
    PostedReceive receive = std::move(*it);
    q.posted.erase(it);
    posted_context_.erase(receive.id);
    std::shared_ptr<IncomingMessage> shared = std::move(message);
    receive.done = keep_alive_until_done(loop_, shared, std::move(receive.done));
    // We are inside the transport's progress(): deliver from the loop instead.
    loop_.defer([shared, r = std::move(receive)]() mutable { deliver(*shared, std::move(r)); });
    return;
  }
  q.unexpected.push_back(std::move(message));
}

bool MatchingEngine::cancel(ReceiveId id) {
  auto where = posted_context_.find(id);
  if (where == posted_context_.end()) return false;
  auto& posted = contexts_[where->second].posted;
  posted_context_.erase(where);
  auto it = std::find_if(posted.begin(), posted.end(),
                         [id](const PostedReceive& r) { return r.id == id; });
  if (it == posted.end()) return false;
  posted.erase(it);
  return true;
}

void MatchingEngine::fail_all(const Status& status) {
  std::list<PostedReceive> failed;
  for (auto& [context, q] : contexts_) failed.splice(failed.end(), q.posted);
  posted_context_.clear();
  for (auto& r : failed) r.done(status);
}

std::size_t MatchingEngine::posted_count() const {
  return posted_context_.size();
}

std::size_t MatchingEngine::unexpected_count() const {
  std::size_t n = 0;
  for (const auto& [context, q] : contexts_) n += q.unexpected.size();
  return n;
}

std::size_t MatchingEngine::unexpected_count(std::uint32_t context) const {
  auto it = contexts_.find(context);
  return it == contexts_.end() ? 0 : it->second.unexpected.size();
}

}  // namespace halyard
