# libFuzzer builds of the profile, config and record parsers (clang -fsanitize=fuzzer), when clang can
# build one; `ctest -L fuzz` runs each for a few seconds on a scratch copy of the corpus. The
# committed corpus is replayed in every build by the unit test test_fuzz_corpus.
find_program(MG_CLANG NAMES clang clang-16 clang-15 clang-14)
if(MG_CLANG AND NOT DEFINED MG_FUZZ_WORKS)
  file(WRITE ${CMAKE_BINARY_DIR}/fuzzcheck.c
    "#include <stdint.h>\n#include <stddef.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n")
  execute_process(COMMAND ${MG_CLANG} -fsanitize=fuzzer,address ${CMAKE_BINARY_DIR}/fuzzcheck.c
                  -o ${CMAKE_BINARY_DIR}/fuzzcheck RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
  if(rc EQUAL 0)
    set(MG_FUZZ_WORKS ON CACHE INTERNAL "clang builds libFuzzer targets")
  else()
    set(MG_FUZZ_WORKS OFF CACHE INTERNAL "clang builds libFuzzer targets")
  endif()
endif()

if(MG_FUZZ_WORKS)
  set(MG_FUZZ_FLAGS -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
      -I${CMAKE_SOURCE_DIR}/src -I${CMAKE_SOURCE_DIR}/include)
  set(MG_FUZZ_PURE ${CMAKE_SOURCE_DIR}/src/profile/parse.c
      ${CMAKE_SOURCE_DIR}/src/profile/load.c ${CMAKE_SOURCE_DIR}/src/profile/seltab.c
      ${CMAKE_SOURCE_DIR}/src/catalog/catalog.c ${CMAKE_SOURCE_DIR}/src/util/file.c
      ${CMAKE_SOURCE_DIR}/src/util/sbuf.c
      ${CMAKE_SOURCE_DIR}/src/config/config.c ${CMAKE_SOURCE_DIR}/src/record/parse.c
      ${CMAKE_SOURCE_DIR}/src/record/write.c ${CMAKE_SOURCE_DIR}/src/record/rows.c
      ${CMAKE_SOURCE_DIR}/src/model/problems.c
      ${CMAKE_SOURCE_DIR}/src/algid/algid.c ${CMAKE_SOURCE_DIR}/src/export/json.c
      ${CMAKE_SOURCE_DIR}/src/export/tuning_files.c)
  foreach(target profile config record json)
    set(out ${CMAKE_BINARY_DIR}/bin/fuzz_${target})
    add_custom_command(OUTPUT ${out}
      COMMAND ${MG_CLANG} ${MG_FUZZ_FLAGS} ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_${target}.c
              ${MG_FUZZ_PURE} -o ${out}
      DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_${target}.c ${MG_FUZZ_PURE}
              ${CMAKE_SOURCE_DIR}/src/profile/profile.h ${CMAKE_SOURCE_DIR}/src/profile/seltab.h
              ${CMAKE_SOURCE_DIR}/src/record/record.h
      COMMENT "libFuzzer harness fuzz_${target}")
    add_custom_target(fuzz_${target} ALL DEPENDS ${out})
    add_test(NAME fuzz.${target}
      COMMAND sh -c "d=$(mktemp -d) && ${out} -max_total_time=8 -rss_limit_mb=1024 $d ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/corpus/${target} >$d.log 2>&1; rc=$?; tail -3 $d.log; rm -rf $d $d.log; exit $rc")
    set_tests_properties(fuzz.${target} PROPERTIES LABELS fuzz TIMEOUT 120)
  endforeach()
endif()
