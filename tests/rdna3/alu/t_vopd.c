#include "at.h"
const at_case at_vopd_cases[] = {
    {NULL, NULL},
};
