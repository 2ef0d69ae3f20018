// Halyard's typed C++20 API (included by halyard/halyard.hpp): the collectives on spans and
// contiguous ranges with the Datatype deduced from the element type, ops as objects
// (halyard::sum, ..., or any function object), in-place, non-blocking and persistent forms, and
// one-sided put / get / accumulates on windows. See docs/cpp-api.md.
#pragma once

#include "halyard/typed/collectives.hpp"
#include "halyard/typed/element_types.hpp"
#include "halyard/typed/ops.hpp"
#include "halyard/typed/persistent.hpp"
#include "halyard/typed/window.hpp"
