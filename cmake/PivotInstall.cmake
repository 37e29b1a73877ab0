# `cmake --install BUILD [--prefix DIR]`: the public headers, libpivot, the `pivot` program
# and a CMake package, so another project finds the library with find_package(pivot) and
# links pivot::pivot (docs/library.md; examples/cpp/ is such a project).
include(CMakePackageConfigHelpers)

set(PIVOT_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/pivot)

# A sanitized libpivot needs the sanitizer runtimes in whatever links it.
if(PIVOT_SANITIZE)
  target_link_options(pivot INTERFACE $<INSTALL_INTERFACE:-fsanitize=address,undefined>)
endif()

install(TARGETS pivot EXPORT pivotTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/pivot DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS pivot_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(EXPORT pivotTargets NAMESPACE pivot:: DESTINATION ${PIVOT_INSTALL_CMAKEDIR})

# A static libpivot carries its private link dependencies (FCL, libccd) to the consumer's
# link line; the package config finds them only then.
get_target_property(PIVOT_LIBRARY_TYPE pivot TYPE)
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/pivotConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/pivotConfig.cmake
                              INSTALL_DESTINATION ${PIVOT_INSTALL_CMAKEDIR})
# 0.x: a minor version may break the API, so only the same minor version is compatible.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/pivotConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/pivotConfig.cmake ${PROJECT_BINARY_DIR}/pivotConfigVersion.cmake
        DESTINATION ${PIVOT_INSTALL_CMAKEDIR})
