// tma_size_kernels.cu - issue 33: how a TMA load's round trip grows with its
// box, on one SM (the clock of emu/emu_clock.c charges a copy its bytes at
// the SM's port, CLK_TMA_BYTES, then L2's round trip, CLK_TMA_TRIP), and
// whether two copies issued back to back wait for each other (fast.cu's
// kernel 3 loads its A and B tiles so, then waits for both).  The model's
// predictions are committed before the GPU runs these.
//! nvcc: -arch=sm_90a
#include "../tests/corpus/hopper_gemm.cu"

//! group: tma_size
//! title: TMA round trips by box size, one block
//! exp: tma_box
//! title: one thread's chain of TMA loads of a box of 1 to 32 KiB, each waited for before the next
//@ tma_chain_box#1k grid=1 block=32 smem=33920 args=tmap:f32:1024x1024:box=32x8,buf:f32:32:zero,i32:256,i32:1024,i32:0
//@ tma_chain_box#4k grid=1 block=32 smem=33920 args=tmap:f32:1024x1024:box=32x32,buf:f32:32:zero,i32:256,i32:4096,i32:0
//@ tma_chain_box#16k grid=1 block=32 smem=33920 args=tmap:f32:1024x1024:box=64x64,buf:f32:32:zero,i32:256,i32:16384,i32:0
//@ tma_chain_box#32k grid=1 block=32 smem=33920 args=tmap:f32:1024x1024:box=64x128,buf:f32:32:zero,i32:256,i32:32768,i32:0
//@ tma_chain_box#16k_walk grid=1 block=32 smem=33920 args=tmap:f32:1024x1024:box=64x64,buf:f32:32:zero,i32:256,i32:16384,i32:1
//! exp: tma_pair
//! title: two 16 KiB boxes a step, on two mbarriers, both waited for (fast.cu kernel 3's A and B)
//@ tma_pair_box#16k grid=1 block=32 smem=33920 args=tmap:f32:1024x1024:box=64x64,buf:f32:32:zero,i32:256,i32:16384

// One thread loads a box of `bytes` into dynamic shared memory, waits for
// it and loads the next: a round trip each.  walk 0 reloads the same box
// (L2 hits); walk 1 moves one box along the tensor each time (fresh lines
// after a cold start).
extern "C" __global__ void tma_chain_box(const __grid_constant__ CUtensorMap t, float *out, int n, int bytes, int walk) {
  __shared__ uint64_t bar;
  uint32_t pad = (1024 - (smem_u32(dyn_smem) & 1023)) & 1023;
  float *box = reinterpret_cast<float *>(dyn_smem + pad);
  if (threadIdx.x != 0) return;
  mbar_init(&bar, 1);
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  int x = 0, y = 0, bw = 64, bh = bytes / 256; // the box's width in floats is 64 but for 1 KiB and 4 KiB (32)
  if (bytes <= 4096) bw = 32, bh = bytes / 128;
  float acc = 0;
  for (int i = 0; i < n; i++) {
    mbar_expect_tx(&bar, bytes);
    tma_load(box, &t, &bar, x, y);
    mbar_wait(&bar, i & 1);
    acc += box[0];
    if (walk) {
      x = (x + bw) % 1024;
      if (x == 0) y = (y + bh) % 1024;
    }
  }
  out[0] = acc;
}

// Two boxes a step, each on its own mbarrier, the second issued right
// after the first; the thread waits for both.
extern "C" __global__ void tma_pair_box(const __grid_constant__ CUtensorMap t, float *out, int n, int bytes) {
  __shared__ uint64_t bar[2];
  uint32_t pad = (1024 - (smem_u32(dyn_smem) & 1023)) & 1023;
  float *a = reinterpret_cast<float *>(dyn_smem + pad), *b = a + bytes / 4;
  if (threadIdx.x != 0) return;
  mbar_init(&bar[0], 1);
  mbar_init(&bar[1], 1);
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  float acc = 0;
  for (int i = 0; i < n; i++) {
    mbar_expect_tx(&bar[0], bytes);
    tma_load(a, &t, &bar[0], 0, 0);
    mbar_expect_tx(&bar[1], bytes);
    tma_load(b, &t, &bar[1], 64, 0);
    mbar_wait(&bar[0], i & 1);
    mbar_wait(&bar[1], i & 1);
    acc += a[0] + b[0];
  }
  out[0] = acc;
}
