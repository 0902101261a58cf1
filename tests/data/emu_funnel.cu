// Funnel shifts (shf.l/shf.r, .wrap/.clamp): nvcc emits them for rotates
// and __funnelshift_*; tests/test_emu_outputs.c compares with a host reference.
// Regenerate the PTX with:
//   nvcc -ptx -arch=sm_90 -O3 -lineinfo emu_funnel.cu -o emu_funnel.ptx
extern "C" __global__ void funnel(unsigned* out, const unsigned* in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned lo = in[i] * 2654435761u, hi = in[i] ^ 0xdeadbeefu, s = (unsigned)i;
  out[4 * i] = __funnelshift_l(lo, hi, s);
  out[4 * i + 1] = __funnelshift_r(lo, hi, s);
  out[4 * i + 2] = __funnelshift_lc(lo, hi, s);
  out[4 * i + 3] = __funnelshift_rc(lo, hi, s);
}
