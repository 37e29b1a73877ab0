# Included before project() by run_flavour_test.sh: configuring fails as soon as the build
# asks for something only `scripts/install-deps.sh --test` installs, as it would on a
# machine that ran only the README's first command.
set(CMAKE_DISABLE_FIND_PACKAGE_GTest TRUE)
set(CMAKE_DISABLE_FIND_PACKAGE_benchmark TRUE)
function(find_program)
  foreach(name xvfb-run ffmpeg ffprobe clang-14 clang++-14)
    if(name IN_LIST ARGN)
      message(FATAL_ERROR "looks for the test-only program ${name}")
    endif()
  endforeach()
  _find_program(${ARGV})
endfunction()
