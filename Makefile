# The two commands of the README:
#   make lab    set up, build, and run `warpmem lab` (simulation; no GPU needed)
#   make test   set up, build, and run every test (also under ASan+UBSan: make test-sanitize)
BUILD ?= build
JOBS ?= 2

.PHONY: all setup build lab test test-python test-sanitize bench bench-large bench-wgmma clean fuzz fuzz-smoke

all: build

setup:
	@scripts/setup.sh

build: setup
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

lab: build
	$(BUILD)/warpmem lab

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)
	@$(MAKE) --no-print-directory test-python

# The Python package (python/) on this build's libwarpmem_api.so, with pytest
# in the venv scripts/setup.sh makes (docs/python.md).  Not under the
# sanitizers: the ASan runtime must be the first library of a process, and
# Python is not built with it.
test-python: build
	WARPMEM_LIB=$(BUILD)/libwarpmem_api.so WARPMEM_CLI=$(BUILD)/warpmem PYTHONPATH=python \
	  .venv/bin/python -m pytest -q -p no:cacheprovider tests/python

test-sanitize: setup
	@cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DWARPMEM_SANITIZE=ON >/dev/null
	@cmake --build build-asan -j $(JOBS)
	cd build-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 WARPMEM_SANITIZED=1 ctest --output-on-failure -j $(JOBS)

# The 38 ground-truth launches: rates, stage shares, thread scaling
# (docs/performance.md); bench-large: launches of 1e10+ thread-instructions;
# bench-wgmma: the 2048^3 bf16 wgmma GEMM (issue 33: under a minute).
bench: build
	$(BUILD)/bench_sim

bench-large: build
	$(BUILD)/bench_sim --quick bench/ptx/large_kernels.ptx bench/large_kernels.cu

bench-wgmma: build
	$(BUILD)/bench_sim --quick bench/ptx/wgmma_kernels.ptx bench/wgmma_kernels.cu

# The libFuzzer harnesses of fuzz/ (clang; docs/fuzzing.md), built apart in
# build-fuzz; fuzz-smoke runs each FUZZ_SECONDS over its corpus (CI).
FUZZ_SECONDS ?= 30
fuzz:
	@scripts/setup.sh fuzz
	@cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Debug -DWARPMEM_FUZZ=ON >/dev/null
	@cmake --build build-fuzz -j $(JOBS) --target fuzzers

fuzz-smoke: fuzz
	fuzz/run.sh build-fuzz/fuzz $(FUZZ_SECONDS)

clean:
	rm -rf $(BUILD) build-asan build-fuzz
