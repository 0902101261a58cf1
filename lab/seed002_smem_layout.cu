// Seed 002 (CUDA Freshman 5.2, data layout in shared memory): the eleven
// kernels of the article -- square 32x32 and rectangular 32x16 tiles, row and
// column order, static and dynamic declarations, with and without padding --
// plus the two-column padding it mentions.  Each block writes its 1024 (512)
// values to its own slice of out.  Format: docs/lab.md.

#define BDIMX 32
#define BDIMY 32
#define BDIMX_RECT 32
#define BDIMY_RECT 16
#define IPAD 1

//! group: smem_square
//! seed: 002
//! title: square shared tile int tile[32][32], 32x32 threads: row- and column-major writes and reads, dynamic, padded

//! exp: square
//! title: 16896 blocks (128 per SM) of 32x32 threads; simulated with 132 blocks (one per SM)
//! seed-says: "nvprof, one block: setColReadCol 2.560 us, setRowReadCol 2.048, setRowReadColDyn 2.017, setColReadRow 2.016, setRowReadColIpad 1.472, setRowReadRow 1.409, setRowReadColDynIpad 1.345"
//! bytes: 69206016
//! why: The seed timed one block, where launch overhead hides most of a 32-way conflict (1.45x); with 16896 blocks the conflicts dominate: column reads cost ~3x and column reads and writes ~5x the row-major time, and padding restores it.
//@ setRowReadCol grid=132 block=32,32 args=buf:i32:135168:zero
//! gpu: grid=16896 block=32,32 args=buf:i32:17301504:zero
//! speedup: 1
//! reported: 2.048 us
//@ setRowReadRow grid=132 block=32,32 args=buf:i32:135168:zero
//! gpu: grid=16896 block=32,32 args=buf:i32:17301504:zero
//! speedup: 1.45
//! reported: 1.409 us
//@ setColReadCol grid=132 block=32,32 args=buf:i32:135168:zero
//! gpu: grid=16896 block=32,32 args=buf:i32:17301504:zero
//! speedup: 0.80
//! reported: 2.560 us
//@ setColReadRow grid=132 block=32,32 args=buf:i32:135168:zero
//! gpu: grid=16896 block=32,32 args=buf:i32:17301504:zero
//! speedup: 1.02
//! reported: 2.016 us
//@ setRowReadColDyn grid=132 block=32,32 smem=4096 args=buf:i32:135168:zero
//! gpu: grid=16896 block=32,32 smem=4096 args=buf:i32:17301504:zero
//! speedup: 1.02
//! reported: 2.017 us
//@ setRowReadColIpad grid=132 block=32,32 args=buf:i32:135168:zero
//! gpu: grid=16896 block=32,32 args=buf:i32:17301504:zero
//! speedup: 1.39
//! reported: 1.472 us
//@ setRowReadColDynIpad grid=132 block=32,32 smem=4224 args=buf:i32:135168:zero
//! gpu: grid=16896 block=32,32 smem=4224 args=buf:i32:17301504:zero
//! speedup: 1.52
//! reported: 1.345 us

extern "C" __global__ void setRowReadRow(int *out) {
  __shared__ int tile[BDIMY][BDIMX];
  unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
  tile[threadIdx.y][threadIdx.x] = idx;
  __syncthreads();
  out[blockIdx.x * 1024 + idx] = tile[threadIdx.y][threadIdx.x];
}
extern "C" __global__ void setColReadCol(int *out) {
  __shared__ int tile[BDIMY][BDIMX];
  unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
  tile[threadIdx.x][threadIdx.y] = idx;
  __syncthreads();
  out[blockIdx.x * 1024 + idx] = tile[threadIdx.x][threadIdx.y];
}
extern "C" __global__ void setRowReadCol(int *out) {
  __shared__ int tile[BDIMY][BDIMX];
  unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
  tile[threadIdx.y][threadIdx.x] = idx;
  __syncthreads();
  out[blockIdx.x * 1024 + idx] = tile[threadIdx.x][threadIdx.y];
}
extern "C" __global__ void setColReadRow(int *out) {
  __shared__ int tile[BDIMY][BDIMX];
  unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
  tile[threadIdx.x][threadIdx.y] = idx;
  __syncthreads();
  out[blockIdx.x * 1024 + idx] = tile[threadIdx.y][threadIdx.x];
}
extern "C" __global__ void setRowReadColDyn(int *out) {
  extern __shared__ int tile[];
  unsigned int row_idx = threadIdx.y * blockDim.x + threadIdx.x;
  unsigned int col_idx = threadIdx.x * blockDim.y + threadIdx.y;
  tile[row_idx] = row_idx;
  __syncthreads();
  out[blockIdx.x * 1024 + row_idx] = tile[col_idx];
}
extern "C" __global__ void setRowReadColIpad(int *out) {
  __shared__ int tile[BDIMY][BDIMX + IPAD];
  unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
  tile[threadIdx.y][threadIdx.x] = idx;
  __syncthreads();
  out[blockIdx.x * 1024 + idx] = tile[threadIdx.x][threadIdx.y];
}
extern "C" __global__ void setRowReadColDynIpad(int *out) {
  extern __shared__ int tile[];
  unsigned int row_idx = threadIdx.y * (blockDim.x + 1) + threadIdx.x;
  unsigned int col_idx = threadIdx.x * (blockDim.x + 1) + threadIdx.y;
  tile[row_idx] = row_idx;
  __syncthreads();
  out[blockIdx.x * 1024 + threadIdx.y * blockDim.x + threadIdx.x] = tile[col_idx];
}

//! group: smem_rect
//! seed: 002
//! title: rectangular shared tile int tile[16][32], 32x16 threads: write by rows, read by columns; dynamic; padded by 1 and 2 columns

//! exp: rect
//! title: 16896 blocks of 32x16 threads; simulated with 132 blocks
//! seed-says: "setRowReadColRectPad 12.512 us, setRowReadColRect 1.664, setRowReadColRectDyn 1.664, setRowReadColRectDynPad 1.440; one column of padding leaves 2-way conflicts, two columns none"
//! bytes: 34603008
//! why: The seed's 12.5 us for the padded kernel was a first launch paying a one-time cost, not the layout; measured properly one column of padding (2-way conflicts) gains ~1.7x over the 16-way conflicts, and the second column adds little.
//@ setRowReadColRect grid=132 block=32,16 args=buf:i32:67584:zero
//! gpu: grid=16896 block=32,16 args=buf:i32:8650752:zero
//! speedup: 1
//! reported: 1.664 us
//@ setRowReadColRectDyn grid=132 block=32,16 smem=2048 args=buf:i32:67584:zero
//! gpu: grid=16896 block=32,16 smem=2048 args=buf:i32:8650752:zero
//! speedup: 1
//! reported: 1.664 us
//@ setRowReadColRectPad grid=132 block=32,16 args=buf:i32:67584:zero
//! gpu: grid=16896 block=32,16 args=buf:i32:8650752:zero
//! speedup: 0.133
//! reported: 12.512 us
//@ setRowReadColRectDynPad grid=132 block=32,16 smem=2112 args=buf:i32:67584:zero
//! gpu: grid=16896 block=32,16 smem=2112 args=buf:i32:8650752:zero
//! speedup: 1.156
//! reported: 1.440 us
//@ setRowReadColRectPad2 grid=132 block=32,16 args=buf:i32:67584:zero
//! gpu: grid=16896 block=32,16 args=buf:i32:8650752:zero
//! reported: two columns of padding: "no conflicts"

extern "C" __global__ void setRowReadColRect(int *out) {
  __shared__ int tile[BDIMY_RECT][BDIMX_RECT];
  unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
  unsigned int icol = idx % blockDim.y;
  unsigned int irow = idx / blockDim.y;
  tile[threadIdx.y][threadIdx.x] = idx;
  __syncthreads();
  out[blockIdx.x * 512 + idx] = tile[icol][irow];
}
extern "C" __global__ void setRowReadColRectDyn(int *out) {
  extern __shared__ int tile[];
  unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
  unsigned int icol = idx % blockDim.y;
  unsigned int irow = idx / blockDim.y;
  unsigned int col_idx = icol * blockDim.x + irow;
  tile[idx] = idx;
  __syncthreads();
  out[blockIdx.x * 512 + idx] = tile[col_idx];
}
#define RECT_PAD(NAME, PAD)                                    \
  extern "C" __global__ void NAME(int *out) {                  \
    __shared__ int tile[BDIMY_RECT][BDIMX_RECT + PAD];         \
    unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x; \
    unsigned int icol = idx % blockDim.y;                      \
    unsigned int irow = idx / blockDim.y;                      \
    tile[threadIdx.y][threadIdx.x] = idx;                      \
    __syncthreads();                                           \
    out[blockIdx.x * 512 + idx] = tile[icol][irow];            \
  }
RECT_PAD(setRowReadColRectPad, IPAD)
RECT_PAD(setRowReadColRectPad2, 2 * IPAD)
extern "C" __global__ void setRowReadColRectDynPad(int *out) {
  extern __shared__ int tile[];
  unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
  unsigned int icol = idx % blockDim.y;
  unsigned int irow = idx / blockDim.y;
  unsigned int row_idx = threadIdx.y * (IPAD + blockDim.x) + threadIdx.x;
  unsigned int col_idx = icol * (IPAD + blockDim.x) + irow;
  tile[row_idx] = idx;
  __syncthreads();
  out[blockIdx.x * 512 + idx] = tile[col_idx];
}
