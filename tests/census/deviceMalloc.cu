// deviceMalloc.cu - the device heap: malloc/free per thread and per block,
// C++ new/delete of objects and arrays, and a linked list grown in the
// kernel.
#include "census_common.h"

__global__ void mallocTest(int *sizes_out) {
  size_t size = 123 + threadIdx.x;
  char *ptr = (char *)malloc(size);
  if (ptr) {
    memset(ptr, 0, size);
    sizes_out[blockIdx.x * blockDim.x + threadIdx.x] = (int)size;
    free(ptr);
  }
}

__global__ void per_block_buffer(float *out, int n) {
  __shared__ float *data;
  if (threadIdx.x == 0) data = (float *)malloc(n * sizeof(float));
  __syncthreads();
  if (!data) return;
  for (int i = threadIdx.x; i < n; i += blockDim.x) data[i] = i * 0.5f;
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x) out[blockIdx.x * n + i] = data[n - 1 - i];
  __syncthreads();
  if (threadIdx.x == 0) free(data);
}

struct Particle {
  float x, y, vx, vy;
  __device__ Particle(float x_, float y_) : x(x_), y(y_), vx(0), vy(0) {}
  __device__ void step(float dt) { x += vx * dt, y += vy * dt; }
};

__global__ void new_delete(float *out, int count) {
  Particle *p = new Particle(threadIdx.x, blockIdx.x);
  int *arr = new int[count];
  for (int i = 0; i < count; i++) arr[i] = i * i;
  p->vx = arr[count - 1];
  p->step(0.1f);
  out[blockIdx.x * blockDim.x + threadIdx.x] = p->x + p->y;
  delete[] arr;
  delete p;
}

struct ListNode {
  int value;
  ListNode *next;
};

__global__ void build_list(int *sums, int len) {
  ListNode *head = nullptr;
  for (int i = 0; i < len; i++) {
    ListNode *n = (ListNode *)malloc(sizeof(ListNode));
    n->value = i + threadIdx.x;
    n->next = head;
    head = n;
  }
  int s = 0;
  while (head) {
    ListNode *next = head->next;
    s += head->value;
    free(head);
    head = next;
  }
  sums[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
