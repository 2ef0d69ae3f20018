# Every dependency comes from Debian's packages (scripts/install-deps.sh installs them).
find_package(PkgConfig REQUIRED)
find_package(Threads REQUIRED)
# libfabric: only its headers at build time. The ofi transport loads the library with dlopen
# when a job first needs it (transports/ofi/libfabric_library.hpp says why), so nothing links
# it. The headers come from pkg-config when the -dev package is there, otherwise from
# HALYARD_LIBFABRIC_INCLUDE (a folder holding rdma/fabric.h), which is how the GPU benchmark
# machine (runtime library only) builds.
pkg_check_modules(libfabric QUIET libfabric>=1.17)
add_library(halyard_libfabric INTERFACE)
if(libfabric_FOUND)
  target_include_directories(halyard_libfabric INTERFACE ${libfabric_INCLUDE_DIRS})
else()
  find_path(HALYARD_LIBFABRIC_INCLUDE rdma/fabric.h REQUIRED)
  target_include_directories(halyard_libfabric INTERFACE ${HALYARD_LIBFABRIC_INCLUDE})
  message(STATUS "Halyard: libfabric headers from ${HALYARD_LIBFABRIC_INCLUDE} (no pkg-config file)")
endif()
target_link_libraries(halyard_libfabric INTERFACE ${CMAKE_DL_LIBS})
pkg_check_modules(hwloc REQUIRED IMPORTED_TARGET hwloc>=2.0)
find_package(Boost 1.74 REQUIRED)
find_package(spdlog REQUIRED)
find_package(CLI11 CONFIG REQUIRED)
find_package(nlohmann_json 3 REQUIRED)

# CUDA is optional: AUTO builds the CUDA IPC transport when a toolkit is found.
set(HALYARD_HAVE_CUDA OFF)
if(NOT HALYARD_CUDA STREQUAL "OFF")
  if(NOT CUDAToolkit_ROOT AND EXISTS /usr/local/cuda)
    set(CUDAToolkit_ROOT /usr/local/cuda)
  endif()
  find_package(CUDAToolkit QUIET)
  if(CUDAToolkit_FOUND)
    set(HALYARD_HAVE_CUDA ON)
    # One architecture keeps CI's CUDA compile small: sm_90 (H100/H200), overridable with
    # -DCMAKE_CUDA_ARCHITECTURES=80 (or "80;90", "native").
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
      set(CMAKE_CUDA_ARCHITECTURES 90 CACHE STRING "GPU architectures of the CUDA kernels")
    endif()
    if(NOT CMAKE_CUDA_COMPILER)
      set(CMAKE_CUDA_COMPILER ${CUDAToolkit_NVCC_EXECUTABLE})
    endif()
    enable_language(CUDA)
    # C++17 for the one .cu file (it includes only C++17 headers): CMake 3.25 knows no C++20
    # flag for nvcc, and older toolkits on GPU machines lack it too.
    set(CMAKE_CUDA_STANDARD 17)
    set(CMAKE_CUDA_STANDARD_REQUIRED ON)
  elseif(HALYARD_CUDA STREQUAL "ON")
    message(FATAL_ERROR "HALYARD_CUDA=ON but no CUDA toolkit was found (set CUDAToolkit_ROOT)")
  endif()
endif()
message(STATUS "Halyard: CUDA transport ${HALYARD_HAVE_CUDA}")
