// MPI info objects: ordered (key, value) lists, as MPI_Info_get_nthkey numbers them in the order
// the keys were first set. MPI_INFO_ENV is predefined and read-only: it describes how the job
// was started ("command", "argv", "maxprocs", "thread_level", "host").
#pragma once

#include <mpi.h>

#include <string>
#include <utility>
#include <vector>

namespace halyard::mpi_shim {

using InfoEntries = std::vector<std::pair<std::string, std::string>>;

// MPI_ERR_INFO for MPI_INFO_NULL or a handle that names no info object.
const InfoEntries& info_entries(MPI_Info info);
// The same, for a change: MPI_ERR_INFO for MPI_INFO_ENV too.
InfoEntries& modifiable_info_entries(MPI_Info info);
// What a communicator takes from an info argument: nothing from MPI_INFO_NULL.
InfoEntries hints_from(MPI_Info info);
MPI_Info add_info(InfoEntries entries);
// MPI_ERR_INFO for MPI_INFO_NULL, MPI_INFO_ENV and unknown handles.
void free_info(MPI_Info info);

// MPI_ERR_INFO_KEY for a NULL or empty key, or one of MPI_MAX_INFO_KEY characters or more.
std::string checked_info_key(const char* key);
// MPI_ERR_INFO_VALUE for a NULL or empty value, or one of MPI_MAX_INFO_VAL characters or more.
std::string checked_info_value(const char* value);
// The entry of `key`, or null.
const std::string* find_info_value(const InfoEntries& entries, const std::string& key);

}  // namespace halyard::mpi_shim
