// The seed kernels of seed_kernels.cu at launches neither it nor
// seed_launches_large.cu makes: other sizes (inside and beyond the L2),
// block shapes, strides, offsets and grids (issue 13: a stand-in for the
// launches the maintainers hold back).  Chosen, simulated and the
// predictions committed before any was measured (docs/results/
// h200-2026-11-27-variant/README.md's history).  Each //@ line is one
// launch, in the grammar of seed_kernels.cu; buffers are zero-filled when
// measured.
#include "seed_kernels.cu"
// read-increment-write at 1M floats (4 MB, L2-resident) and 16M (64 MB, beyond the L2)
//@ inc_case#0-1M grid=4096 block=256 args=buf:f32:1048576,i32:0
//@ inc_case#1-1M grid=4096 block=256 args=buf:f32:1048576,i32:1
//@ inc_case#2-1M grid=4096 block=256 args=buf:f32:1048576,i32:2
//@ inc_case#3-1M grid=4096 block=256 args=buf:f32:1048576,i32:3
//@ inc_case#0-16M grid=65536 block=256 args=buf:f32:16777216,i32:0
//@ inc_case#1-16M grid=65536 block=256 args=buf:f32:16777216,i32:1
//@ inc_case#2-16M grid=65536 block=256 args=buf:f32:16777216,i32:2
//@ inc_case#3-16M grid=65536 block=256 args=buf:f32:16777216,i32:3
// float3 at 4M elements (48 MB each way)
//@ f3_plain#4M grid=16384 block=256 args=buf:f32:12582912,buf:f32:12582912
//@ f3_smem#4M grid=16384 block=256 args=buf:f32:12582912,buf:f32:12582912
// transposes: 1024x1024, 4096x4096, and a 4096-wide, 1024-high matrix
//@ tr_naive#1024 grid=32,32 block=32,32 args=buf:f32:1048576,buf:f32:1048576,i32:1024,i32:1024
//@ tr_smem#1024 grid=32,32 block=32,32 args=buf:f32:1048576,buf:f32:1048576,i32:1024,i32:1024
//@ tr_smem_pad#1024 grid=32,32 block=32,32 args=buf:f32:1048576,buf:f32:1048576,i32:1024,i32:1024
//@ tr_naive#4096 grid=128,128 block=32,32 args=buf:f32:16777216,buf:f32:16777216,i32:4096,i32:4096
//@ tr_smem#4096 grid=128,128 block=32,32 args=buf:f32:16777216,buf:f32:16777216,i32:4096,i32:4096
//@ tr_smem_pad#4096 grid=128,128 block=32,32 args=buf:f32:16777216,buf:f32:16777216,i32:4096,i32:4096
//@ tr_naive#4096x1024 grid=128,32 block=32,32 args=buf:f32:4194304,buf:f32:4194304,i32:4096,i32:1024
//@ tr_smem_pad#4096x1024 grid=128,32 block=32,32 args=buf:f32:4194304,buf:f32:4194304,i32:4096,i32:1024
// copies of 1M and 32M floats
//@ copy_k#1M grid=4096 block=256 args=buf:f32:1048576,buf:f32:1048576,i32:1048576
//@ copy_k#32M grid=131072 block=256 args=buf:f32:33554432,buf:f32:33554432,i32:33554432
// matrix addition at 1024 and 4096
//@ madd_nc#1024 grid=64,64 block=16,16 args=buf:f32:1048576,buf:f32:1048576,buf:f32:1048576,i32:1024
//@ madd_c#1024 grid=64,64 block=16,16 args=buf:f32:1048576,buf:f32:1048576,buf:f32:1048576,i32:1024
//@ madd_nc#4096 grid=256,256 block=16,16 args=buf:f32:16777216,buf:f32:16777216,buf:f32:16777216,i32:4096
//@ madd_c#4096 grid=256,256 block=16,16 args=buf:f32:16777216,buf:f32:16777216,buf:f32:16777216,i32:4096
// matrix multiplication at 256 and at 768 (not a power of two)
//@ mm_g#256 grid=16,16 block=16,16 args=buf:f32:65536,buf:f32:65536,buf:f32:65536,i32:256
//@ mm_s#256 grid=16,16 block=16,16 args=buf:f32:65536,buf:f32:65536,buf:f32:65536,i32:256
//@ mm_g#768 grid=48,48 block=16,16 args=buf:f32:589824,buf:f32:589824,buf:f32:589824,i32:768
//@ mm_s#768 grid=48,48 block=16,16 args=buf:f32:589824,buf:f32:589824,buf:f32:589824,i32:768
// shared-memory layouts, eight blocks an SM
//@ setRowReadRow#1056 grid=1056 block=32,32 args=buf:i32:1081344
//@ setColReadCol#1056 grid=1056 block=32,32 args=buf:i32:1081344
//@ setRowReadColIpad#1056 grid=1056 block=32,32 args=buf:i32:1081344
//@ setRowReadColRect#1056 grid=1056 block=32,16 args=buf:i32:540672
// adjacent difference at 1M and 32M ints
//@ adj_naive#1M grid=4096 block=256 args=buf:i32:1048576,buf:i32:1048576,i32:1048576
//@ adj_smem#1M grid=4096 block=256 args=buf:i32:1048576,buf:i32:1048576,i32:1048576
//@ adj_naive#32M grid=131072 block=256 args=buf:i32:33554432,buf:i32:33554432,i32:33554432
//@ adj_smem#32M grid=131072 block=256 args=buf:i32:33554432,buf:i32:33554432,i32:33554432
// strides the seed does not use
//@ stride_copy#3 grid=16384 block=256 args=buf:f32:12582912,buf:f32:12582912,i32:3
//@ stride_copy#16 grid=16384 block=256 args=buf:f32:67108864,buf:f32:67108864,i32:16
//@ stride_copy#64 grid=4096 block=256 args=buf:f32:67108864,buf:f32:67108864,i32:64
// offsets the seed does not use, and an offset copy beyond the L2
//@ offset_copy#2 grid=16384 block=256 args=buf:f32:4194336,buf:f32:4194336,i32:2
//@ offset_copy#4 grid=16384 block=256 args=buf:f32:4194336,buf:f32:4194336,i32:4
//@ offset_copy#31 grid=16384 block=256 args=buf:f32:4194336,buf:f32:4194336,i32:31
//@ offset_copy#1-32M grid=131072 block=256 args=buf:f32:33554464,buf:f32:33554464,i32:1
// increments of 16M floats at block sizes the seed does not use
//@ inc1#64 grid=262144 block=64 args=buf:f32:16777216,u64:16777216
//@ inc1#128 grid=131072 block=128 args=buf:f32:16777216,u64:16777216
//@ inc1#512 grid=32768 block=512 args=buf:f32:16777216,u64:16777216
// local arrays: four times the threads, and wider blocks with fewer queries
//@ local_heap#2048 grid=2048 block=128 args=buf:f32:262144,buf:f32:262144,i32:64
//@ local_heap#b256 grid=512 block=256 args=buf:f32:131072,buf:f32:131072,i32:32
