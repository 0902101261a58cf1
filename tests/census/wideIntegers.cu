// wideIntegers.cu - multi-word integer arithmetic as cryptography and
// big-number code writes it: __int128, 64-bit multiply-high, and 256-bit
// additions and products with carry chains (add.cc/addc, mad.lo.cc/madc)
// in inline PTX.
#include "census_common.h"

__global__ void mul_128(const unsigned long long *a, const unsigned long long *b, unsigned __int128 *prod, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) prod[i] = (unsigned __int128)a[i] * b[i] + (unsigned __int128)__umul64hi(a[i], b[i]);
}

__global__ void div_128(const __int128 *a, const long long *b, __int128 *q, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && b[i]) q[i] = a[i] / b[i] + (a[i] >> 70) + (a[i] << 3);
}

// r = a + b over 8 words
__global__ void add_256(const unsigned *a, const unsigned *b, unsigned *r) {
  const unsigned *x = a + 8 * threadIdx.x, *y = b + 8 * threadIdx.x;
  unsigned *z = r + 8 * threadIdx.x;
  asm("add.cc.u32 %0, %8, %16;\n\t"
      "addc.cc.u32 %1, %9, %17;\n\t"
      "addc.cc.u32 %2, %10, %18;\n\t"
      "addc.cc.u32 %3, %11, %19;\n\t"
      "addc.cc.u32 %4, %12, %20;\n\t"
      "addc.cc.u32 %5, %13, %21;\n\t"
      "addc.cc.u32 %6, %14, %22;\n\t"
      "addc.u32 %7, %15, %23;"
      : "=r"(z[0]), "=r"(z[1]), "=r"(z[2]), "=r"(z[3]), "=r"(z[4]), "=r"(z[5]), "=r"(z[6]), "=r"(z[7])
      : "r"(x[0]), "r"(x[1]), "r"(x[2]), "r"(x[3]), "r"(x[4]), "r"(x[5]), "r"(x[6]), "r"(x[7]), "r"(y[0]),
        "r"(y[1]), "r"(y[2]), "r"(y[3]), "r"(y[4]), "r"(y[5]), "r"(y[6]), "r"(y[7]));
}

// one row of a schoolbook product: acc += a * w (word by vector)
__global__ void mad_row(const unsigned *a, unsigned w, unsigned *acc) {
  unsigned *z = acc + 4 * threadIdx.x;
  const unsigned *x = a + 4 * threadIdx.x;
  unsigned lo0, lo1, lo2, lo3, carry;
  asm("mad.lo.cc.u32 %0, %5, %9, %10;\n\t"
      "madc.lo.cc.u32 %1, %6, %9, %11;\n\t"
      "madc.lo.cc.u32 %2, %7, %9, %12;\n\t"
      "madc.lo.cc.u32 %3, %8, %9, %13;\n\t"
      "addc.u32 %4, 0, 0;"
      : "=r"(lo0), "=r"(lo1), "=r"(lo2), "=r"(lo3), "=r"(carry)
      : "r"(x[0]), "r"(x[1]), "r"(x[2]), "r"(x[3]), "r"(w), "r"(z[0]), "r"(z[1]), "r"(z[2]), "r"(z[3]));
  z[0] = lo0, z[1] = lo1, z[2] = lo2, z[3] = lo3 + carry;
}
