/* api_runtime_graph.c - CUDA graphs, the simple way execution allows here:
 * a graph is its nodes in the order they were added (each node's
 * dependencies come before it, so that order is a valid one), made by
 * stream capture or node by node; an executable graph is a copy of them,
 * and cudaGraphLaunch runs them one after another.  Kernel nodes keep their
 * parameter buffer, packed when the node is made, as CUDA does.  Memory
 * nodes: CUDA fixes an allocation node's address when the node is made and
 * keeps it for every launch, so the memory is allocated then and kept for
 * the process (a free node and cudaDeviceGraphMemTrim release nothing:
 * the graphs' copies may still launch). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "rt/api_runtime.h"

#define E(x) ((cudaError_t)(x))

typedef enum { GN_EMPTY, GN_KERNEL, GN_COPY, GN_COPY3D, GN_SET, GN_HOST, GN_EVENT, GN_ALLOC, GN_FREE } GraphNodeKind;

typedef struct GraphNode {
  GraphNodeKind kind;
  RtFunction *f;                  /* GN_KERNEL */
  RtLaunchConfig c;
  uint8_t *params;
  size_t size;
  void *dst;                      /* GN_COPY, GN_SET */
  const void *src;
  size_t n;
  struct cudaMemsetParams set;    /* GN_SET */
  struct cudaMemcpy3DParms copy;  /* GN_COPY3D */
  cudaHostFn_t fn;                /* GN_HOST */
  void *data;
  cudaEvent_t ev;                 /* GN_EVENT */
  struct cudaMemAllocNodeParams alloc; /* GN_ALLOC (dst: its memory); GN_FREE: dst */
} GraphNode;

struct CUgraph_st {
  GraphNode **node;
  int n, cap;
};

struct CUgraphExec_st {
  struct CUgraph_st g;
};

/* ---- nodes ---- */

static GraphNode *add_node(struct CUgraph_st *g, GraphNodeKind kind) {
  if (g->n == g->cap) {
    g->cap = g->cap ? 2 * g->cap : 16;
    GraphNode **grown = realloc(g->node, (size_t)g->cap * sizeof *grown);
    if (!grown) abort();
    g->node = grown;
  }
  GraphNode *nd = calloc(1, sizeof *nd);
  if (!nd) abort();
  nd->kind = kind;
  g->node[g->n++] = nd;
  return nd;
}

static void free_nodes(struct CUgraph_st *g) {
  for (int i = 0; i < g->n; i++) {
    free(g->node[i]->params);
    free(g->node[i]);
  }
  free(g->node);
  memset(g, 0, sizeof *g);
}

/* A kernel node: f's parameters packed now. */
static cudaError_t add_kernel(struct CUgraph_st *g, RtFunction *f, const RtLaunchConfig *c, void **args,
                              GraphNode **out) {
  RtFuncInfo in;
  RtError r = rt_function_info(f, &in);
  if (r) return E(r);
  uint8_t *params = calloc(in.param_size + 8, 1);
  if (!params) abort();
  if ((r = rt_function_pack(f, args, params, in.param_size))) {
    free(params);
    return E(r);
  }
  GraphNode *nd = add_node(g, GN_KERNEL);
  nd->f = f;
  nd->c = *c;
  nd->c.stream = NULL;
  nd->params = params;
  nd->size = in.param_size;
  if (out) *out = nd;
  return cudaSuccess;
}

/* cudaMemsetParams: elements of 1, 2 or 4 bytes over width x height. */
static cudaError_t run_set(const struct cudaMemsetParams *p) {
  size_t es = p->elementSize, rowb = p->width * es;
  if ((es != 1 && es != 2 && es != 4) || (p->height > 1 && p->pitch < rowb))
    return E(rt_set_last_error(RT_ERR_INVALID_VALUE));
  uint8_t *row = malloc(rowb ? rowb : 1);
  if (!row) abort();
  for (size_t x = 0; x < p->width; x++) memcpy(row + x * es, &p->value, es); /* little-endian: the low bytes */
  RtError r = RT_SUCCESS;
  for (size_t y = 0; y < p->height && !r; y++) r = rt_memcpy((char *)p->dst + y * p->pitch, row, rowb);
  free(row);
  return E(r);
}

static cudaError_t run_node(const GraphNode *nd) {
  switch (nd->kind) {
  case GN_KERNEL: return E(rt_launch_packed(nd->f, &nd->c, nd->params, nd->size));
  case GN_COPY: return E(rt_memcpy(nd->dst, nd->src, nd->n));
  case GN_COPY3D: return cudaMemcpy3D(&nd->copy);
  case GN_SET: return run_set(&nd->set);
  case GN_HOST: nd->fn(nd->data); return cudaSuccess;
  case GN_EVENT: return cudaEventRecord(nd->ev, NULL);
  default: return cudaSuccess;
  }
}

/* ---- stream capture ---- */

#define MAX_CAPTURES 64
static struct {
  cudaStream_t s;
  struct CUgraph_st *g;
} captures[MAX_CAPTURES];
static int ncaptures;
static pthread_mutex_t capture_lock = PTHREAD_MUTEX_INITIALIZER;

static struct CUgraph_st *capture_of(cudaStream_t s) {
  struct CUgraph_st *g = NULL;
  pthread_mutex_lock(&capture_lock);
  for (int i = 0; i < ncaptures && !g; i++)
    if (captures[i].s == s) g = captures[i].g;
  pthread_mutex_unlock(&capture_lock);
  return g;
}

int api_capturing(cudaStream_t s) { return ncaptures && capture_of(s); }

cudaError_t cudaStreamBeginCapture(cudaStream_t stream, enum cudaStreamCaptureMode mode) {
  RtError r = rt_stream_check((RtStream *)stream);
  if (r) return E(r);
  if (capture_of(stream) || ncaptures == MAX_CAPTURES) return E(rt_set_last_error(RT_ERR_INVALID_VALUE));
  struct CUgraph_st *g = calloc(1, sizeof *g);
  if (!g) abort();
  pthread_mutex_lock(&capture_lock);
  captures[ncaptures].s = stream;
  captures[ncaptures++].g = g;
  pthread_mutex_unlock(&capture_lock);
  return cudaSuccess;
}

cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *pGraph) {
  struct CUgraph_st *g = NULL;
  pthread_mutex_lock(&capture_lock);
  for (int i = 0; i < ncaptures && !g; i++)
    if (captures[i].s == stream) {
      g = captures[i].g;
      captures[i] = captures[--ncaptures];
    }
  pthread_mutex_unlock(&capture_lock);
  if (!g) return E(rt_set_last_error(RT_ERR_INVALID_VALUE)); /* cudaErrorIllegalState in CUDA */
  if (pGraph) *pGraph = g;
  else free_nodes(g), free(g);
  return cudaSuccess;
}

cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream, enum cudaStreamCaptureStatus *status, unsigned long long *id,
                                     cudaGraph_t *graph, const cudaGraphNode_t **deps, const cudaGraphEdgeData **edges,
                                     size_t *ndeps) {
  struct CUgraph_st *g = capture_of(stream);
  if (status) *status = g ? cudaStreamCaptureStatusActive : cudaStreamCaptureStatusNone;
  if (id) *id = (unsigned long long)(uintptr_t)g;
  if (graph) *graph = g;
  if (deps) *deps = NULL; /* nodes run in the order they were added: no edges to report */
  if (edges) *edges = NULL;
  if (ndeps) *ndeps = 0;
  return E(rt_stream_check((RtStream *)stream));
}

cudaError_t cudaStreamIsCapturing(cudaStream_t stream, enum cudaStreamCaptureStatus *pCaptureStatus) {
  if (pCaptureStatus) *pCaptureStatus = capture_of(stream) ? cudaStreamCaptureStatusActive : cudaStreamCaptureStatusNone;
  return E(rt_stream_check((RtStream *)stream));
}

cudaError_t api_capture_kernel(cudaStream_t s, RtFunction *f, const RtLaunchConfig *c, void **args) {
  return add_kernel(capture_of(s), f, c, args, NULL);
}

cudaError_t api_capture_copy(cudaStream_t s, void *dst, const void *src, size_t n) {
  GraphNode *nd = add_node(capture_of(s), GN_COPY);
  nd->dst = dst, nd->src = src, nd->n = n;
  return cudaSuccess;
}

cudaError_t api_capture_set(cudaStream_t s, void *dst, int value, size_t n) {
  GraphNode *nd = add_node(capture_of(s), GN_SET);
  nd->set = (struct cudaMemsetParams){.dst = dst, .value = (unsigned char)value, .elementSize = 1, .width = n,
                                      .height = 1, .pitch = n};
  return cudaSuccess;
}

cudaError_t api_capture_host(cudaStream_t s, cudaHostFn_t fn, void *data) {
  GraphNode *nd = add_node(capture_of(s), GN_HOST);
  nd->fn = fn, nd->data = data;
  return cudaSuccess;
}

cudaError_t api_capture_event(cudaStream_t s, cudaEvent_t ev) {
  add_node(capture_of(s), GN_EVENT)->ev = ev;
  return cudaSuccess;
}

/* ---- graphs made node by node ---- */

cudaError_t cudaGraphCreate(cudaGraph_t *pGraph, unsigned int flags) {
  if (!pGraph) return E(rt_set_last_error(RT_ERR_INVALID_VALUE));
  *pGraph = calloc(1, sizeof **pGraph);
  if (!*pGraph) abort();
  return cudaSuccess;
}

cudaError_t cudaGraphDestroy(cudaGraph_t graph) {
  if (!graph) return E(rt_set_last_error(RT_ERR_INVALID_VALUE));
  free_nodes(graph);
  free(graph);
  return cudaSuccess;
}

cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                                   size_t numDependencies, const struct cudaKernelNodeParams *p) {
  if (!graph || !p) return E(rt_set_last_error(RT_ERR_INVALID_VALUE));
  if (p->extra) return E(rt_unsupported("cudaGraphAddKernelNode (parameters in 'extra')"));
  RtFunction *f;
  RtError r = rt_function_by_host(p->func, &f);
  if (r) return E(r);
  RtLaunchConfig c = {.grid = {p->gridDim.x, p->gridDim.y, p->gridDim.z},
                      .block = {p->blockDim.x, p->blockDim.y, p->blockDim.z}, .smem = p->sharedMemBytes};
  GraphNode *nd = NULL;
  cudaError_t e = add_kernel(graph, f, &c, p->kernelParams, &nd);
  if (pGraphNode) *pGraphNode = (cudaGraphNode_t)nd;
  return e;
}

cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                                   size_t numDependencies, const struct cudaMemcpy3DParms *pCopyParams) {
  if (!graph || !pCopyParams) return E(rt_set_last_error(RT_ERR_INVALID_VALUE));
  GraphNode *nd = add_node(graph, GN_COPY3D);
  nd->copy = *pCopyParams;
  if (pGraphNode) *pGraphNode = (cudaGraphNode_t)nd;
  return cudaSuccess;
}

cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                     const cudaGraphNode_t *pDependencies, size_t numDependencies, void *dst,
                                     const void *src, size_t count, enum cudaMemcpyKind kind) {
  if (!graph) return E(rt_set_last_error(RT_ERR_INVALID_VALUE));
  GraphNode *nd = add_node(graph, GN_COPY);
  nd->dst = dst, nd->src = src, nd->n = count;
  if (pGraphNode) *pGraphNode = (cudaGraphNode_t)nd;
  return cudaSuccess;
}

cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                                   size_t numDependencies, const struct cudaMemsetParams *pMemsetParams) {
  if (!graph || !pMemsetParams) return E(rt_set_last_error(RT_ERR_INVALID_VALUE));
  GraphNode *nd = add_node(graph, GN_SET);
  nd->set = *pMemsetParams;
  if (nd->set.height == 0) nd->set.height = 1;
  if (pGraphNode) *pGraphNode = (cudaGraphNode_t)nd;
  return cudaSuccess;
}

cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                                 size_t numDependencies, const struct cudaHostNodeParams *pNodeParams) {
  if (!graph || !pNodeParams || !pNodeParams->fn) return E(rt_set_last_error(RT_ERR_INVALID_VALUE));
  GraphNode *nd = add_node(graph, GN_HOST);
  nd->fn = pNodeParams->fn, nd->data = pNodeParams->userData;
  if (pGraphNode) *pGraphNode = (cudaGraphNode_t)nd;
  return cudaSuccess;
}

cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                                  size_t numDependencies) {
  if (!graph) return E(rt_set_last_error(RT_ERR_INVALID_VALUE));
  GraphNode *nd = add_node(graph, GN_EMPTY);
  if (pGraphNode) *pGraphNode = (cudaGraphNode_t)nd;
  return cudaSuccess;
}

/* bytes the graphs' allocation nodes hold (cudaDeviceGetGraphMemAttribute) */
static uint64_t graph_mem;

cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                     const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                     struct cudaMemAllocNodeParams *nodeParams) {
  if (!graph || !nodeParams || !nodeParams->bytesize) return E(rt_set_last_error(RT_ERR_INVALID_VALUE));
  void *p = NULL;
  RtError r = rt_malloc(nodeParams->bytesize, RT_MEM_DEVICE, &p);
  if (r) return E(r);
  GraphNode *nd = add_node(graph, GN_ALLOC);
  nodeParams->dptr = nd->dst = p;
  nd->alloc = *nodeParams;
  graph_mem += nodeParams->bytesize;
  if (pGraphNode) *pGraphNode = (cudaGraphNode_t)nd;
  return cudaSuccess;
}

cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                                    size_t numDependencies, void *dptr) {
  if (!graph || !dptr) return E(rt_set_last_error(RT_ERR_INVALID_VALUE));
  GraphNode *nd = add_node(graph, GN_FREE);
  nd->dst = dptr;
  if (pGraphNode) *pGraphNode = (cudaGraphNode_t)nd;
  return cudaSuccess;
}

cudaError_t cudaGraphMemAllocNodeGetParams(cudaGraphNode_t node, struct cudaMemAllocNodeParams *params_out) {
  const GraphNode *nd = (const GraphNode *)node;
  if (!nd || !params_out || nd->kind != GN_ALLOC) return E(rt_set_last_error(RT_ERR_INVALID_VALUE));
  *params_out = nd->alloc;
  return cudaSuccess;
}

cudaError_t cudaGraphMemFreeNodeGetParams(cudaGraphNode_t node, void *dptr_out) {
  const GraphNode *nd = (const GraphNode *)node;
  if (!nd || !dptr_out || nd->kind != GN_FREE) return E(rt_set_last_error(RT_ERR_INVALID_VALUE));
  *(void **)dptr_out = nd->dst;
  return cudaSuccess;
}

cudaError_t cudaDeviceGraphMemTrim(int device) {
  return device == 0 ? cudaSuccess : E(rt_set_last_error(RT_ERR_INVALID_DEVICE));
}

/* Used and reserved bytes alike: what the allocation nodes hold. */
cudaError_t cudaDeviceGetGraphMemAttribute(int device, enum cudaGraphMemAttributeType attr, void *value) {
  if (device != 0) return E(rt_set_last_error(RT_ERR_INVALID_DEVICE));
  if (!value) return E(rt_set_last_error(RT_ERR_INVALID_VALUE));
  *(uint64_t *)value = graph_mem;
  return cudaSuccess;
}

cudaError_t cudaDeviceSetGraphMemAttribute(int device, enum cudaGraphMemAttributeType attr, void *value) {
  if (device != 0) return E(rt_set_last_error(RT_ERR_INVALID_DEVICE));
  return value ? cudaSuccess : E(rt_set_last_error(RT_ERR_INVALID_VALUE)); /* resetting the high watermarks */
}

cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *numNodes) {
  if (!graph || !numNodes) return E(rt_set_last_error(RT_ERR_INVALID_VALUE));
  if (nodes)
    for (size_t i = 0; i < *numNodes && i < (size_t)graph->n; i++) nodes[i] = (cudaGraphNode_t)graph->node[i];
  *numNodes = (size_t)graph->n;
  return cudaSuccess;
}

/* ---- executable graphs ---- */

/* Appends copies of src's nodes to dst (a kernel node's own parameters). */
static void copy_nodes(struct CUgraph_st *dst, const struct CUgraph_st *src) {
  for (int i = 0; i < src->n; i++) {
    GraphNode *nd = add_node(dst, src->node[i]->kind);
    *nd = *src->node[i];
    if (nd->params) {
      nd->params = malloc(nd->size + 8);
      if (!nd->params) abort();
      memcpy(nd->params, src->node[i]->params, nd->size);
    }
  }
}

cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph, unsigned long long flags) {
  if (!pGraphExec || !graph) return E(rt_set_last_error(RT_ERR_INVALID_VALUE));
  struct CUgraphExec_st *x = calloc(1, sizeof *x);
  if (!x) abort();
  copy_nodes(&x->g, graph); /* a copy: the graph may go first */
  *pGraphExec = x;
  return cudaSuccess;
}

cudaError_t cudaGraphClone(cudaGraph_t *pGraphClone, cudaGraph_t originalGraph) {
  if (!pGraphClone || !originalGraph) return E(rt_set_last_error(RT_ERR_INVALID_VALUE));
  struct CUgraph_st *g = calloc(1, sizeof *g);
  if (!g) abort();
  copy_nodes(g, originalGraph);
  *pGraphClone = g;
  return cudaSuccess;
}

/* The executable graph takes the new graph's nodes whole: its topology is
 * the order of its nodes here, so every update succeeds. */
cudaError_t cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph, cudaGraphExecUpdateResultInfo *info) {
  if (!hGraphExec || !hGraph) return E(rt_set_last_error(RT_ERR_INVALID_VALUE));
  free_nodes(&hGraphExec->g);
  copy_nodes(&hGraphExec->g, hGraph);
  if (info) memset(info, 0, sizeof *info); /* cudaGraphExecUpdateSuccess */
  return cudaSuccess;
}

cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, enum cudaGraphNodeType *pType) {
  static const enum cudaGraphNodeType type[] = {
    [GN_EMPTY] = cudaGraphNodeTypeEmpty, [GN_KERNEL] = cudaGraphNodeTypeKernel, [GN_COPY] = cudaGraphNodeTypeMemcpy,
    [GN_COPY3D] = cudaGraphNodeTypeMemcpy, [GN_SET] = cudaGraphNodeTypeMemset, [GN_HOST] = cudaGraphNodeTypeHost,
    [GN_EVENT] = cudaGraphNodeTypeEventRecord, [GN_ALLOC] = cudaGraphNodeTypeMemAlloc,
    [GN_FREE] = cudaGraphNodeTypeMemFree};
  if (!node || !pType) return E(rt_set_last_error(RT_ERR_INVALID_VALUE));
  *pType = type[((const GraphNode *)node)->kind];
  return cudaSuccess;
}

cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *pGraphExec, cudaGraph_t graph, unsigned long long flags) {
  return cudaGraphInstantiate(pGraphExec, graph, flags);
}

cudaError_t cudaGraphUpload(cudaGraphExec_t graphExec, cudaStream_t stream) {
  return graphExec ? cudaSuccess : E(rt_set_last_error(RT_ERR_INVALID_VALUE));
}

cudaError_t cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream) {
  if (!graphExec) return E(rt_set_last_error(RT_ERR_INVALID_VALUE));
  RtError r = rt_stream_check((RtStream *)stream);
  if (r) return E(r);
  for (int i = 0; i < graphExec->g.n; i++) {
    cudaError_t e = run_node(graphExec->g.node[i]);
    if (e) return e;
  }
  return cudaSuccess;
}

cudaError_t cudaGraphExecDestroy(cudaGraphExec_t graphExec) {
  if (!graphExec) return E(rt_set_last_error(RT_ERR_INVALID_VALUE));
  free_nodes(&graphExec->g);
  free(graphExec);
  return cudaSuccess;
}
