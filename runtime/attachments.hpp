// Attachments: state that the layers above the runtime keep on a runtime object, one object per
// type (Open MPI's collective modules keep their per-communicator data the same way).
//
// The collectives keep state per communicator (HAN's two levels, an intra-node scratch lane) and
// per runtime (the lending queues of the scratch lanes). The runtime cannot name their types
// (layers import only downward), so it holds them type-erased, keyed by type, and releases them
// with their owner: a communicator's when its last handle goes, a runtime's when it tears down.
// Nothing process-wide remains, so a program that makes and frees communicators keeps flat memory.
//
// Objects are shared: a collective in flight holds what it uses (a shared_ptr from find() or
// attach()), so freeing the owner while the call runs only drops the owner's reference. The set
// is guarded by a mutex (a progress thread may look up while the application thread attaches);
// each attached object guards its own state.
#pragma once

#include <memory>
#include <mutex>
#include <typeindex>
#include <utility>
#include <vector>

namespace halyard {

class Attachments {
 public:
  Attachments() = default;
  // Releases the objects newest first, outside the lock (a destructor may free other owners).
  ~Attachments() { clear(); }
  Attachments(const Attachments&) = delete;
  Attachments& operator=(const Attachments&) = delete;

  // The T attached, or null.
  template <class T>
  std::shared_ptr<T> find() const {
    return std::static_pointer_cast<T>(find(typeid(T)));
  }

  // Attaches `object` as the T unless a T is attached already (another thread won the race, or
  // a nested call attached it first); returns the T that is attached.
  template <class T>
  std::shared_ptr<T> attach(std::shared_ptr<T> object) {
    return std::static_pointer_cast<T>(attach(typeid(T), std::move(object)));
  }

  // Releases every object, newest first.
  void clear();

 private:
  std::shared_ptr<void> find(std::type_index type) const;
  std::shared_ptr<void> attach(std::type_index type, std::shared_ptr<void> object);

  mutable std::mutex mutex_;
  // A handful of entries at most: a linear search beats hashing.
  std::vector<std::pair<std::type_index, std::shared_ptr<void>>> entries_;
};

}  // namespace halyard
