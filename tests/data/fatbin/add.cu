// add.cu - the kernel of the fat binary fixtures (tools/make_fatbin_fixtures.sh)
__global__ void add(float *a, const float *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] += b[i];
}

void run_add(float *a, const float *b, int n) { add<<<(n + 127) / 128, 128>>>(a, b, n); }
