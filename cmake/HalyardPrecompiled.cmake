# HALYARD_PCH precompiles the standard and third-party headers most of a target's sources parse
# (fmt, spdlog, Asio), which cuts 15-30% off each compile. scripts/test.sh turns it on for the
# sanitizer builds only: the normal build and development builds keep compiling every source
# on its own includes, so a missing #include still fails there.
option(HALYARD_PCH "Precompile common headers of the library and the launcher (CI's sanitizer builds)" OFF)

function(halyard_precompile_common target)
  if(NOT HALYARD_PCH)
    return()
  endif()
  target_precompile_headers(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:<algorithm$<ANGLE-R>>
    $<$<COMPILE_LANGUAGE:CXX>:<array$<ANGLE-R>>
    $<$<COMPILE_LANGUAGE:CXX>:<atomic$<ANGLE-R>>
    $<$<COMPILE_LANGUAGE:CXX>:<chrono$<ANGLE-R>>
    $<$<COMPILE_LANGUAGE:CXX>:<deque$<ANGLE-R>>
    $<$<COMPILE_LANGUAGE:CXX>:<functional$<ANGLE-R>>
    $<$<COMPILE_LANGUAGE:CXX>:<map$<ANGLE-R>>
    $<$<COMPILE_LANGUAGE:CXX>:<memory$<ANGLE-R>>
    $<$<COMPILE_LANGUAGE:CXX>:<optional$<ANGLE-R>>
    $<$<COMPILE_LANGUAGE:CXX>:<span$<ANGLE-R>>
    $<$<COMPILE_LANGUAGE:CXX>:<string$<ANGLE-R>>
    $<$<COMPILE_LANGUAGE:CXX>:<string_view$<ANGLE-R>>
    $<$<COMPILE_LANGUAGE:CXX>:<vector$<ANGLE-R>>
    $<$<COMPILE_LANGUAGE:CXX>:<fmt/format.h$<ANGLE-R>>
    $<$<COMPILE_LANGUAGE:CXX>:<spdlog/spdlog.h$<ANGLE-R>>
    $<$<COMPILE_LANGUAGE:CXX>:<boost/asio/io_context.hpp$<ANGLE-R>>)
endfunction()
