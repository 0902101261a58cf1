/* thrustSort - thrust::sort of 100,000 unsigned keys and of 100,000 floats:
 * CUB's radix sort (histogram, exclusive sum and onesweep kernels: bmsk,
 * szext, decoupled look-back between blocks) and Thrust's fill, as a user
 * builds it: nvcc's defaults, the static runtime.  Checked against
 * std::sort; passes natively on a GPU and under warpmem run. */
#include <algorithm>
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/sort.h>

#include "app_util.h"

int main() {
  const int n = 100000;
  thrust::host_vector<unsigned> keys(n);
  unsigned seed = 1;
  for (int i = 0; i < n; i++) keys[i] = seed = seed * 1664525u + 1013904223u;
  thrust::device_vector<unsigned> d = keys;
  thrust::sort(d.begin(), d.end());
  thrust::host_vector<unsigned> got = d;
  std::sort(keys.begin(), keys.end());
  long wrong = 0;
  for (int i = 0; i < n; i++) wrong += got[i] != keys[i];

  thrust::host_vector<float> vals(n);
  for (int i = 0; i < n; i++) vals[i] = (float)((i * 7919) % n) - n / 2; /* negatives: the float key flip */
  thrust::device_vector<float> f = vals;
  thrust::sort(f.begin(), f.end());
  thrust::host_vector<float> fgot = f;
  std::sort(vals.begin(), vals.end());
  for (int i = 0; i < n; i++) wrong += fgot[i] != vals[i];
  CHECK_CUDA(cudaDeviceSynchronize());
  return app_verdict("thrustSort", wrong, 2L * n);
}
