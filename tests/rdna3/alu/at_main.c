/* rdna3_alu_tests <case>: run one case (or every case with no argument). */
#include "at.h"

static const at_case *const tables[] = {
    at_salu_cases, at_vint_cases, at_vf32_cases, at_vf64_cases, at_vf16_cases, at_cvt_cases,
    at_vopc_cases, at_dpp_cases, at_vopd_cases, at_lane_cases, at_vop3p_cases, at_wave_cases, at_wmma_cases,
};

static int run_case(const at_case *c)
{
    at t = {0};
    t.name = c->name;
    at_begin(&t, 32);
    c->fn(&t);
    at_end(&t);
    if (!t.fails) printf("ok %s\n", c->name);
    return t.fails;
}

int main(int argc, char **argv)
{
    int fails = 0, found = 0;
    for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++)
        for (const at_case *c = tables[i]; c->name; c++)
            if (argc < 2 || strcmp(argv[1], c->name) == 0) {
                found++;
                fails += run_case(c);
            }
    if (!found) {
        fprintf(stderr, "no test case named %s\n", argc > 1 ? argv[1] : "");
        return 2;
    }
    return fails ? 1 : 0;
}
