#include "at.h"
const at_case at_lane_cases[] = {
    {NULL, NULL},
};
