# Sources of collectives/adapt.
target_sources(halyard PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/adapt.cpp
  ${CMAKE_CURRENT_LIST_DIR}/params.cpp
  ${CMAKE_CURRENT_LIST_DIR}/tree.cpp
  ${CMAKE_CURRENT_LIST_DIR}/topo_tree.cpp
  ${CMAKE_CURRENT_LIST_DIR}/bcast_event_driven.cpp
  ${CMAKE_CURRENT_LIST_DIR}/reduce_event_driven.cpp
  ${CMAKE_CURRENT_LIST_DIR}/bcast_sync_variants.cpp
  ${CMAKE_CURRENT_LIST_DIR}/reduce_sync_variants.cpp)
