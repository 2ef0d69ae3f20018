# Warnings are errors for Halyard's own code only; third-party headers come in as SYSTEM.
function(halyard_project_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX,C>:-Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor
      -Wold-style-cast -Wcast-align -Wunused -Woverloaded-virtual -Wnull-dereference
      -Wdouble-promotion -Wformat=2 -Werror>)
  # -Wold-style-cast and -Wnon-virtual-dtor are C++-only.
  target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:C>:-Wno-old-style-cast>)
endfunction()

if(HALYARD_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()
