// probe_run: launches every //@ line of a kernels file once, buffers
// zero-filled, so that Nsight Compute can measure each launch:
//   nvcc -O3 -arch=sm_90 -lineinfo -I ../../groundtruth -o probe_run probe_run.cu
//   ncu --metrics ... --csv --page raw ./probe_run ../../groundtruth/probe_kernels.cu
// (run_on_gpu.sh does both; the kernels are groundtruth/probe_kernels.cu)
// Kernels are looked up by name in the table below.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "probe_kernels.cu"

static const struct { const char *name; const void *fn; } kernels[] = {
  {"sh64", (const void *)sh64},       {"sh128", (const void *)sh128},
  {"shatom", (const void *)shatom},   {"gatom", (const void *)gatom},
  {"gred", (const void *)gred},       {"local64", (const void *)local64},
  {"gvec4", (const void *)gvec4},     {"gvec2", (const void *)gvec2},
  {"partial", (const void *)partial}, {"local128", (const void *)local128},
};

static size_t type_size(const std::string &t) {
  if (t == "i8" || t == "u8") return 1;
  if (t == "i16" || t == "u16") return 2;
  if (t == "i64" || t == "u64" || t == "f64") return 8;
  return 4;
}

static void dims(const std::string &s, dim3 &d) {
  unsigned v[3] = {1, 1, 1};
  sscanf(s.c_str(), "%u,%u,%u", &v[0], &v[1], &v[2]);
  d = dim3(v[0], v[1], v[2]);
}

int main(int argc, char **argv) {
  std::ifstream f(argc > 1 ? argv[1] : "probe_kernels.cu");
  std::string line;
  int failures = 0;
  while (std::getline(f, line)) {
    if (line.rfind("//@ ", 0) != 0) continue;
    std::istringstream in(line.substr(4));
    std::string label, tok, name;
    in >> label;
    name = label.substr(0, label.find('#'));
    dim3 grid, block;
    unsigned smem = 0;
    std::vector<std::string> args;
    while (in >> tok) {
      if (tok.rfind("grid=", 0) == 0) dims(tok.substr(5), grid);
      else if (tok.rfind("block=", 0) == 0) dims(tok.substr(6), block);
      else if (tok.rfind("smem=", 0) == 0) smem = (unsigned)atoi(tok.c_str() + 5);
      else if (tok.rfind("args=", 0) == 0) {
        std::istringstream a(tok.substr(5));
        std::string x;
        while (std::getline(a, x, ',')) args.push_back(x);
      }
    }
    const void *fn = nullptr;
    for (auto &k : kernels)
      if (name == k.name) fn = k.fn;
    if (!fn) { fprintf(stderr, "%s: no kernel %s in the table\n", label.c_str(), name.c_str()); failures++; continue; }
    std::vector<unsigned long long> vals(args.size());
    std::vector<void *> ptrs(args.size()), bufs;
    for (size_t i = 0; i < args.size(); i++) {
      const std::string &a = args[i];
      if (a.rfind("buf:", 0) == 0) {
        size_t c1 = a.find(':', 4);
        std::string t = a.substr(4, c1 - 4);
        size_t n = strtoull(a.c_str() + c1 + 1, nullptr, 10) * type_size(t);
        void *p = nullptr;
        cudaMalloc(&p, n);
        cudaMemset(p, 0, n);
        bufs.push_back(p);
        vals[i] = (unsigned long long)(uintptr_t)p;
      } else {
        std::string t = a.substr(0, a.find(':')), v = a.substr(a.find(':') + 1);
        if (t == "f32") { float x = strtof(v.c_str(), nullptr); memcpy(&vals[i], &x, 4); }
        else if (t == "f64") { double x = strtod(v.c_str(), nullptr); memcpy(&vals[i], &x, 8); }
        else vals[i] = strtoull(v.c_str(), nullptr, 0);
      }
      ptrs[i] = &vals[i];
    }
    cudaError_t e = cudaLaunchKernel(fn, grid, block, ptrs.data(), smem, 0);
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    printf("%-24s %s\n", label.c_str(), cudaGetErrorString(e));
    if (e != cudaSuccess) failures++;
    for (void *p : bufs) cudaFree(p);
  }
  return failures ? 1 : 0;
}
