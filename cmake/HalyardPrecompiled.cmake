# HALYARD_PCH precompiles the standard and third-party headers most of a target's sources parse
# (fmt, spdlog, Asio), which cuts 15-30% off each compile. scripts/test.sh turns it on for the
# sanitizer builds only: the normal build and development builds keep compiling every source
# on its own includes, so a missing #include still fails there.
option(HALYARD_PCH "Precompile common headers of the library and the launcher (CI's sanitizer builds)" OFF)

set(HALYARD_PCH_HEADERS
    algorithm array atomic chrono deque functional map memory optional span string string_view
    vector fmt/format.h spdlog/spdlog.h boost/asio/io_context.hpp)

function(halyard_precompile_common target)
  if(NOT HALYARD_PCH)
    return()
  endif()
  # C++ sources only (the library has C ones): <header> in a generator expression for each.
  set(headers)
  foreach(header IN LISTS HALYARD_PCH_HEADERS)
    list(APPEND headers "$<$<COMPILE_LANGUAGE:CXX>:<${header}$<ANGLE-R>>")
  endforeach()
  target_precompile_headers(${target} PRIVATE ${headers})
endfunction()
