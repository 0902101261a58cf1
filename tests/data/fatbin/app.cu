// app.cu - main of the fixture application: host code only
void run_add(float *a, const float *b, int n);
void run_scale(double *a, double s, int n);

int main() {
  float *a;
  if (cudaMalloc(&a, 1024 * sizeof(double)) != cudaSuccess) return 1;
  run_add(a, a, 1024);
  run_scale((double *)a, 2.0, 1024);
  return cudaDeviceSynchronize() != cudaSuccess;
}
