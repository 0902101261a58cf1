/* rt_attrs.c - the device attributes of warpmem run's one device, for
 * cuDeviceGetAttribute and cudaDeviceGetAttribute (which number them
 * alike): one table, each value from where it comes.
 *
 * Notes:
 * - P: the preset's number (its SMs, clock, shared memory, ...).
 * - M: as the lent H200 answered (docs/results/h200-2026-12-03-apps/
 *   device-attrs.txt, by tools/gpu/device_attrs.cu), for the h200 preset;
 *   the second value for the others (unknown: 0).  The H200 reports a
 *   6016-bit bus at 3.201 GHz where the preset's bandwidth is 6144 bits at
 *   3.125 (its spec sheet's): the attribute is the device's, the model the
 *   preset's.
 * - T: a texture or surface limit as the H200 answered, taken for every
 *   preset from sm_50 on (the older ones: 0, unknown).
 * - N: warpmem run's own answer: 1 for what it does (host memory
 *   registered and mapped, managed memory, cooperative launches, memory
 *   pools, ...), 0 for a capability the H200 has and warpmem run does not
 *   (virtual memory management, compressible memory, IPC handles, RDMA,
 *   stream memory operations, host NUMA memory), so that an application
 *   takes a path warpmem runs, or waives itself with its own message,
 *   rather than failing at a call that is not stood in for.
 * - The persisting-L2 size and access-policy window are the H200's: the
 *   stream attribute and the limit are accepted, and have no effect on the
 *   model (its L2 keeps no lines apart).
 */
#include <stdint.h>
#include <string.h>

#include "rt/rt_int.h"

/* The memory clock (kHz) that gives the preset's bandwidth over its bus
 * (double data rate), as deviceQuery computes it back. */
static long long mem_clock_khz(const Arch *a) {
  return a->bus_bits ? (long long)(a->dram_gbs * 1e6 / (2.0 * a->bus_bits / 8.0)) : 0;
}

/* X(id, NAME as cuda.h's CU_DEVICE_ATTRIBUTE_NAME, where its value comes from) */
#define RT_DEVICE_ATTRS(X) \
  X(1, MAX_THREADS_PER_BLOCK, P(a->max_threads_block))              \
  X(2, MAX_BLOCK_DIM_X, P(L.block_xy))                              \
  X(3, MAX_BLOCK_DIM_Y, P(L.block_xy))                              \
  X(4, MAX_BLOCK_DIM_Z, P(L.block_z))                               \
  X(5, MAX_GRID_DIM_X, P(L.grid_x))                                 \
  X(6, MAX_GRID_DIM_Y, P(L.grid_yz))                                \
  X(7, MAX_GRID_DIM_Z, P(L.grid_yz))                                \
  X(8, MAX_SHARED_MEMORY_PER_BLOCK, P(a->smem_block))               \
  X(9, TOTAL_CONSTANT_MEMORY, N(65536))                             \
  X(10, WARP_SIZE, P(a->warp_size))                                 \
  X(11, MAX_PITCH, N(2147483647))                                   \
  X(12, MAX_REGISTERS_PER_BLOCK, P(a->regs_block))                  \
  X(13, CLOCK_RATE, P((long long)(a->clock_ghz * 1e6)))             \
  X(14, TEXTURE_ALIGNMENT, N(512))                                  \
  X(15, GPU_OVERLAP, N(1))                                          \
  X(16, MULTIPROCESSOR_COUNT, P(a->sms))                            \
  X(17, KERNEL_EXEC_TIMEOUT, N(0))                                  \
  X(18, INTEGRATED, N(0))                                           \
  X(19, CAN_MAP_HOST_MEMORY, N(1))                                  \
  X(20, COMPUTE_MODE, N(0))                                         \
  X(21, MAXIMUM_TEXTURE1D_WIDTH, T(131072))                         \
  X(22, MAXIMUM_TEXTURE2D_WIDTH, T(131072))                         \
  X(23, MAXIMUM_TEXTURE2D_HEIGHT, T(65536))                         \
  X(24, MAXIMUM_TEXTURE3D_WIDTH, T(16384))                          \
  X(25, MAXIMUM_TEXTURE3D_HEIGHT, T(16384))                         \
  X(26, MAXIMUM_TEXTURE3D_DEPTH, T(16384))                          \
  X(27, MAXIMUM_TEXTURE2D_LAYERED_WIDTH, T(32768))                  \
  X(28, MAXIMUM_TEXTURE2D_LAYERED_HEIGHT, T(32768))                 \
  X(29, MAXIMUM_TEXTURE2D_LAYERED_LAYERS, T(2048))                  \
  X(30, SURFACE_ALIGNMENT, T(512))                                  \
  X(31, CONCURRENT_KERNELS, N(1))                                   \
  X(32, ECC_ENABLED, M(1, 0))                                       \
  X(33, PCI_BUS_ID, N(0))                                           \
  X(34, PCI_DEVICE_ID, N(0))                                        \
  X(35, TCC_DRIVER, N(0))                                           \
  X(36, MEMORY_CLOCK_RATE, M(3201000, mem_clock_khz(a)))            \
  X(37, GLOBAL_MEMORY_BUS_WIDTH, M(6016, a->bus_bits))              \
  X(38, L2_CACHE_SIZE, P(a->l2_bytes))                              \
  X(39, MAX_THREADS_PER_MULTIPROCESSOR, P(a->max_threads_sm))       \
  X(40, ASYNC_ENGINE_COUNT, M(3, 2))                                \
  X(41, UNIFIED_ADDRESSING, N(1))                                   \
  X(42, MAXIMUM_TEXTURE1D_LAYERED_WIDTH, T(32768))                  \
  X(43, MAXIMUM_TEXTURE1D_LAYERED_LAYERS, T(2048))                  \
  X(44, CAN_TEX2D_GATHER, N(1))                                     \
  X(45, MAXIMUM_TEXTURE2D_GATHER_WIDTH, T(32768))                   \
  X(46, MAXIMUM_TEXTURE2D_GATHER_HEIGHT, T(32768))                  \
  X(47, MAXIMUM_TEXTURE3D_WIDTH_ALTERNATE, T(8192))                 \
  X(48, MAXIMUM_TEXTURE3D_HEIGHT_ALTERNATE, T(8192))                \
  X(49, MAXIMUM_TEXTURE3D_DEPTH_ALTERNATE, T(32768))                \
  X(50, PCI_DOMAIN_ID, N(0))                                        \
  X(51, TEXTURE_PITCH_ALIGNMENT, N(32))                             \
  X(52, MAXIMUM_TEXTURECUBEMAP_WIDTH, T(32768))                     \
  X(53, MAXIMUM_TEXTURECUBEMAP_LAYERED_WIDTH, T(32768))             \
  X(54, MAXIMUM_TEXTURECUBEMAP_LAYERED_LAYERS, T(2046))             \
  X(55, MAXIMUM_SURFACE1D_WIDTH, T(32768))                          \
  X(56, MAXIMUM_SURFACE2D_WIDTH, T(131072))                         \
  X(57, MAXIMUM_SURFACE2D_HEIGHT, T(65536))                         \
  X(58, MAXIMUM_SURFACE3D_WIDTH, T(16384))                          \
  X(59, MAXIMUM_SURFACE3D_HEIGHT, T(16384))                         \
  X(60, MAXIMUM_SURFACE3D_DEPTH, T(16384))                          \
  X(61, MAXIMUM_SURFACE1D_LAYERED_WIDTH, T(32768))                  \
  X(62, MAXIMUM_SURFACE1D_LAYERED_LAYERS, T(2048))                  \
  X(63, MAXIMUM_SURFACE2D_LAYERED_WIDTH, T(32768))                  \
  X(64, MAXIMUM_SURFACE2D_LAYERED_HEIGHT, T(32768))                 \
  X(65, MAXIMUM_SURFACE2D_LAYERED_LAYERS, T(2048))                  \
  X(66, MAXIMUM_SURFACECUBEMAP_WIDTH, T(32768))                     \
  X(67, MAXIMUM_SURFACECUBEMAP_LAYERED_WIDTH, T(32768))             \
  X(68, MAXIMUM_SURFACECUBEMAP_LAYERED_LAYERS, T(2046))             \
  X(69, MAXIMUM_TEXTURE1D_LINEAR_WIDTH, T(268435456))               \
  X(70, MAXIMUM_TEXTURE2D_LINEAR_WIDTH, T(131072))                  \
  X(71, MAXIMUM_TEXTURE2D_LINEAR_HEIGHT, T(65000))                  \
  X(72, MAXIMUM_TEXTURE2D_LINEAR_PITCH, T(2097120))                 \
  X(73, MAXIMUM_TEXTURE2D_MIPMAPPED_WIDTH, T(32768))                \
  X(74, MAXIMUM_TEXTURE2D_MIPMAPPED_HEIGHT, T(32768))               \
  X(75, COMPUTE_CAPABILITY_MAJOR, P(a->cc / 10))                    \
  X(76, COMPUTE_CAPABILITY_MINOR, P(a->cc % 10))                    \
  X(77, MAXIMUM_TEXTURE1D_MIPMAPPED_WIDTH, T(32768))                \
  X(78, STREAM_PRIORITIES_SUPPORTED, N(1))                          \
  X(79, GLOBAL_L1_CACHE_SUPPORTED, N(1))                            \
  X(80, LOCAL_L1_CACHE_SUPPORTED, N(1))                             \
  X(81, MAX_SHARED_MEMORY_PER_MULTIPROCESSOR, P(a->smem_sm))        \
  X(82, MAX_REGISTERS_PER_MULTIPROCESSOR, P(a->regs_sm))            \
  X(83, MANAGED_MEMORY, N(1))                                       \
  X(84, MULTI_GPU_BOARD, N(0))                                      \
  X(85, MULTI_GPU_BOARD_GROUP_ID, N(0))                             \
  X(86, HOST_NATIVE_ATOMIC_SUPPORTED, N(0))                         \
  X(87, SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO, M(2, 0))             \
  X(88, PAGEABLE_MEMORY_ACCESS, N(0))                               \
  X(89, CONCURRENT_MANAGED_ACCESS, N(1))                            \
  X(90, COMPUTE_PREEMPTION_SUPPORTED, M(1, 0))                      \
  X(91, CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM, N(1))              \
  X(92, CAN_USE_STREAM_MEM_OPS_V1, N(0))                            \
  X(93, CAN_USE_64_BIT_STREAM_MEM_OPS_V1, N(0))                     \
  X(94, CAN_USE_STREAM_WAIT_VALUE_NOR_V1, N(0))                     \
  X(95, COOPERATIVE_LAUNCH, N(1))                                   \
  X(96, COOPERATIVE_MULTI_DEVICE_LAUNCH, N(0))                      \
  X(97, MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, P(a->smem_block_optin))  \
  X(98, CAN_FLUSH_REMOTE_WRITES, N(0))                              \
  X(99, HOST_REGISTER_SUPPORTED, N(1))                              \
  X(100, PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES, N(0))        \
  X(101, DIRECT_MANAGED_MEM_ACCESS_FROM_HOST, N(0))                 \
  X(102, VIRTUAL_ADDRESS_MANAGEMENT_SUPPORTED, N(0))                \
  X(103, HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED, N(0))         \
  X(104, HANDLE_TYPE_WIN32_HANDLE_SUPPORTED, N(0))                  \
  X(105, HANDLE_TYPE_WIN32_KMT_HANDLE_SUPPORTED, N(0))              \
  X(106, MAX_BLOCKS_PER_MULTIPROCESSOR, P(a->max_blocks_sm))        \
  X(107, GENERIC_COMPRESSION_SUPPORTED, N(0))                       \
  X(108, MAX_PERSISTING_L2_CACHE_SIZE, M(39321600, 0))              \
  X(109, MAX_ACCESS_POLICY_WINDOW_SIZE, M(134217728, 0))            \
  X(110, GPU_DIRECT_RDMA_WITH_CUDA_VMM_SUPPORTED, N(0))             \
  X(111, RESERVED_SHARED_MEMORY_PER_BLOCK, P(a->smem_reserved))     \
  X(112, SPARSE_CUDA_ARRAY_SUPPORTED, N(0))                         \
  X(113, READ_ONLY_HOST_REGISTER_SUPPORTED, N(0))                   \
  X(114, TIMELINE_SEMAPHORE_INTEROP_SUPPORTED, N(0))                \
  X(115, MEMORY_POOLS_SUPPORTED, N(1))                              \
  X(116, GPU_DIRECT_RDMA_SUPPORTED, N(0))                           \
  X(117, GPU_DIRECT_RDMA_FLUSH_WRITES_OPTIONS, N(0))                \
  X(118, GPU_DIRECT_RDMA_WRITES_ORDERING, N(0))                     \
  X(119, MEMPOOL_SUPPORTED_HANDLE_TYPES, N(0))                      \
  X(120, CLUSTER_LAUNCH, P(a->cc >= 90))                            \
  X(121, DEFERRED_MAPPING_CUDA_ARRAY_SUPPORTED, N(0))               \
  X(122, CAN_USE_64_BIT_STREAM_MEM_OPS, N(0))                       \
  X(123, CAN_USE_STREAM_WAIT_VALUE_NOR, N(0))                       \
  X(124, DMA_BUF_SUPPORTED, N(0))                                   \
  X(125, IPC_EVENT_SUPPORTED, N(0))                                 \
  X(126, MEM_SYNC_DOMAIN_COUNT, N(1))                               \
  X(127, TENSOR_MAP_ACCESS_SUPPORTED, P(a->cc >= 90))               \
  X(128, HANDLE_TYPE_FABRIC_SUPPORTED, N(0))                        \
  X(129, UNIFIED_FUNCTION_POINTERS, N(0))                           \
  X(130, NUMA_CONFIG, N(0))                                         \
  X(131, NUMA_ID, N(-1))                                            \
  X(132, MULTICAST_SUPPORTED, N(0))                                 \
  X(133, MPS_ENABLED, N(0))                                         \
  X(134, HOST_NUMA_ID, N(0))                                        \
  X(135, D3D12_CIG_SUPPORTED, N(0))                                 \
  X(136, MEM_DECOMPRESS_ALGORITHM_MASK, N(0))                       \
  X(137, MEM_DECOMPRESS_MAXIMUM_LENGTH, N(0))                       \
  X(138, VULKAN_CIG_SUPPORTED, N(0))                                \
  X(139, GPU_PCI_DEVICE_ID, M(590680286, 0))                        \
  X(140, GPU_PCI_SUBSYSTEM_ID, M(415174878, 0))                     \
  X(141, HOST_NUMA_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, N(0))       \
  X(142, HOST_NUMA_MEMORY_POOLS_SUPPORTED, N(0))                    \
  X(143, HOST_NUMA_MULTINODE_IPC_SUPPORTED, N(0))                   \
  X(144, HOST_MEMORY_POOLS_SUPPORTED, N(0))                         \
  X(145, HOST_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, N(0))            \
  X(146, HOST_ALLOC_DMA_BUF_SUPPORTED, N(0))                        \
  X(147, ONLY_PARTIAL_HOST_NATIVE_ATOMIC_SUPPORTED, N(0))          


long long rt_device_attribute(int id) {
  const Arch *a = rt_arch();
  ArchLimits L = rt_arch_limits();
  int h200 = !strcmp(a->name, "h200"), tex = a->cc >= 50;
  (void)h200, (void)tex;
  switch (id) {
#define P(v) return (long long)(v);
#define N(v) return (v);
#define M(v, other) return h200 ? (long long)(v) : (long long)(other);
#define T(v) return tex ? (v) : 0;
#define X(id, name, how) case id: how
    RT_DEVICE_ATTRS(X)
#undef X
#undef T
#undef M
#undef N
#undef P
  default: return 0; /* a newer driver's: nothing said */
  }
}
