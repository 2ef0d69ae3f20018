# Sources of the runtime's bootstrap part: what hlaunch tells a rank, the control protocol
# shared with hlaunch's bootstrap server, the client end of it, and the topology table.
target_sources(halyard PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/launch_info.cpp
  ${CMAKE_CURRENT_LIST_DIR}/control_frame.cpp
  ${CMAKE_CURRENT_LIST_DIR}/control_messages.cpp
  ${CMAKE_CURRENT_LIST_DIR}/hello_proof.cpp
  ${CMAKE_CURRENT_LIST_DIR}/bootstrap_client_tcp.cpp
  ${CMAKE_CURRENT_LIST_DIR}/topology.cpp
  ${CMAKE_CURRENT_LIST_DIR}/cpu_affinity.cpp
)
