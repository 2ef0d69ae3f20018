// Checks of HAN's shape and of its barrier that need no data reference.
#pragma once

#include "halyard/halyard.hpp"

namespace halyard::testing {

// HAN's leaders on `world`: one per node (HALYARD_HAN_LEADERS unset or node), or one per NUMA
// domain (numa: the topology's domains, or HALYARD_HAN_TEST_NUMA_DOMAINS=k domains per node,
// rank i of a node in domain i % k). Counts them over all ranks and compares with what the
// topology table says; also checks every rank's leader is on its node. Exits 1 on a mismatch.
void check_leader_count(const Communicator& world);

// Every rank creates a file, enters the barrier, and on leaving checks every other rank's file
// exists: a rank that left before all entered would miss one. Some ranks are slowed down in each
// round so that an early exit would show. Files live in a fresh directory under /tmp.
void check_barrier_waits_for_everyone(const Communicator& world);

}  // namespace halyard::testing
