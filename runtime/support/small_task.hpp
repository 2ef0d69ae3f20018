// SmallTask: a move-only `void()` callable with inline storage, for the event loop's deferred
// callbacks (matched deliveries, request completions, releases of delivered messages).
//
// Big enough for a PostedReceive-sized capture plus a pointer or two (the matching engine's
// deferred delivery), the largest capture on the small-message path; see inline_function.hpp
// for why std::function is not used.
#pragma once

#include "runtime/support/inline_function.hpp"

namespace halyard {

using SmallTask = InlineFunction<void(), 112, false>;

}  // namespace halyard
