// Inputs and serial references for the collective checks.
//
// Every rank can generate every other rank's input from (rank, seed), so references need no
// communication. Values are chosen so that reductions are exact in every datatype (small
// integers; products of 1s and 2s) regardless of the order an algorithm combines them in; a
// separate "inexact" float mode uses fractional values and is compared with a tolerance.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "runtime/datatypes/datatype.hpp"
#include "runtime/datatypes/reduce_op.hpp"

namespace halyard::testing {

struct ElementCase {
  Datatype type;
  Op op;
  bool exact = true;  // false: fractional float values, compared with a tolerance
};

// The case most checks of data movement use: int32 elements, summed where anything is reduced.
inline constexpr ElementCase kIntSum{Datatype::kInt32, Op::kSum};

std::string case_name(const ElementCase& c);

// `count` elements of rank `rank`'s input; fill_input writes them at `out`.
std::vector<std::byte> make_input(const ElementCase& c, int rank, std::size_t count,
                                  std::uint32_t seed);
void fill_input(const ElementCase& c, int rank, std::size_t count, std::uint32_t seed,
                std::byte* out);

// The reduction over ranks 0 .. size-1 of make_input, in rank order. The _into form reuses
// `out` and `scratch` (resized, so a program that keeps them allocates nothing once warm).
std::vector<std::byte> reference_reduction(const ElementCase& c, int size, std::size_t count,
                                           std::uint32_t seed);
void reference_reduction_into(const ElementCase& c, int size, std::size_t count, std::uint32_t seed,
                              std::vector<std::byte>& out, std::vector<std::byte>& scratch);

// A buffer of `bytes` filled with a junk pattern (so stale data never passes a check); fill_junk
// resizes and fills `out`.
std::vector<std::byte> junk(std::size_t bytes);
void fill_junk(std::vector<std::byte>& out, std::size_t bytes);

// Compares `count` elements; on a mismatch prints rank, what, index, expected and got, and
// exits 1.
void expect_elements(const std::string& what, const ElementCase& c, const void* got,
                     const void* expected, std::size_t count);

// Prints the failure with this rank's number and exits 1.
[[noreturn]] void fail(const std::string& what);
void set_failure_context(int rank, std::string program);

// FNV-1a over bytes: lets ranks compare whole results cheaply.
std::uint64_t fingerprint(const void* data, std::size_t bytes);

}  // namespace halyard::testing
