// project_stencil.cu - a kernel file from a project: it includes the
// project's header (-I tests/corpus/include) and needs the macro the
// project's build defines (-D PROJ_RADIUS=2):
//   warpmem sim tests/corpus/project_stencil.cu -I tests/corpus/include -D PROJ_RADIUS=2
//! nvcc: -I include -D PROJ_RADIUS=2
#include "proj/config.h"

//! group: project_stencil
//! title: a project's kernel file: its header and its -D
//! exp: box_blur
//! title: a box blur of radius PROJ_RADIUS
//@ box_blur grid=4 block=256 args=buf:f32:1000,buf:f32:1000:zero,i32:1000
__global__ void box_blur(const float* __restrict__ in, float* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float s = 0;
#pragma unroll
  for (int d = -proj::radius; d <= proj::radius; d++) s += in[proj::clamp_index(i + d, n)];
  out[i] = s / (2 * proj::radius + 1);
}
