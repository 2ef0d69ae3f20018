# Sources of the runtime's bootstrap part: what hlaunch tells a rank, the control protocol
# shared with hlaunch's bootstrap server, the client end of it, and the topology table.
target_sources(halyard PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/launch_info.cpp
  ${CMAKE_CURRENT_LIST_DIR}/control_frame.cpp
  ${CMAKE_CURRENT_LIST_DIR}/control_messages.cpp
  ${CMAKE_CURRENT_LIST_DIR}/bootstrap_client_tcp.cpp
  ${CMAKE_CURRENT_LIST_DIR}/topology.cpp
)
# Boost.Asio 1.74's scheduler trips GCC's -Wnull-dereference once inlined at -O2 (a false
# positive inside Asio); the warning stays on for every other file.
set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/bootstrap_client_tcp.cpp TARGET_DIRECTORY halyard
  PROPERTIES COMPILE_OPTIONS -Wno-null-dereference)
