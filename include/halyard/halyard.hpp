// Halyard's public C++ API: include this one header.
#pragma once

#include "runtime/error.hpp"
#include "runtime/config.hpp"
