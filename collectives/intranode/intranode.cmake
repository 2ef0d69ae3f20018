# Sources of collectives/intranode: the intra-node primitives over node memory (HAN's submodules,
# and catalog entries of their own for communicators on one node).
target_sources(halyard PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/catalog.cpp
  ${CMAKE_CURRENT_LIST_DIR}/cma_pull.cpp
  ${CMAKE_CURRENT_LIST_DIR}/cma_slice_reduce.cpp
  ${CMAKE_CURRENT_LIST_DIR}/intranode.cpp
  ${CMAKE_CURRENT_LIST_DIR}/notice_machine.cpp
  ${CMAKE_CURRENT_LIST_DIR}/scratch_exchange.cpp
  ${CMAKE_CURRENT_LIST_DIR}/slot_lanes.cpp)
