#include <stddef.h>
#include "amt.h"
const amt_case amt_cases_waitcnt[] = { { NULL, NULL } };
