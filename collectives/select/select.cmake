# Sources of collectives/select: the catalog, the names, the choice of one call.
target_sources(halyard PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/catalog.cpp
  ${CMAKE_CURRENT_LIST_DIR}/selected_algorithm.cpp
  ${CMAKE_CURRENT_LIST_DIR}/selection.cpp
  ${CMAKE_CURRENT_LIST_DIR}/tuning_table.cpp
  ${CMAKE_CURRENT_LIST_DIR}/tuning_table_json.cpp)
# The decision table's JSON (tuning_table_json.cpp); header-only, not part of the public headers.
target_link_libraries(halyard PRIVATE nlohmann_json::nlohmann_json)
