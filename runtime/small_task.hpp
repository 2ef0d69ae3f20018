// SmallTask: a move-only `void()` callable with inline storage.
//
// The event loop defers several callbacks per message (matched deliveries, request
// completions, releases of delivered messages). std::function heap-allocates any capture that
// is not trivially copyable or is over 16 bytes, which on the small-message path made the
// deferred queue one of the main sources of malloc/free per message. SmallTask keeps captures
// up to kInlineSize bytes in place and only falls back to the heap for larger ones.
#pragma once

#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>

namespace halyard {

class SmallTask {
 public:
  // Big enough for a PostedReceive-sized capture plus a shared_ptr (the matching engine's
  // deferred delivery), the largest capture on the small-message path.
  static constexpr std::size_t kInlineSize = 112;

  SmallTask() noexcept = default;

  template <typename F, typename D = std::decay_t<F>,
            typename = std::enable_if_t<!std::is_same_v<D, SmallTask> && std::is_invocable_v<D&>>>
  SmallTask(F&& f) {  // NOLINT(google-explicit-constructor): lambdas convert like std::function
    if constexpr (fits_inline<D>()) {
      ::new (static_cast<void*>(storage_)) D(std::forward<F>(f));
      ops_ = &kInlineOps<D>;
    } else {
      *reinterpret_cast<D**>(storage_) = new D(std::forward<F>(f));
      ops_ = &kHeapOps<D>;
    }
  }

  SmallTask(SmallTask&& other) noexcept : ops_(other.ops_) {
    if (ops_ != nullptr) {
      ops_->move(other.storage_, storage_);
      other.ops_ = nullptr;
    }
  }

  SmallTask& operator=(SmallTask&& other) noexcept {
    if (this != &other) {
      reset();
      ops_ = other.ops_;
      if (ops_ != nullptr) {
        ops_->move(other.storage_, storage_);
        other.ops_ = nullptr;
      }
    }
    return *this;
  }

  SmallTask(const SmallTask&) = delete;
  SmallTask& operator=(const SmallTask&) = delete;
  ~SmallTask() { reset(); }

  explicit operator bool() const noexcept { return ops_ != nullptr; }
  void operator()() { ops_->call(storage_); }

 private:
  struct Ops {
    void (*call)(void* self);
    // Moves the callable from `from` into the empty `to` and destroys what is left in `from`.
    void (*move)(void* from, void* to) noexcept;
    void (*destroy)(void* self) noexcept;
  };

  template <typename D>
  static constexpr bool fits_inline() {
    return sizeof(D) <= kInlineSize && alignof(D) <= alignof(std::max_align_t) &&
           std::is_nothrow_move_constructible_v<D>;
  }

  template <typename D>
  static constexpr Ops kInlineOps{[](void* self) { (*static_cast<D*>(self))(); },
                                  [](void* from, void* to) noexcept {
                                    ::new (to) D(std::move(*static_cast<D*>(from)));
                                    static_cast<D*>(from)->~D();
                                  },
                                  [](void* self) noexcept { static_cast<D*>(self)->~D(); }};

  template <typename D>
  static constexpr Ops kHeapOps{
      [](void* self) { (**static_cast<D**>(self))(); },
      [](void* from, void* to) noexcept { *static_cast<D**>(to) = *static_cast<D**>(from); },
      [](void* self) noexcept { delete *static_cast<D**>(self); }};

  void reset() noexcept {
    if (ops_ != nullptr) {
      ops_->destroy(storage_);
      ops_ = nullptr;
    }
  }

  alignas(std::max_align_t) unsigned char storage_[kInlineSize];
  const Ops* ops_ = nullptr;
};

}  // namespace halyard
