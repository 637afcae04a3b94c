# The version lives in one place, MPIGUIDE_VERSION in include/mpiguide.h, because programs built
# against the installed header see that macro; project(), the pkg-config file, the CMake package
# version file and the .deb all take it from here. Included before project().
file(STRINGS "${CMAKE_CURRENT_LIST_DIR}/../include/mpiguide.h" mg_version_lines
  REGEX "^#define MPIGUIDE_VERSION ")
if(NOT mg_version_lines MATCHES "^#define MPIGUIDE_VERSION \"([0-9]+\\.[0-9]+\\.[0-9]+)\"$")
  # one line, MAJOR.MINOR.PATCH: project(VERSION) and the .deb version need exactly that
  message(FATAL_ERROR "include/mpiguide.h: expected one line `#define MPIGUIDE_VERSION \"X.Y.Z\"`, "
    "found: ${mg_version_lines}")
endif()
set(MPIGUIDE_HEADER_VERSION "${CMAKE_MATCH_1}")
