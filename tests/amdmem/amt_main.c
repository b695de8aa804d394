/* Runs one named case (or, with no argument, every case) of the amdmem suites. */
#include <stdio.h>
#include <string.h>

#include "amt.h"

extern const amt_case amt_cases_pure[], amt_cases_vmem[], amt_cases_buf[], amt_cases_waitcnt[], amt_cases_rules[], amt_cases_image[], amt_cases_image_exec[];

int main(int argc, char **argv)
{
    const amt_case *suites[] = { amt_cases_pure, amt_cases_vmem, amt_cases_buf, amt_cases_waitcnt, amt_cases_rules, amt_cases_image, amt_cases_image_exec };
    int fails = 0, found = 0;
    for (unsigned s = 0; s < sizeof suites / sizeof suites[0]; s++) {
        for (const amt_case *c = suites[s]; c->name; c++) {
            if (argc > 1 && strcmp(argv[1], c->name) != 0) continue;
            amt t = { 0 };
            t.name = c->name;
            c->fn(&t);
            amt_end(&t);
            found++;
            if (t.fails) fails++;
            else if (argc > 1) printf("ok %s\n", c->name);
        }
    }
    if (!found) {
        fprintf(stderr, "no test case named %s\n", argc > 1 ? argv[1] : "");
        return 2;
    }
    if (argc == 1) printf("%d cases, %d failed\n", found, fails);
    return fails ? 1 : 0;
}
