# cmake -DIN=FILE -DOUT=FILE.c -DNAME=symbol -P embed.cmake: writes FILE's bytes as a C array
# `const char NAME[]` ending in a NUL, so a data file (the defect table) is built into the
# library instead of being looked up at run time.
file(READ ${IN} hex HEX)
string(LENGTH "${hex}" n)
set(body "")
set(line "")
set(i 0)
while(i LESS n)
  string(SUBSTRING "${hex}" ${i} 2 byte)
  string(APPEND line "0x${byte},")
  math(EXPR i "${i} + 2")
  math(EXPR col "${i} % 32")
  if(col EQUAL 0)
    string(APPEND body "    ${line}\n")
    set(line "")
  endif()
endwhile()
string(APPEND body "    ${line}0x00\n")
get_filename_component(src ${IN} NAME)
file(WRITE ${OUT}.tmp "/* Generated from ${src} by cmake/embed.cmake; do not edit. */\nconst char ${NAME}[] = {\n${body}};\n")
configure_file(${OUT}.tmp ${OUT} COPYONLY) # rewritten only when it differs
file(REMOVE ${OUT}.tmp)
