# The surface of libmpiguide: it exports the intercepted MPI entry points and
# the public mpiguide_* API, nothing else. Included after the targets are defined.

# mgpure is linked statically into libmpiguide and into the tool. Hidden, its functions are
# internal to the library: calls between them are direct instead of through the PLT, and a
# preloaded libmpiguide neither takes an application's functions of the same name nor lends
# its own. The tool links its own copy, so it needs nothing of mgpure from the library.
set_target_properties(mgpure PROPERTIES C_VISIBILITY_PRESET hidden)

# The version script states the export list once more at link time, so what a static library
# or a sanitizer adds cannot leak either; tests/install/exports.cmake checks the result.
set(MG_EXPORT_MAP ${CMAKE_CURRENT_LIST_DIR}/libmpiguide.map)
target_link_options(mpiguide PRIVATE "LINKER:--version-script=${MG_EXPORT_MAP}")
set_property(TARGET mpiguide APPEND PROPERTY LINK_DEPENDS ${MG_EXPORT_MAP})
