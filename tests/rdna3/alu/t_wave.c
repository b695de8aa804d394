#include "at.h"
const at_case at_wave_cases[] = {
    {NULL, NULL},
};
