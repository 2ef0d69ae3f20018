# Neighborhood collectives' engine: one message per topology edge (docs/collectives.md).
target_sources(halyard PRIVATE ${CMAKE_CURRENT_LIST_DIR}/neighbor_exchange.cpp)
