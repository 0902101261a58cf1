// refuse_one.cu - a file of launches where one kernel uses an instruction
// warpmem does not run (pmevent, a profiler event) and one launch faults
// (its buffer is too short): every other launch still runs and is
// reported, and the two are reported in their places (exit status 4).

//! group: refuse_one
//! title: one refused kernel and one faulting launch among good ones
//! exp: fill_good
//! title: a fill that runs
//@ fill#a grid=2 block=128 args=buf:f32:256:zero,f32:1.5
//! exp: refused
//! title: pmevent: refused, reported in its place
//@ with_event grid=1 block=32 args=buf:f32:32:zero
//! exp: fill_short
//! title: a buffer too short (faults), then a good fill
//@ fill#short grid=2 block=128 args=buf:f32:200:zero,f32:2
//@ fill#b grid=1 block=64 args=buf:f32:64:zero,f32:-3
__global__ void fill(float* out, float v) { out[blockIdx.x * blockDim.x + threadIdx.x] = v; }

__global__ void with_event(float* out) {
  asm volatile("pmevent 7;");
  out[threadIdx.x] = 1.0f;
}
