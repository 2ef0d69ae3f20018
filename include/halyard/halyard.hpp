// Halyard's public C++ API: include this one header.
#pragma once

#include "runtime/support/config.hpp"
#include "runtime/support/error.hpp"

// Runtime core: the runtime object, communicators with point-to-point and active messages,
// requests and the event loop that drives them.
#include "runtime/active_messages.hpp"
#include "runtime/bootstrap/topology.hpp"
#include "runtime/communicator.hpp"
#include "runtime/event_loop.hpp"
#include "runtime/request.hpp"
#include "runtime/runtime.hpp"
#include "runtime/tags.hpp"

// Datatypes, reduction ops and the collectives (bcast, reduce, allreduce, allgather, ...).
#include "collectives/collectives.hpp"
#include "collectives/persistent.hpp"
#include "runtime/datatypes/datatype.hpp"
#include "runtime/datatypes/reduce_op.hpp"

// One-sided communication: windows with put, get, accumulates, fences, locks and flushes.
#include "rma/window.hpp"

// The typed layer over the calls above: spans, deduced datatypes, ops as objects.
#include "halyard/typed.hpp"
