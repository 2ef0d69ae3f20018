// The job-wide key-value store behind the bootstrap server's put and get.
//
// Pure logic, no sockets: a get of a key nobody has put yet is parked and answered by the put
// that creates the key, which is what lets ranks exchange addresses without polling.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace halyard::launcher {

class KeyValueStore {
 public:
  using GetHandler = std::function<void(const std::string& value)>;

  // Stores the pair and answers every parked get of `key`. Returns false, and changes
  // nothing, when the key already exists: keys are written once so no rank ever reads a value
  // that later changes under it.
  bool put(const std::string& key, std::string value);

  // Calls `handler` with the value now if the key exists, else when it is put.
  void get(const std::string& key, GetHandler handler);

  // Bounds that keep one misbehaving rank from exhausting hlaunch's memory: the store holds at
  // most kMaxBytes of keys and values, and at most kMaxWaitingGets gets wait at once. The
  // server checks them (would_exceed) before it puts or parks anything.
  static constexpr std::size_t kMaxBytes = 256u << 20;
  static constexpr std::size_t kMaxWaitingGets = 1u << 16;
  // Why a put of this pair, or (value empty, `is_get`) a get of this key, would break a bound;
  // empty when it would not.
  std::string would_exceed(const std::string& key, const std::string& value, bool is_get) const;

  std::size_t size() const { return values_.size(); }
  std::size_t bytes() const { return bytes_; }
  // Gets parked until their key appears.
  std::size_t waiting() const { return waiting_; }
  // Forgets every parked get (the job is ending; nobody will answer them).
  void drop_waiters() {
    waiters_.clear();
    waiting_ = 0;
  }

 private:
  std::map<std::string, std::string> values_;
  std::size_t bytes_ = 0;
  std::size_t waiting_ = 0;
  std::map<std::string, std::vector<GetHandler>> waiters_;
};

}  // namespace halyard::launcher
