// Device printf from many threads (needs the hostcall/printf service). 4 blocks of 64 threads;
// thread g prints one line
//   "g=<g> b=<block> t=<thread> sq=<g*g as unsigned> h=<g in hex> f=<g/4 with two decimals>
//    c=<'A' + g%26> s=<"even"|"odd"> l=<g * 10^10 as long> %"
// and thread 0 also prints "first line: 42 -7 3.500000 x". The program sends its stdout to a
// temporary file while the kernel runs, reads the lines back after hipDeviceSynchronize, and
// checks that each of the 256 thread lines appeared exactly once (in any order) with the right
// values, plus thread 0's extra line. The lines are then echoed, sorted by g.
#include "hip_test.h"
#include <algorithm>
#include <string>
#include <unistd.h>
#include <vector>

__global__ void say(int dummy)
{
  const int g = blockIdx.x * blockDim.x + threadIdx.x;
  const char *parity = (g % 2) ? "odd" : "even";
  printf("g=%d b=%d t=%d sq=%u h=%x f=%.2f c=%c s=%s l=%ld %%\n", g, (int)blockIdx.x, (int)threadIdx.x,
         (unsigned)(g * g), g, g / 4.0, 'A' + g % 26, parity, (long)g * 10000000000L);
  if (g == 0) printf("first line: %d %d %f %c\n", 42 + dummy, -7, 3.5, 'x');
}

static std::string expected_line(int g)
{
  char buf[256];
  snprintf(buf, sizeof buf, "g=%d b=%d t=%d sq=%u h=%x f=%.2f c=%c s=%s l=%ld %%", g, g / 64, g % 64,
           (unsigned)(g * g), g, g / 4.0, 'A' + g % 26, (g % 2) ? "odd" : "even", (long)g * 10000000000L);
  return buf;
}

int main()
{
  const int blocks = 4, block = 64, n = blocks * block;
  fflush(stdout);
  FILE *capture = tmpfile();
  if (!capture) {
    perror("tmpfile");
    return 2;
  }
  int saved = dup(1);
  dup2(fileno(capture), 1);
  say<<<blocks, block>>>(0);
  hipError_t launch = hipGetLastError(), sync = hipDeviceSynchronize();
  fflush(stdout);
  dup2(saved, 1);
  close(saved);
  HIP_CHECK(launch);
  HIP_CHECK(sync);

  rewind(capture);
  std::vector<int> seen(n, 0);
  int first = 0, other = 0;
  std::vector<std::string> lines(n);
  char line[512];
  while (fgets(line, sizeof line, capture)) {
    std::string l(line);
    if (!l.empty() && l.back() == '\n') l.pop_back();
    int g = -1;
    if (sscanf(l.c_str(), "g=%d ", &g) == 1 && g >= 0 && g < n && l == expected_line(g)) {
      seen[g]++;
      lines[g] = l;
    } else if (l == "first line: 42 -7 3.500000 x") {
      first++;
    } else {
      if (other++ < 10) fprintf(stderr, "unexpected line: \"%s\"\n", l.c_str());
    }
  }
  fclose(capture);
  for (int g = 0; g < n; g++)
    EXPECT(seen[g] == 1, "thread %d's line seen %d times (want \"%s\")", g, seen[g], expected_line(g).c_str());
  EXPECT(first == 1, "thread 0's extra line seen %d times", first);
  EXPECT(other == 0, "%d unexpected lines", other);
  for (int g = 0; g < n; g++)
    if (seen[g]) printf("%s\n", lines[g].c_str());
  printf("%d of %d thread lines, %d extra line(s), %d unexpected\n", n - (int)std::count(seen.begin(), seen.end(), 0),
         n, first, other);
  return ht_finish("printf");
}
