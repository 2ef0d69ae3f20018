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

  std::size_t size() const { return values_.size(); }
  // Gets parked until their key appears.
  std::size_t waiting() const;
  // Forgets every parked get (the job is ending; nobody will answer them).
  void drop_waiters() { waiters_.clear(); }

 private:
  std::map<std::string, std::string> values_;
  std::map<std::string, std::vector<GetHandler>> waiters_;
};

}  // namespace halyard::launcher
