// html_kernels.cu - the launches the HTML report's tests render
// (tests/html_page.sh, tools/html_check.py), each with a picture whose
// numbers follow from the code:
//   tr_naive: a warp reads 32 consecutive floats of a row (4 sectors) and
//     writes them down a column of a 64-wide row-major matrix: 32 lanes
//     256 bytes apart, 32 different 32-byte sectors.
//   row_read_col: a 32x32 float tile in shared memory written by rows and
//     read by columns: the 32 lanes of a warp read one bank (32 wavefronts).
//   scale<float>: a template kernel (its name carries < and >, escaped).
//   oob: writes past its buffer: FAILED, its message on the page.
//@ tr_naive grid=2,2 block=32,32 args=buf:f32:4096,buf:f32:4096,i32:64,i32:64
//@ row_read_col grid=2 block=32,32 args=buf:f32:2048:zero
//@ _Z5scaleIfEvPT_S0_i#t grid=4 block=64 args=buf:f32:256:iota,f32:2,i32:256
//@ oob grid=1 block=64 args=buf:f32:16:zero

__global__ void tr_naive(const float* in, float* out, int nx, int ny) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < nx && y < ny) out[x * ny + y] = in[y * nx + x];
}

__global__ void row_read_col(float* out) {
  __shared__ float tile[32][32];
  unsigned idx = threadIdx.y * blockDim.x + threadIdx.x;
  tile[threadIdx.y][threadIdx.x] = idx;
  __syncthreads();
  out[blockIdx.x * 1024 + idx] = tile[threadIdx.x][threadIdx.y];
}

template <typename T>
__global__ void scale(T* data, T k, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = data[i] * k;
}
template __global__ void scale<float>(float*, float, int);

__global__ void oob(float* out) { out[threadIdx.x * 64] = 1.0f; }
