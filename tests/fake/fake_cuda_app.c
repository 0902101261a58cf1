/* fake_cuda_app.c - an "application" that needs libcudart.so.13 (the fake
 * of fake_libcudart.c) for the tests of `warpmem run`: prints a line, then
 * exits with the status argv[1] gives (default 0); "_exit" as argv[2] ends
 * it without exit handlers, so no report is written. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int fake_cudart_hello(void);

int main(int argc, char **argv) {
  printf("fake app: runtime %d, %d argument(s)\n", fake_cudart_hello(), argc - 1);
  fflush(stdout);
  int status = argc > 1 ? atoi(argv[1]) : 0;
  if (argc > 2 && !strcmp(argv[2], "_exit")) _exit(status);
  return status;
}
