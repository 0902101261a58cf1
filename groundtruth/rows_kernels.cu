// The seed's strided copy at strides and grids neither the seed, the large
// set nor variant_kernels.cu uses: launches to check session 31's DRAM
// rows bound (fitted on variant stride_copy#64 alone), its predictions
// committed before the measurement (docs/results/h*-2026-11-27-rows).
// Each //@ line is one launch, in the grammar of seed_kernels.cu; buffers
// zero-filled when measured.
#include "seed_kernels.cu"
//@ stride_copy#24 grid=16384 block=256 args=buf:f32:100663296,buf:f32:100663296,i32:24
//@ stride_copy#48 grid=8192 block=256 args=buf:f32:100663296,buf:f32:100663296,i32:48
//@ stride_copy#64-4M grid=16384 block=256 args=buf:f32:268435456,buf:f32:268435456,i32:64
//@ stride_copy#128 grid=4096 block=256 args=buf:f32:134217728,buf:f32:134217728,i32:128
//@ stride_copy#256 grid=2048 block=256 args=buf:f32:134217728,buf:f32:134217728,i32:256
//@ stride_copy#40 grid=8192 block=256 args=buf:f32:83886080,buf:f32:83886080,i32:40
