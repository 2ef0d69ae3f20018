# Sources of the runtime's core part: event loop, requests, matching, point-to-point, active
# messages, routing, communicators and the Runtime object.
target_sources(halyard PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/active_messages.cpp
  ${CMAKE_CURRENT_LIST_DIR}/attachments.cpp
  ${CMAKE_CURRENT_LIST_DIR}/collective_watchdog.cpp
  ${CMAKE_CURRENT_LIST_DIR}/communicator.cpp
  ${CMAKE_CURRENT_LIST_DIR}/device_support.cpp
  ${CMAKE_CURRENT_LIST_DIR}/event_loop.cpp
  ${CMAKE_CURRENT_LIST_DIR}/flight_recorder.cpp
  ${CMAKE_CURRENT_LIST_DIR}/loop_lock.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sleep_on_fds.cpp
  ${CMAKE_CURRENT_LIST_DIR}/matching_engine.cpp
  ${CMAKE_CURRENT_LIST_DIR}/node_memory.cpp
  ${CMAKE_CURRENT_LIST_DIR}/remote_memory.cpp
  ${CMAKE_CURRENT_LIST_DIR}/notice_inbox.cpp
  ${CMAKE_CURRENT_LIST_DIR}/point_to_point.cpp
  ${CMAKE_CURRENT_LIST_DIR}/progress_thread.cpp
  ${CMAKE_CURRENT_LIST_DIR}/request.cpp
  ${CMAKE_CURRENT_LIST_DIR}/router.cpp
  ${CMAKE_CURRENT_LIST_DIR}/runtime.cpp
  ${CMAKE_CURRENT_LIST_DIR}/self_transport.cpp
  ${CMAKE_CURRENT_LIST_DIR}/transport_registry.cpp
  ${CMAKE_CURRENT_LIST_DIR}/tuning_file_share.cpp
)
