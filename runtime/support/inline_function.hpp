// InlineFunction: a type-erased callable like std::function, with inline storage of a chosen
// size, so that the callbacks of the small-message path never touch the heap.
//
// std::function (libstdc++) keeps a capture in place only when it is trivially copyable and at
// most 16 bytes; every completion that captured a Request, a shared_ptr or another callback
// cost a malloc/free pair per message. Captures up to `InlineSize` bytes (nothrow-movable) stay
// in place here; larger ones fall back to the heap, so nothing is refused.
//
// `Copyable` selects the flavour: copyable (Completion, which callers copy like std::function)
// or move-only (SmallTask, the loop's deferred callbacks, which may capture unique_ptrs).
#pragma once

#include <cstddef>
#include <functional>
#include <new>
#include <type_traits>
#include <utility>

namespace halyard {

template <typename Signature, std::size_t InlineSize, bool Copyable>
class InlineFunction;

template <typename R, typename... Args, std::size_t InlineSize, bool Copyable>
class InlineFunction<R(Args...), InlineSize, Copyable> {
 public:
  static constexpr std::size_t kInlineSize = InlineSize;

  InlineFunction() noexcept = default;
  InlineFunction(std::nullptr_t) noexcept {}  // NOLINT(google-explicit-constructor)

  template <typename F, typename D = std::decay_t<F>,
            typename = std::enable_if_t<!std::is_same_v<D, InlineFunction> &&
                                        std::is_invocable_r_v<R, D&, Args...>>>
  InlineFunction(F&& f) {  // NOLINT(google-explicit-constructor): converts like std::function
    static_assert(!Copyable || std::is_copy_constructible_v<D>,
                  "a copyable InlineFunction needs a copyable callable");
    if constexpr (std::is_pointer_v<D> || std::is_member_pointer_v<D> ||
                  std::is_same_v<D, std::function<R(Args...)>>) {
      if (!f) return;  // a null function pointer or empty std::function stays empty
    }
    if constexpr (fits_inline<D>()) {
      ::new (static_cast<void*>(storage_)) D(std::forward<F>(f));
      ops_ = &kInlineOps<D>;
    } else {
      *reinterpret_cast<D**>(storage_) = new D(std::forward<F>(f));
      ops_ = &kHeapOps<D>;
    }
  }

  InlineFunction(InlineFunction&& other) noexcept { take(other); }
  InlineFunction& operator=(InlineFunction&& other) noexcept {
    if (this != &other) {
      reset();
      take(other);
    }
    return *this;
  }

  InlineFunction(const InlineFunction& other) requires Copyable : ops_(other.ops_) {
    if (ops_ != nullptr) ops_->copy(other.storage_, storage_);
  }
  InlineFunction& operator=(const InlineFunction& other) requires Copyable {
    if (this != &other) {
      InlineFunction copy(other);
      *this = std::move(copy);
    }
    return *this;
  }

  InlineFunction& operator=(std::nullptr_t) noexcept {
    reset();
    return *this;
  }

  ~InlineFunction() { reset(); }

  explicit operator bool() const noexcept { return ops_ != nullptr; }
  friend bool operator==(const InlineFunction& f, std::nullptr_t) noexcept {
    return f.ops_ == nullptr;
  }

  R operator()(Args... args) const {
    if (ops_ == nullptr) throw std::bad_function_call();
    return ops_->call(const_cast<unsigned char*>(storage_), std::forward<Args>(args)...);
  }

 private:
  struct Ops {
    R (*call)(void* self, Args&&... args);
    // Moves the callable from `from` into the empty `to` and destroys what is left in `from`.
    void (*move)(void* from, void* to) noexcept;
    void (*copy)(const void* from, void* to);  // null for the move-only flavour
    void (*destroy)(void* self) noexcept;
  };

  template <typename D>
  static constexpr bool fits_inline() {
    return sizeof(D) <= InlineSize && alignof(D) <= alignof(std::max_align_t) &&
           std::is_nothrow_move_constructible_v<D>;
  }

  template <typename D>
  static constexpr auto copy_inline() {
    if constexpr (Copyable) {
      return +[](const void* from, void* to) { ::new (to) D(*static_cast<const D*>(from)); };
    } else {
      return static_cast<void (*)(const void*, void*)>(nullptr);
    }
  }
  template <typename D>
  static constexpr auto copy_heap() {
    if constexpr (Copyable) {
      return +[](const void* from, void* to) {
        *static_cast<D**>(to) = new D(**static_cast<D* const*>(from));
      };
    } else {
      return static_cast<void (*)(const void*, void*)>(nullptr);
    }
  }

  template <typename D>
  static constexpr Ops kInlineOps{
      [](void* self, Args&&... args) -> R {
        return std::invoke(*static_cast<D*>(self), std::forward<Args>(args)...);
      },
      [](void* from, void* to) noexcept {
        ::new (to) D(std::move(*static_cast<D*>(from)));
        static_cast<D*>(from)->~D();
      },
      copy_inline<D>(), [](void* self) noexcept { static_cast<D*>(self)->~D(); }};

  template <typename D>
  static constexpr Ops kHeapOps{
      [](void* self, Args&&... args) -> R {
        return std::invoke(**static_cast<D**>(self), std::forward<Args>(args)...);
      },
      [](void* from, void* to) noexcept { *static_cast<D**>(to) = *static_cast<D**>(from); },
      copy_heap<D>(), [](void* self) noexcept { delete *static_cast<D**>(self); }};

  void take(InlineFunction& other) noexcept {
    ops_ = other.ops_;
    if (ops_ != nullptr) {
      ops_->move(other.storage_, storage_);
      other.ops_ = nullptr;
    }
  }

  void reset() noexcept {
    if (ops_ != nullptr) {
      const Ops* ops = ops_;
      ops_ = nullptr;
      ops->destroy(storage_);
    }
  }

  alignas(std::max_align_t) unsigned char storage_[InlineSize];
  const Ops* ops_ = nullptr;
};

}  // namespace halyard
