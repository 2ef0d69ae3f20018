# Sources of collectives/device: the GPU-aware bcast, reduce and allreduce inside one node (the
# multi-node staged form is a HAN pipeline: han/device_staged.*). Built in every configuration
# (they include no CUDA header); without CUDA they are never selected.
target_sources(halyard PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/buffer_notice.cpp
  ${CMAKE_CURRENT_LIST_DIR}/device_call.cpp
  ${CMAKE_CURRENT_LIST_DIR}/device_collectives.cpp
  ${CMAKE_CURRENT_LIST_DIR}/device_step_machine.cpp
  ${CMAKE_CURRENT_LIST_DIR}/node_allreduce.cpp
  ${CMAKE_CURRENT_LIST_DIR}/node_copy.cpp
  ${CMAKE_CURRENT_LIST_DIR}/node_reduce.cpp)
