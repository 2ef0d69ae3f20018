# Sources of collectives/shm: the shared-memory collective engine (flags in the node's segment).
target_sources(halyard PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/barrier_order.cpp
  ${CMAKE_CURRENT_LIST_DIR}/call_plan.cpp
  ${CMAKE_CURRENT_LIST_DIR}/catalog.cpp
  ${CMAKE_CURRENT_LIST_DIR}/channel.cpp
  ${CMAKE_CURRENT_LIST_DIR}/channel_binding.cpp
  ${CMAKE_CURRENT_LIST_DIR}/channel_progress.cpp
  ${CMAKE_CURRENT_LIST_DIR}/channel_table.cpp
  ${CMAKE_CURRENT_LIST_DIR}/flag_algorithms.cpp
  ${CMAKE_CURRENT_LIST_DIR}/single_chunk_calls.cpp
  ${CMAKE_CURRENT_LIST_DIR}/alltoallv_stream.cpp)
