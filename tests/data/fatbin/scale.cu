// scale.cu - a second translation unit: a second fat binary in the section
__global__ void scale(double *a, double s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] *= s;
}

void run_scale(double *a, double s, int n) { scale<<<(n + 127) / 128, 128>>>(a, s, n); }
