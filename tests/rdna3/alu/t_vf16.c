#include "at.h"
const at_case at_vf16_cases[] = {
    {NULL, NULL},
};
