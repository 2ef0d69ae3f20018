# Sources of collectives/han: hierarchical task pipelines over node and leader communicators, on
# host buffers and (device_staged.cpp) on device buffers over the device family's node operations.
target_sources(halyard PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/allgather.cpp
  ${CMAKE_CURRENT_LIST_DIR}/allreduce.cpp
  ${CMAKE_CURRENT_LIST_DIR}/barrier.cpp
  ${CMAKE_CURRENT_LIST_DIR}/bcast.cpp
  ${CMAKE_CURRENT_LIST_DIR}/catalog.cpp
  ${CMAKE_CURRENT_LIST_DIR}/device_staged.cpp
  ${CMAKE_CURRENT_LIST_DIR}/han_config.cpp
  ${CMAKE_CURRENT_LIST_DIR}/hierarchy.cpp
  ${CMAKE_CURRENT_LIST_DIR}/reduce.cpp
  ${CMAKE_CURRENT_LIST_DIR}/stages.cpp
  ${CMAKE_CURRENT_LIST_DIR}/submodules.cpp
  ${CMAKE_CURRENT_LIST_DIR}/task_pipeline.cpp)
