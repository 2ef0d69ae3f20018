# Sources of collectives/self: the collectives of a one-member communicator (local copies).
target_sources(halyard PRIVATE ${CMAKE_CURRENT_LIST_DIR}/catalog.cpp)
