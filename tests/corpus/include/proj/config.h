// proj/config.h - a project header, as a kernel file of a real project
// includes it: found with -I tests/corpus/include, and configured by a
// macro its build defines (-D PROJ_RADIUS=N).
#ifndef PROJ_CONFIG_H
#define PROJ_CONFIG_H

#ifndef PROJ_RADIUS
#error "PROJ_RADIUS is not defined: build with -D PROJ_RADIUS=N, as the project's Makefile does"
#endif

namespace proj {
constexpr int radius = PROJ_RADIUS;

__device__ __forceinline__ int clamp_index(int i, int n) { return i < 0 ? 0 : i >= n ? n - 1 : i; }
}  // namespace proj

#endif
