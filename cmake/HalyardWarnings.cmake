# Warnings are errors for Halyard's own code only; third-party headers come in as SYSTEM.
# -Wnull-dereference is left out: GCC 12 reports false positives with it once code is inlined at
# -O2/-O3 (inside Boost.Asio, CLI11, and memcpy into freshly resized vectors), which would make
# the Release build depend on the optimizer's mood. For the same reason -Wrestrict is turned
# off: at -O3 GCC 12 flags std::string concatenation inside libstdc++ (GCC bug 105329).
function(halyard_project_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX,C>:-Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor
      -Wold-style-cast -Wcast-align -Wunused -Woverloaded-virtual
      -Wdouble-promotion -Wformat=2 -Wno-restrict>)
  if(HALYARD_WERROR)
    # nvcc's -Werror takes an argument: the CUDA kernels get their host warnings only.
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX,C>:-Werror>)
  endif()
  # -Wold-style-cast and -Wnon-virtual-dtor are C++-only.
  target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:C>:-Wno-old-style-cast>)
endfunction()

if(HALYARD_SANITIZE AND HALYARD_TSAN)
  message(FATAL_ERROR "HALYARD_SANITIZE (ASan+UBSan) and HALYARD_TSAN cannot be combined")
endif()
if(HALYARD_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()
if(HALYARD_TSAN)
  # -Wno-tsan: GCC 12 warns that TSan does not model the atomic_thread_fence inside Boost.Asio's
  # fenced blocks; Asio's scheduler also locks a mutex around every handoff, which TSan sees.
  add_compile_options(-fsanitize=thread -fno-omit-frame-pointer -Wno-tsan)
  add_link_options(-fsanitize=thread)
endif()
