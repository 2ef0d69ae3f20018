#include "collectives/select/catalog.hpp"

#include <array>
#include <vector>

#include "collectives/adapt/adapt.hpp"
#include "collectives/base/base.hpp"
#include "collectives/device/device_collectives.hpp"
#include "collectives/han/han.hpp"
#include "collectives/intranode/intranode.hpp"
#include "collectives/self/self.hpp"
#include "collectives/shm/shm.hpp"

namespace halyard::select {

namespace {

struct Catalog {
  std::vector<core::AlgorithmEntry> entries;
  // [collective][algorithm]: the first entry (adapt's trees share one post()).
  std::array<std::array<const core::AlgorithmEntry*, core::kAlgorithmCount>, core::kCollectiveCount>
      index{};

  Catalog() {
    for (core::AlgorithmTable table :
         {base::algorithms(), adapt::algorithms(), intranode::algorithms(), shm::algorithms(),
          han::algorithms(), device::algorithms(), self::algorithms()}) {
      entries.insert(entries.end(), table.begin(), table.end());
    }
    for (const core::AlgorithmEntry& entry : entries) {
      const core::AlgorithmEntry*& slot = index[static_cast<std::size_t>(entry.collective)]
                                               [static_cast<std::size_t>(entry.algorithm)];
      if (slot == nullptr) slot = &entry;
    }
  }
};

const Catalog& the_catalog() {
  static const Catalog catalog;
  return catalog;
}

}  // namespace

std::span<const core::AlgorithmEntry> catalog() {
  return the_catalog().entries;
}

const core::AlgorithmEntry* entry_for(core::Collective collective, core::Algorithm algorithm) {
  return the_catalog()
      .index[static_cast<std::size_t>(collective)][static_cast<std::size_t>(algorithm)];
}

const core::AlgorithmEntry* entry_for_memory(core::Collective collective, MemoryKind memory,
                                             const core::CommShape& shape) {
  for (const core::AlgorithmEntry& entry : catalog()) {
    if (entry.collective == collective && entry.supports.memory == memory &&
        entry.supports.fits(shape)) {
      return &entry;
    }
  }
  return nullptr;
}

}  // namespace halyard::select
