# Sources of collectives/base.
target_sources(halyard PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/allgather.cpp
  ${CMAKE_CURRENT_LIST_DIR}/allgatherv.cpp
  ${CMAKE_CURRENT_LIST_DIR}/allreduce_machine.cpp
  ${CMAKE_CURRENT_LIST_DIR}/allreduce_rabenseifner.cpp
  ${CMAKE_CURRENT_LIST_DIR}/allreduce_recursive_doubling.cpp
  ${CMAKE_CURRENT_LIST_DIR}/allreduce_ring.cpp
  ${CMAKE_CURRENT_LIST_DIR}/alltoall.cpp
  ${CMAKE_CURRENT_LIST_DIR}/alltoallv.cpp
  ${CMAKE_CURRENT_LIST_DIR}/barrier.cpp
  ${CMAKE_CURRENT_LIST_DIR}/bcast.cpp
  ${CMAKE_CURRENT_LIST_DIR}/catalog.cpp
  ${CMAKE_CURRENT_LIST_DIR}/gather_scatter.cpp
  ${CMAKE_CURRENT_LIST_DIR}/gatherv_scatterv.cpp
  ${CMAKE_CURRENT_LIST_DIR}/reduce.cpp
  ${CMAKE_CURRENT_LIST_DIR}/reduce_scatter.cpp
  ${CMAKE_CURRENT_LIST_DIR}/scan.cpp
  ${CMAKE_CURRENT_LIST_DIR}/step_machine.cpp)
