# Sources of collectives/guard: the checks around every public collective call.
target_sources(halyard PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/call_guard.cpp
  ${CMAKE_CURRENT_LIST_DIR}/call_record.cpp
  ${CMAKE_CURRENT_LIST_DIR}/call_signature.cpp
  ${CMAKE_CURRENT_LIST_DIR}/signature_check.cpp)
