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
// attach()), so freeing the owner while the call runs only drops the owner's reference. Lookups
// take no lock (a collective looks up its communicator's state on every call): entries are only
// appended, under a mutex, and published by a count; a progress thread may look up while the
// application thread attaches. Each attached object guards its own state.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <memory>
#include <mutex>
#include <typeindex>
#include <typeinfo>

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
    const Entry* entry = entry_of<T>();
    return entry != nullptr ? std::static_pointer_cast<T>(entry->object) : nullptr;
  }
  // The same without a reference: valid while the owner lives (the caller holds it).
  template <class T>
  T* peek() const {
    const Entry* entry = entry_of<T>();
    return entry != nullptr ? static_cast<T*>(entry->object.get()) : nullptr;
  }

  // Attaches `object` as the T unless a T is attached already (another thread won the race, or
  // a nested call attached it first); returns the T that is attached.
  template <class T>
  std::shared_ptr<T> attach(std::shared_ptr<T> object) {
    return std::static_pointer_cast<T>(attach(typeid(T), hash_of<T>(), std::move(object)));
  }

  // Releases every object, newest first. Nobody may look up meanwhile (the owner is going).
  void clear();

  // Types one owner can hold: the layers above attach a handful each.
  static constexpr std::size_t kCapacity = 16;

 private:
  struct Entry {
    const std::type_info* type = nullptr;
    std::size_t hash = 0;  // type->hash_code()
    std::shared_ptr<void> object;
  };

  // T's hash_code(), computed once per T.
  template <class T>
  static std::size_t hash_of() {
    static const std::size_t hash = typeid(T).hash_code();
    return hash;
  }
  // The usual case first: T's type_info object is the one attached (one per type within a
  // library). Otherwise compare hashes before the type_infos, whose operator== compares the
  // mangled names character by character (libstdc++ cannot rely on one type_info object per
  // type across shared libraries): a miss (the MPI shim asks each communicator whether it is an
  // intercommunicator) cost ~20 instructions per entry that way.
  template <class T>
  const Entry* entry_of() const {
    const std::size_t count = count_.load(std::memory_order_acquire);
    for (std::size_t i = 0; i < count; ++i) {
      if (entries_[i].type == &typeid(T)) return &entries_[i];
    }
    return count == 0 ? nullptr : entry_of(typeid(T), hash_of<T>());
  }
  const Entry* entry_of(const std::type_info& type, std::size_t hash) const {
    const std::size_t count = count_.load(std::memory_order_acquire);
    for (std::size_t i = 0; i < count; ++i) {
      const Entry& entry = entries_[i];
      if (entry.hash == hash && *entry.type == type) return &entry;
    }
    return nullptr;
  }
  std::shared_ptr<void> attach(const std::type_info& type, std::size_t hash,
                               std::shared_ptr<void> object);

  std::mutex mutex_;  // serializes writers
  std::array<Entry, kCapacity> entries_;
  std::atomic<std::size_t> count_{0};  // entries published to lock-free readers
};

}  // namespace halyard
