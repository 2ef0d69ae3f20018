# cmake --install: library, headers, tools, a CMake package (find_package(Halyard)) and a
# pkg-config file (pkg-config --cflags --libs halyard).
include(CMakePackageConfigHelpers)

install(TARGETS halyard EXPORT HalyardTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# Headers keep their layer folders under include/halyard/.
foreach(layer runtime transports collectives rma)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${layer}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/halyard/${layer}
          FILES_MATCHING PATTERN "*.hpp")
endforeach()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/halyard/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/halyard)

install(EXPORT HalyardTargets NAMESPACE Halyard:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Halyard)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/HalyardConfig.cmake.in
  ${PROJECT_BINARY_DIR}/HalyardConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Halyard)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/HalyardConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/HalyardConfig.cmake ${PROJECT_BINARY_DIR}/HalyardConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Halyard)

# The .pc file finds the prefix from its own folder (pkg-config's ${pcfiledir}), so a tree
# installed with `--prefix P` and then moved still points at itself.
file(RELATIVE_PATH HALYARD_PC_PREFIX_FROM_PCFILEDIR /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
configure_file(${PROJECT_SOURCE_DIR}/cmake/halyard.pc.in ${PROJECT_BINARY_DIR}/halyard.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/halyard.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
