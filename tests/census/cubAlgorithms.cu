// cubAlgorithms.cu - the device algorithms of CUB (CCCL, as the CUDA
// toolkit ships it) instantiated as applications call them: radix sort
// (keys, descending, pairs, segmented), reduce (sum, max, argmax, segmented),
// scan, select, partition, run-length encode, merge sort and histogram,
// for int, float and __half keys; and libcu++'s atomics, atomic_ref and
// cuda::barrier.  Each is the kernels CUB's dispatch instantiates for the
// target (onesweep, decoupled look-back, ...): the census prepares every
// one for the emulator (issue 35: the instructions CCCL emits, bmsk and
// szext among them).
#include <cub/cub.cuh>
#include <cuda/std/atomic>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cstdint>
#include <cuda/std/functional>
#include <cuda_fp16.h>
template <typename T> void algos(T *in, T *out, int n, int *flags, int *num, void *tmp, size_t bytes, int *offs) {
  cub::DeviceRadixSort::SortKeys(tmp, bytes, in, out, n);
  cub::DeviceRadixSort::SortKeysDescending(tmp, bytes, in, out, n);
  cub::DeviceRadixSort::SortPairs(tmp, bytes, in, out, in, out, n);
  cub::DeviceReduce::Sum(tmp, bytes, in, out, n);
  cub::DeviceReduce::Max(tmp, bytes, in, out, n);
  cub::DeviceReduce::ArgMax(tmp, bytes, in, (cub::KeyValuePair<int, T> *)out, n);
  cub::DeviceScan::InclusiveSum(tmp, bytes, in, out, n);
  cub::DeviceScan::ExclusiveSum(tmp, bytes, in, out, n);
  cub::DeviceSelect::Flagged(tmp, bytes, in, flags, out, num, n);
  cub::DeviceSelect::Unique(tmp, bytes, in, out, num, n);
  cub::DeviceRunLengthEncode::Encode(tmp, bytes, in, out, flags, num, n);
  cub::DeviceSegmentedReduce::Sum(tmp, bytes, in, out, 4, offs, offs + 1);
  cub::DeviceSegmentedRadixSort::SortKeys(tmp, bytes, in, out, n, 4, offs, offs + 1);
  cub::DeviceMergeSort::SortKeys(tmp, bytes, in, n, cuda::std::less<T>());
  cub::DevicePartition::Flagged(tmp, bytes, in, flags, out, num, n);
  cub::DeviceHistogram::HistogramEven(tmp, bytes, in, flags, 17, (T)0, (T)100, n);
}
template void algos<int>(int *, int *, int, int *, int *, void *, size_t, int *);
template void algos<float>(float *, float *, int, int *, int *, void *, size_t, int *);



template void algos<__half>(__half *, __half *, int, int *, int *, void *, size_t, int *);

__global__ void libcu(cuda::std::atomic<int> *a, int *b, float *f) {
  a->fetch_add(1, cuda::std::memory_order_relaxed);
  a->fetch_or(threadIdx.x);
  cuda::atomic_ref<float, cuda::thread_scope_device> r(*f);
  r.fetch_add(1.0f);
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  bar.arrive_and_wait();
  b[threadIdx.x] = a->load(cuda::std::memory_order_acquire);
}
