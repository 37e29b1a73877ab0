# Warnings for our own targets only; dependency headers come in as SYSTEM includes
# through their imported targets, so their warnings stay out of our builds.
# Not -Wnull-dereference: with GCC 12 at -O2 it fires inside libstdc++'s streambuf
# (inlined into any istreambuf_iterator use), where it cannot be silenced locally.
function(pivot_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor
      -Wold-style-cast -Wcast-align -Woverloaded-virtual
      -Wdouble-promotion -Wformat=2 -Wimplicit-fallthrough>)
endfunction()
