# halyard_bench_cuda: the GPU-aware collectives on device buffers (issue 10's figures). Built
# when the CUDA transport is; run by bench/device_run.sh's "cuda" part on the GPU machine.
if(HALYARD_HAVE_CUDA)
  add_executable(halyard_bench_cuda ${CMAKE_CURRENT_LIST_DIR}/cuda_collectives.cpp)
  target_link_libraries(halyard_bench_cuda PRIVATE halyard CUDA::cudart)
  halyard_project_warnings(halyard_bench_cuda)
  set_target_properties(halyard_bench_cuda PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bin)
endif()
