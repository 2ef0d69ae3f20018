# One-sided communication (docs/one-sided.md): windows over the runtime's active messages, node
# segments and CMA, for the C++ API and the MPI shim's MPI_Win.
target_sources(halyard PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/window.cpp
  ${CMAKE_CURRENT_LIST_DIR}/window_segment.cpp)
