# Sources of the runtime's support wing: errors and statuses, HALYARD_* configuration, logging,
# where host memory certainly lies, Cross-Memory Attach copies (the shm transport's and the
# windows'), copies that avoid memcpy's page-offset aliasing, random bytes and SHA-256 for the bootstrap's secrets, and the
# per-thread pool of scratch buffers the collectives reuse.
target_sources(halyard PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/cma_copy.cpp
  ${CMAKE_CURRENT_LIST_DIR}/copy_bytes.cpp
  ${CMAKE_CURRENT_LIST_DIR}/error.cpp
  ${CMAKE_CURRENT_LIST_DIR}/host_memory.cpp
  ${CMAKE_CURRENT_LIST_DIR}/config.cpp
  ${CMAKE_CURRENT_LIST_DIR}/log.cpp
  ${CMAKE_CURRENT_LIST_DIR}/random_bytes.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sha256.cpp
  ${CMAKE_CURRENT_LIST_DIR}/scratch_pool.cpp
)
