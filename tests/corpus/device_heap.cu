// The device heap: per-thread scratch from malloc, a per-block buffer that
// thread 0 allocates and shares through shared memory, a linked list built
// and torn down with new/delete, over-aligned allocations, a kernel that
// fills the heap until malloc returns NULL, and frees that CUDA leaves
// undefined (a double free, a pointer malloc did not return) for the
// located faults (tests/test_corpus_heap.c).
//! group: device_heap
//! title: the device heap: malloc, free, new and delete
//! exp: heap_alloc
//! title: per-thread scratch, per-block buffers, a linked list, aligned new, a full heap
//@ thread_scratch grid=4 block=64 args=buf:f32:256,buf:f32:256:zero,i32:24
//@ block_buffer grid=3 block=128 args=buf:i32:1500:iota,buf:i32:1500:zero,buf:u64:3:zero,i32:500
//@ list_kernel grid=2 block=96 args=buf:i32:192:zero,i32:12
//@ aligned_new grid=1 block=32 args=buf:u32:64:zero
//@ fill_heap grid=1 block=128 args=buf:i32:128:zero,buf:i32:2:zero,u32:65536,i32:8
#include <cstdint>
#include <cstdio>

// Each thread takes k floats of scratch, fills them with a window of the
// input and returns a weighted sum of it.
__global__ void thread_scratch(const float *in, float *out, int k) {
  int t = blockIdx.x * blockDim.x + threadIdx.x, n = gridDim.x * blockDim.x;
  float *w = static_cast<float *>(malloc(k * sizeof(float)));
  if (!w) {
    out[t] = -1.0f;
    return;
  }
  for (int i = 0; i < k; i++) w[i] = in[(t + i) % n];
  float s = 0.0f;
  for (int i = 0; i < k; i++) s += w[i] * (float)(i + 1);
  out[t] = s;
  free(w);
}

// Thread 0 allocates the block's buffer; the others find it in shared
// memory.  The block reverses its slice of the input through it and
// reports the pointer (to check its alignment and the heap's order).
__global__ void block_buffer(const int *in, int *out, unsigned long long *where, int n) {
  __shared__ int *buf;
  if (threadIdx.x == 0) {
    buf = static_cast<int *>(malloc(n * sizeof(int)));
    where[blockIdx.x] = reinterpret_cast<unsigned long long>(buf);
  }
  __syncthreads();
  if (!buf) return;
  const int *src = in + blockIdx.x * n;
  for (int i = threadIdx.x; i < n; i += blockDim.x) buf[n - 1 - i] = src[i];
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x) out[blockIdx.x * n + i] = buf[i] * 2;
  __syncthreads();
  if (threadIdx.x == 0) free(buf);
}

template <typename T>
struct Node {
  T value;
  Node *next;
  __device__ Node(T v, Node *n) : value(v), next(n) {}
};

template <typename T>
__device__ Node<T> *reverse(Node<T> *head) {
  Node<T> *prev = nullptr;
  while (head) {
    Node<T> *next = head->next;
    head->next = prev;
    prev = head;
    head = next;
  }
  return prev;
}

// Pushes len values on a list (new), reverses it, sums value * position,
// and deletes it.
__global__ void list_kernel(int *sums, int len) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  Node<int> *head = nullptr;
  for (int i = 0; i < len; i++) head = new Node<int>(t * 3 + i, head);
  head = reverse(head);
  int s = 0, pos = 1;
  while (head) {
    Node<int> *next = head->next;
    s += head->value * pos++;
    delete head;
    head = next;
  }
  sums[t] = s;
}

struct alignas(64) Tile {
  float v[16];
};

// new of an over-aligned type and __nv_aligned_device_malloc: the
// pointers' low bits, and a value through each.
__global__ void aligned_new(unsigned *out) {
  Tile *a = new Tile;
  void *b = __nv_aligned_device_malloc(40, 256);
  a->v[threadIdx.x & 15] = threadIdx.x;
  static_cast<unsigned *>(b)[1] = threadIdx.x * 7;
  out[2 * threadIdx.x] = (unsigned)(reinterpret_cast<uintptr_t>(a) & 63) + (unsigned)(a->v[threadIdx.x & 15]) * 1000;
  out[2 * threadIdx.x + 1] = (unsigned)(reinterpret_cast<uintptr_t>(b) & 255) + static_cast<unsigned *>(b)[1] * 1000;
  delete a;
  free(b);
}

// Each thread takes up to `tries` chunks and keeps them until all have
// tried, so the heap fills and malloc returns NULL; then frees them.
__global__ void fill_heap(int *got, int *totals, unsigned chunk, int tries) {
  char *mine[16];
  int n = 0;
  for (int i = 0; i < tries && i < 16; i++) {
    char *p = static_cast<char *>(malloc(chunk));
    if (!p) continue;
    p[0] = (char)i;
    p[chunk - 1] = (char)i;
    mine[n++] = p;
  }
  got[blockIdx.x * blockDim.x + threadIdx.x] = n;
  atomicAdd(&totals[0], n);
  atomicAdd(&totals[1], tries - n);
  __syncthreads();
  for (int i = 0; i < n; i++) free(mine[i]);
}

// Frees CUDA leaves undefined: mode 0 frees thread 3's block twice, mode 1
// frees a pointer into the middle of an allocation, mode 2 a kernel
// argument.
__global__ void bad_free(int *out, int mode) {
  int *p = static_cast<int *>(malloc(8 * sizeof(int)));
  p[0] = threadIdx.x;
  out[threadIdx.x] = p[0];
  if (mode == 1 && threadIdx.x == 5) free(p + 2);
  if (mode == 2 && threadIdx.x == 7) free(out);
  free(p);
  if (mode == 0 && threadIdx.x == 3) free(p);
}
