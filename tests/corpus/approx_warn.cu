// approx_warn.cu - fast-math intrinsics compile to the GPU's hardware
// approximations (ex2.approx, sin.approx, div.full); the emulator computes
// them with the host's libm, so its report names each such instruction
// once, located, as a warning: no approximate result goes unsaid.

//! group: approx_warn
//! title: fast-math intrinsics: the GPU's approximations, named as warnings
//! exp: fast_math
//! title: __expf, __sinf, __fdividef on 64 floats
//@ fast_math grid=1 block=64 args=buf:f32:64,buf:f32:64:zero
__global__ void fast_math(const float* __restrict__ in, float* __restrict__ out) {
  int i = threadIdx.x;
  float x = in[i];
  out[i] = __expf(x) + __sinf(x) + __fdividef(x, 3.0f) + x * 0.5f;
}
