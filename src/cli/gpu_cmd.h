/* gpu_cmd.h - `warpmem gpu`: the GPU runner from the command line. */
#ifndef WM_GPU_CMD_H
#define WM_GPU_CMD_H

/* Exit status when no GPU can be used (no driver, no device, no cuBLAS),
 * apart from 1 (a run failed) and 2 (usage). */
#define CLI_EXIT_NO_GPU 3

int cli_gpu(int argc, char **argv);

#endif
