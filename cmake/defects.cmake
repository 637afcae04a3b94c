# The defect table (src/defects/known.txt) is compiled into mgpure, and so into the library and
# the tool, as the array mg_defects_known_text: nothing is looked up at run time, so a library
# moved or installed anywhere knows the defects of its own build (docs/defects.md). Editing the
# table rebuilds the array.
set(MG_DEFECTS_TXT ${CMAKE_SOURCE_DIR}/src/defects/known.txt)
set(MG_DEFECTS_C ${CMAKE_BINARY_DIR}/generated/defects_known.c)
add_custom_command(OUTPUT ${MG_DEFECTS_C}
  COMMAND ${CMAKE_COMMAND} -DIN=${MG_DEFECTS_TXT} -DOUT=${MG_DEFECTS_C}
          -DNAME=mg_defects_known_text -P ${CMAKE_SOURCE_DIR}/cmake/embed.cmake
  DEPENDS ${MG_DEFECTS_TXT} ${CMAKE_SOURCE_DIR}/cmake/embed.cmake
  COMMENT "Embedding the defect table src/defects/known.txt")
target_sources(mgpure PRIVATE ${MG_DEFECTS_C})
