// The texture unit's linear-filtering weights, measured: a 2-texel 1D
// texture holding 0 and 1 (iota), sampled at x = 0.5 + k/4096 (unnormalized
// coordinates) for k = 0..4095: each result is the weight of the second
// texel.  Run on a GPU with `warpmem gpu run tools/gpu/tex_weight_probe.cu
// --check --no-time`; the kernel prints "k weight*65536" per lane, which
// docs/results/h100-2026-11-23-corpus/tex-weights.txt keeps.
#include <cstdio>
//@ tex_weights grid=16 block=256 args=tex:f32:2:linear:clamp:iota,buf:f32:4096:zero
__global__ void tex_weights(cudaTextureObject_t t, float *out) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  float x = 0.5f + k / 4096.0f;
  float w = tex1D<float>(t, x);
  out[k] = w;
  if (k % 16 == 0 || (k % 16 == 8)) printf("%d %.1f\n", k, w * 65536.0f);
}
