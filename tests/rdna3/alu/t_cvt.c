#include "at.h"
const at_case at_cvt_cases[] = {
    {NULL, NULL},
};
