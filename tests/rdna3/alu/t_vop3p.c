#include "at.h"
const at_case at_vop3p_cases[] = {
    {NULL, NULL},
};
