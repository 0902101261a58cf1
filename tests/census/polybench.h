// polybench.h - the conventions of the PolyBench/GPU kernels: a DATA_TYPE
// chosen at compile time, fixed thread-block shapes, row-major arrays.
#pragma once
#include "census_common.h"

#ifndef DATA_TYPE
#define DATA_TYPE float
#endif
#define DIM_THREAD_BLOCK_X 32
#define DIM_THREAD_BLOCK_Y 8
#define FLOAT_N 3214212.01f
#define EPS 0.005f
#define SQRT_FLT sqrtf
