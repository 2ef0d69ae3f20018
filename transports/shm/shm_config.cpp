#include "transports/shm/shm_config.hpp"

#include <bit>
#include <string>

#include "runtime/support/config.hpp"
#include "runtime/support/error.hpp"

namespace halyard::shm {
namespace {

std::uint32_t bounded(const char* name, std::int64_t value, std::int64_t low, std::int64_t high,
                      std::int64_t multiple_of) {
  if (value < low || value > high || value % multiple_of != 0) {
    throw Error(ErrorCode::kInvalidArgument,
                std::string(name) + "=" + std::to_string(value) + " is not valid: expected " +
                    std::to_string(low) + ".." + std::to_string(high) +
                    (multiple_of > 1 ? ", a multiple of " + std::to_string(multiple_of) : ""));
  }
  return static_cast<std::uint32_t>(value);
}

// Ring positions map to cells with a mask instead of a division (a 64-bit div cost more than
// the rest of an idle poll pass), so cell counts are powers of two.
std::uint32_t power_of_two(const char* name, std::uint32_t value) {
  if (!std::has_single_bit(value)) {
    throw Error(ErrorCode::kInvalidArgument, std::string(name) + "=" + std::to_string(value) +
                                                 " is not valid: expected a power of two");
  }
  return value;
}

}  // namespace

ShmConfig ShmConfig::from_environment() {
  ShmConfig c;
  c.cell_size =
      bounded("HALYARD_SHM_CELL_SIZE",
              static_cast<std::int64_t>(config::env_bytes("HALYARD_SHM_CELL_SIZE", c.cell_size)),
              128, 1 << 20, 64);
  c.ring_cells =
      power_of_two("HALYARD_SHM_RING_CELLS",
                   bounded("HALYARD_SHM_RING_CELLS",
                           config::env_int("HALYARD_SHM_RING_CELLS", c.ring_cells), 4, 1 << 16, 1));
  c.staging_chunk = bounded(
      "HALYARD_SHM_STAGING_CHUNK",
      static_cast<std::int64_t>(config::env_bytes("HALYARD_SHM_STAGING_CHUNK", c.staging_chunk)),
      4096, 64 << 20, 64);
  c.staging_slots = power_of_two(
      "HALYARD_SHM_STAGING_SLOTS",
      bounded("HALYARD_SHM_STAGING_SLOTS",
              config::env_int("HALYARD_SHM_STAGING_SLOTS", c.staging_slots), 2, 1024, 1));
  c.cma_chunk = config::env_bytes("HALYARD_SHM_CMA_CHUNK", c.cma_chunk);
  if (c.cma_chunk == 0) {
    throw Error(ErrorCode::kInvalidArgument, "HALYARD_SHM_CMA_CHUNK=0 is not valid: expected > 0");
  }
  std::string mode = config::env_choice("HALYARD_SHM_SINGLE_COPY", {"auto", "cma", "none"}, "auto");
  c.single_copy = mode == "cma"    ? SingleCopyMode::kCma
                  : mode == "none" ? SingleCopyMode::kNone
                                   : SingleCopyMode::kAuto;
  const std::string shared =
      config::env_choice("HALYARD_SHM_SHARED_COPY", {"auto", "on", "off"}, "auto");
  c.shared_copy = shared == "on"    ? ShmConfig::SharedCopy::kOn
                  : shared == "off" ? ShmConfig::SharedCopy::kOff
                                    : ShmConfig::SharedCopy::kAuto;
  c.eager_limit = config::env_bytes(
      "HALYARD_SHM_EAGER_LIMIT",
      c.single_copy == SingleCopyMode::kNone ? kEagerLimitStaged : kEagerLimitWithCma);
  return c;
}

}  // namespace halyard::shm
