/* Prototypes of every algorithm row in algorithms.def (run, need, supports). */
#ifndef MG_ALGORITHMS_H
#define MG_ALGORITHMS_H

#include "runtime/call.h"

#define MG_ALG(ID, name, guideline, declines, flags)                                               \
    int mg_##name(const mg_args *a, const mg_shape *s, const mg_scratch *scratch);                 \
    void mg_##name##_need(const mg_args *a, const mg_shape *s, mg_need *need);                     \
    unsigned mg_##name##_supports(const mg_args *a, const mg_shape *s);
#include "catalog/algorithms.def"
#undef MG_ALG

#endif
