# Sources of the runtime's datatypes part: datatypes, ops, and the CPU reduction kernels.
target_sources(halyard PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/buffer_layout.cpp
  ${CMAKE_CURRENT_LIST_DIR}/custom_op.cpp
  ${CMAKE_CURRENT_LIST_DIR}/datatype.cpp
  ${CMAKE_CURRENT_LIST_DIR}/reduce_op.cpp
  ${CMAKE_CURRENT_LIST_DIR}/reduction.cpp
  ${CMAKE_CURRENT_LIST_DIR}/reduction_isa.cpp
  ${CMAKE_CURRENT_LIST_DIR}/kernels/reduction_scalar.cpp
)

# The kernel loops rely on auto-vectorization. GCC's -O2 uses the "very cheap" cost model, which
# refuses loops whose trip count is unknown (they need a remainder loop), so ask for the dynamic
# model explicitly. -fno-trapping-math lets it if-convert the float selects of the branch-free
# float16 conversions (reductions make no promise about floating-point exception flags; results
# and rounding are unchanged). Source properties must be set in the scope of the directory that created
# the `halyard` target, hence TARGET_DIRECTORY.
set(halyard_vectorize_flags -ftree-vectorize -fvect-cost-model=dynamic -fno-trapping-math)
set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/kernels/reduction_scalar.cpp
  TARGET_DIRECTORY halyard PROPERTIES COMPILE_OPTIONS "${halyard_vectorize_flags}")

# Per-ISA kernels exist on x86-64 only; elsewhere the portable ones serve alone. Each file is
# compiled with its own target flags and only called after a CPU check (reduction_isa.cpp).
if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
  target_sources(halyard PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/kernels/reduction_avx2.cpp
    ${CMAKE_CURRENT_LIST_DIR}/kernels/reduction_avx512.cpp)
  set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/kernels/reduction_avx2.cpp
    TARGET_DIRECTORY halyard PROPERTIES
    COMPILE_OPTIONS "${halyard_vectorize_flags};-mavx2;-mfma;-mf16c")
  set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/kernels/reduction_avx512.cpp
    TARGET_DIRECTORY halyard PROPERTIES
    COMPILE_OPTIONS
      "${halyard_vectorize_flags};-mavx2;-mfma;-mf16c;-mavx512f;-mavx512bw;-mavx512dq;-mavx512vl")
  set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/reduction_isa.cpp
    TARGET_DIRECTORY halyard PROPERTIES COMPILE_DEFINITIONS HALYARD_REDUCTION_X86=1)
endif()
