# Tests of what a build exports and installs. Included by
# tests/CMakeLists.txt.

# The dynamic symbols of libmpiguide: MPI entry points and mpiguide_* only.
add_test(NAME install.exports
  COMMAND ${CMAKE_COMMAND} -DNM=${CMAKE_NM} -DLIB=$<TARGET_FILE:mpiguide>
          -DHEADER=${CMAKE_SOURCE_DIR}/include/mpiguide.h -P ${CMAKE_CURRENT_LIST_DIR}/exports.cmake)
set_tests_properties(install.exports PROPERTIES LABELS symbols)

# The .deb of this tree, unpacked into a scratch root and used through pkg-config and
# find_package (tests/install/package_test.sh says what is checked).
add_test(NAME install.package
  COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/package_test.sh ${CMAKE_BINARY_DIR} ${MPIGUIDE_MPI}
          ${PROJECT_VERSION} ${CMAKE_INSTALL_LIBDIR} ${CMAKE_CURRENT_BINARY_DIR}/package_test
          ${CMAKE_CPACK_COMMAND} ${CMAKE_COMMAND} ${CMAKE_C_COMPILER} $<TARGET_FILE:mpiguide>
          ${CMAKE_CURRENT_LIST_DIR}/consumer)
set_tests_properties(install.package PROPERTIES LABELS package TIMEOUT 300)
