// tma_edge_kernels.cu - which bytes the TMA reads from L2 for a box that lies
// partly outside its tensor.  On the H200 (docs/results/h200-2026-12-02-
// hopper) tests/corpus/tma_copy.cu's edge boxes read many more sectors than
// the rows inside the tensor touch (74 where 30 were predicted): these
// launches vary one thing at a time (how much of a row is inside, from
// which side, how many rows, the row's width in bytes, the tensor's row
// pitch) so that the rule can be read off, not fitted to one box.  Each is
// tile_raw of tma_copy.cu: one box into shared memory, copied out.
//! nvcc: -arch=sm_90a
#include "../tests/corpus/tma_copy.cu"

//! group: tma_edges
//! title: TMA boxes at the edges of their tensors: the L2 reads
//! exp: edge_x
//! title: a box of 32x16 f32 (128-byte rows) of a 100x70 tensor (400-byte pitch), moved out along x
//@ tile_raw#in grid=1 block=128 args=tmap:f32:100x70:box=32x16,buf:u32:512:zero,i32:0,i32:0,i32:512
//@ tile_raw#x68 grid=1 block=128 args=tmap:f32:100x70:box=32x16,buf:u32:512:zero,i32:68,i32:0,i32:512
//@ tile_raw#x72 grid=1 block=128 args=tmap:f32:100x70:box=32x16,buf:u32:512:zero,i32:72,i32:0,i32:512
//@ tile_raw#x80 grid=1 block=128 args=tmap:f32:100x70:box=32x16,buf:u32:512:zero,i32:80,i32:0,i32:512
//@ tile_raw#x88 grid=1 block=128 args=tmap:f32:100x70:box=32x16,buf:u32:512:zero,i32:88,i32:0,i32:512
//@ tile_raw#x96 grid=1 block=128 args=tmap:f32:100x70:box=32x16,buf:u32:512:zero,i32:96,i32:0,i32:512
//@ tile_raw#xm4 grid=1 block=128 args=tmap:f32:100x70:box=32x16,buf:u32:512:zero,i32:-4,i32:0,i32:512
//@ tile_raw#xm16 grid=1 block=128 args=tmap:f32:100x70:box=32x16,buf:u32:512:zero,i32:-16,i32:0,i32:512
//@ tile_raw#xm28 grid=1 block=128 args=tmap:f32:100x70:box=32x16,buf:u32:512:zero,i32:-28,i32:0,i32:512
//@ tile_raw#x100 grid=1 block=128 args=tmap:f32:100x70:box=32x16,buf:u32:512:zero,i32:100,i32:0,i32:512
//! exp: edge_y
//! title: the same box moved out along y, and both ways
//@ tile_raw#y60 grid=1 block=128 args=tmap:f32:100x70:box=32x16,buf:u32:512:zero,i32:0,i32:60,i32:512
//@ tile_raw#y66 grid=1 block=128 args=tmap:f32:100x70:box=32x16,buf:u32:512:zero,i32:0,i32:66,i32:512
//@ tile_raw#ym8 grid=1 block=128 args=tmap:f32:100x70:box=32x16,buf:u32:512:zero,i32:0,i32:-8,i32:512
//@ tile_raw#y70 grid=1 block=128 args=tmap:f32:100x70:box=32x16,buf:u32:512:zero,i32:0,i32:70,i32:512
//@ tile_raw#x80y60 grid=1 block=128 args=tmap:f32:100x70:box=32x16,buf:u32:512:zero,i32:80,i32:60,i32:512
//! exp: edge_pitch
//! title: a 128x70 tensor (512-byte pitch, rows on 128-byte lines), moved out along x
//@ tile_raw#p512in grid=1 block=128 args=tmap:f32:128x70:box=32x16,buf:u32:512:zero,i32:96,i32:0,i32:512
//@ tile_raw#p512x104 grid=1 block=128 args=tmap:f32:128x70:box=32x16,buf:u32:512:zero,i32:104,i32:0,i32:512
//@ tile_raw#p512x120 grid=1 block=128 args=tmap:f32:128x70:box=32x16,buf:u32:512:zero,i32:120,i32:0,i32:512
//@ tile_raw#p512xm8 grid=1 block=128 args=tmap:f32:128x70:box=32x16,buf:u32:512:zero,i32:-8,i32:0,i32:512
//! exp: edge_width
//! title: boxes of 64-, 256-byte rows and of bf16, partly outside along x
//@ tile_raw#w64x88 grid=1 block=128 args=tmap:f32:100x70:box=16x16,buf:u32:256:zero,i32:88,i32:0,i32:256
//@ tile_raw#w64x92 grid=1 block=128 args=tmap:f32:100x70:box=16x16,buf:u32:256:zero,i32:92,i32:0,i32:256
//@ tile_raw#w256x40 grid=1 block=128 args=tmap:f32:100x70:box=64x8,buf:u32:512:zero,i32:40,i32:0,i32:512
//@ tile_raw#w256x0 grid=1 block=128 args=tmap:f32:100x70:box=64x8,buf:u32:512:zero,i32:0,i32:0,i32:512
//@ tile_raw#bf16x160 grid=1 block=128 args=tmap:bf16:200x33:box=64x8,buf:u32:256:zero,i32:160,i32:0,i32:256
//@ tile_raw#sw128x80 grid=1 block=128 args=tmap:f32:100x70:box=32x16:swz=128,buf:u32:512:zero,i32:80,i32:0,i32:512
