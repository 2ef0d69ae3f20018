# Sources of collectives/select, and the public collective API it stands behind.
target_sources(halyard PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/adapt_dispatch.cpp
  ${CMAKE_CURRENT_LIST_DIR}/comm_shape.cpp
  ${CMAKE_CURRENT_LIST_DIR}/device_path.cpp
  ${CMAKE_CURRENT_LIST_DIR}/selected_algorithm.cpp
  ${CMAKE_CURRENT_LIST_DIR}/selection.cpp
  ${CMAKE_CURRENT_LIST_DIR}/tuning_table.cpp
  ${CMAKE_CURRENT_LIST_DIR}/tuning_table_json.cpp
  ${CMAKE_CURRENT_LIST_DIR}/../collectives.cpp)
# The decision table's JSON (tuning_table_json.cpp); header-only, not part of the public headers.
target_link_libraries(halyard PRIVATE nlohmann_json::nlohmann_json)
