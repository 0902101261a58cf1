/* app_golden.h - golden values for the library apps (cublasGemm.cu,
 * cublasLt.cu, curandHost.cu): outputs recorded by running the app on a
 * GPU against NVIDIA's libraries, compared when it runs under warpmem run.
 *
 *   WM_GOLDEN_RECORD=FILE app   writes every checked output to FILE
 *   WM_GOLDEN=FILE app          compares every checked output with FILE's
 *                               (a case FILE lacks counts as wrong)
 *   neither                     only the app's own CPU reference checks
 *
 * FILE is text: "case NAME N" then N lines, each a value in C's %a (exact)
 * or, for integers, 0x%08x.  tools/gpu/libs_golden.sh records them. */
#ifndef APP_GOLDEN_H
#define APP_GOLDEN_H

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

struct Golden {
  FILE *rec = nullptr;
  bool have = false;
  std::map<std::string, std::vector<double>> cases;
};

static Golden &golden() {
  static Golden g;
  static bool opened = false;
  if (opened) return g;
  opened = true;
  if (const char *r = std::getenv("WM_GOLDEN_RECORD")) {
    g.rec = std::fopen(r, "w");
    if (!g.rec) std::fprintf(stderr, "cannot write %s\n", r), std::exit(1);
  }
  if (const char *f = std::getenv("WM_GOLDEN")) {
    FILE *in = std::fopen(f, "r");
    if (!in) std::fprintf(stderr, "cannot read golden file %s\n", f), std::exit(1);
    char name[256];
    long n;
    while (std::fscanf(in, " case %255s %ld", name, &n) == 2) {
      std::vector<double> v((size_t)n);
      char tok[64];
      for (long i = 0; i < n && std::fscanf(in, " %63s", tok) == 1; i++) v[(size_t)i] = std::strtod(tok, nullptr);
      g.cases[name] = v;
    }
    std::fclose(in);
    g.have = true;
  }
  return g;
}

/* Records got[0..n) as case `name`, or compares it with the golden values:
 * |got - golden| <= tol[i] (tol NULL: equal exactly).  `ints`: written as
 * 32-bit hex.  Returns the number of values that differ (all n if the case
 * is missing). */
static long golden_case(const char *name, const double *got, const double *tol, long n, bool ints = false) {
  Golden &g = golden();
  if (g.rec) {
    std::fprintf(g.rec, "case %s %ld\n", name, n);
    for (long i = 0; i < n; i++) {
      if (ints) std::fprintf(g.rec, "0x%08x\n", (unsigned)got[i]);
      else std::fprintf(g.rec, "%a\n", got[i]);
    }
    std::fflush(g.rec);
  }
  if (!g.have) return 0;
  auto it = g.cases.find(name);
  if (it == g.cases.end() || (long)it->second.size() != n) {
    std::printf("golden: case %s missing or of another size\n", name);
    return n;
  }
  long wrong = 0;
  for (long i = 0; i < n; i++) {
    double want = it->second[(size_t)i], d = std::fabs(got[i] - want);
    bool ok = tol ? d <= tol[i] : (got[i] == want || (std::isnan(got[i]) && std::isnan(want)));
    if (!ok && wrong++ < 5)
      std::printf("golden: %s[%ld] = %.9g, the library's %.9g (|diff| %.3g > %.3g)\n", name, i, got[i], want, d,
                  tol ? tol[i] : 0.0);
  }
  return wrong;
}

#endif
