#!/usr/bin/env bash
# On the device machine, from the repository root (carry .gpu-debs):
#   OUT=... bash tools/gpu/queue_runs.sh
# groundtruth/queue_kernels.cu measured three times (set_runs.sh queue),
# for docs/results/h*-2026-11-27-queue: $OUT/queue-runs.tgz.
exec bash "$(dirname "$0")/set_runs.sh" queue
