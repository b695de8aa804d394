#include "at.h"
const at_case at_vf64_cases[] = {
    {NULL, NULL},
};
