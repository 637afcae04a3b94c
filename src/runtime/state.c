/* The state of runtime/state.h: filled by start-up (src/startup/), read by every layer above. */
#include "state.h"

mg_config mg_cfg;
mg_runtime mg_rt;
