#include "at.h"
const at_case at_vopc_cases[] = {
    {NULL, NULL},
};
