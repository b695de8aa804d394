#include "at.h"
const at_case at_dpp_cases[] = {
    {NULL, NULL},
};
