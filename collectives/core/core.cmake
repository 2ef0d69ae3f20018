# Sources of collectives/core: the call descriptor and its validation, the engine contract, tags,
# the vocabulary and the catalog type every family and the selection share.
target_sources(halyard PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/collective_engine.cpp
  ${CMAKE_CURRENT_LIST_DIR}/collective_tag.cpp
  ${CMAKE_CURRENT_LIST_DIR}/comm_shape.cpp
  ${CMAKE_CURRENT_LIST_DIR}/memory_kind.cpp
  ${CMAKE_CURRENT_LIST_DIR}/tree_shape.cpp
  ${CMAKE_CURRENT_LIST_DIR}/validate.cpp
  ${CMAKE_CURRENT_LIST_DIR}/vocabulary.cpp)
