// `hlaunch --info`: what this host offers a Halyard job, found at run time: the transports
// built in, libfabric's version and RDM providers with the features Halyard uses or could use
// (RMA reads, triggered operations with counters, atomics, device memory), whether the kernel
// lets ranks use CMA single copies, and the progress-thread setting. Like `ompi_info` or
// `fi_info`, it starts no job.
#pragma once

#include <string>

namespace halyard::launcher {

// The report, several lines ending in '\n'.
std::string system_info_text();

}  // namespace halyard::launcher
