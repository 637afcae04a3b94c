/* Generating code only for the collectives.def rows whose flags name MG_CF_INTERCEPT. The
 * preprocessor cannot test a bit, so a file that includes this header turns the flag into a
 * probe: inside a flags expression it adds a comma and a 1, and MG_IS_INTERCEPT picks the
 * second comma-separated item (that 1, or the 0 it appends itself). Such a file must not need
 * the flag's numeric value afterwards. */
#ifndef MG_PROBE_H
#define MG_PROBE_H

#include "runtime/call.h"

#undef MG_CF_INTERCEPT
#define MG_CF_INTERCEPT       ~, 1,
#define MG_SECOND_(a, b, ...) b
#define MG_SECOND(...)        MG_SECOND_(__VA_ARGS__)
#define MG_IS_INTERCEPT(...)  MG_SECOND(__VA_ARGS__, 0, ~)
#define MG_CAT_(a, b)         a##b
#define MG_CAT(a, b)          MG_CAT_(a, b)
#define MG_IF_1(...)          __VA_ARGS__
#define MG_IF_0(...)
/* MG_WHEN_INTERCEPTED(flags)(code): code for intercepted rows, nothing for the others. */
#define MG_WHEN_INTERCEPTED(...) MG_CAT(MG_IF_, MG_IS_INTERCEPT(__VA_ARGS__))

#endif
