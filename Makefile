# A thin wrapper over CMake and ctest, so that a fresh Debian machine needs
# only `make run` or `make test`.
#
#   make / make build   configure and build into $(BUILD)
#   make run            build, then run the default benchmark in $(CLYDE_DIR)
#                       (default /tmp); override the options with RUN_ARGS=...
#   make test           everything CI checks: the full ctest suite with
#                       -Werror, unit tests and a smoke test under ASan+UBSan
#                       in a clang -Werror build, the clang-format check,
#                       shellcheck (when installed)
#   make check          only the full ctest suite in $(BUILD)
#   make format         reformat the C sources in place
#   make clean          remove the build directories

BUILD ?= build
ASAN_BUILD ?= build-asan
CLANG_BUILD ?= build-clang
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CTEST_JOBS ?= 2
# About a minute on a 2-core VM (40 s measured): a 2 GiB file, 32k small
# files, no RAM check (so the size is not raised to twice the RAM).
RUN_ARGS ?= -s 2g -n 32 -r 0
# The e2e test that also runs under the sanitizers.
ASAN_E2E ?= e2e/t_concurrency
# The sanitizer build is made with clang, so that the one build also checks
# that clang compiles the tree without a warning (make test then needs no
# third full build: `make clang`).  ASAN_CC=gcc for GCC's sanitizers.
ASAN_CC ?= clang

CMAKE ?= cmake
CTEST ?= ctest
CLANG_FORMAT ?= clang-format

C_SOURCES = $(shell find src tests/unit -name '*.[ch]' 2>/dev/null | sort)

.PHONY: all build run deps-build deps-test configure test check asan \
	clang format format-check shellcheck clean

all: build

deps-build:
	bash scripts/deps.sh build

deps-test:
	bash scripts/deps.sh test

# CMake re-runs itself when CMakeLists.txt changes; configuring again is
# cheap and picks up options given on the command line.
configure:
	$(CMAKE) -S . -B $(BUILD) $(CMAKE_ARGS)

build: configure
	$(CMAKE) --build $(BUILD) --parallel $(JOBS)

run: deps-build
	$(MAKE) --no-print-directory build
	./$(BUILD)/clyde -d "$${CLYDE_DIR:-/tmp}" $(RUN_ARGS)

# The full suite in $(BUILD), warnings as errors.
check:
	$(CMAKE) -S . -B $(BUILD) -DCLYDE_WERROR=ON $(CMAKE_ARGS)
	$(CMAKE) --build $(BUILD) --parallel $(JOBS)
	$(CTEST) --test-dir $(BUILD) --output-on-failure -j$(CTEST_JOBS)

# Unit tests and one end-to-end test under AddressSanitizer and UBSan,
# built by $(ASAN_CC) with warnings as errors (every target: the build is
# also the clang warning check).  CMAKE_C_COMPILER rather than CC, so that a
# build directory configured with another compiler is configured afresh.
asan:
	$(CMAKE) -S . -B $(ASAN_BUILD) -DCMAKE_C_COMPILER=$(ASAN_CC) \
		-DCLYDE_SANITIZE=ON -DCLYDE_WERROR=ON -DCMAKE_BUILD_TYPE=Debug
	$(CMAKE) --build $(ASAN_BUILD) --parallel $(JOBS)
	$(CTEST) --test-dir $(ASAN_BUILD) --output-on-failure -j$(CTEST_JOBS) \
		-R '^(unit/|$(ASAN_E2E)$$)'

# clang must compile the tree without a warning too (no tests run); make
# test checks it in the sanitizer build instead (ASAN_CC).
clang:
	CC=clang $(CMAKE) -S . -B $(CLANG_BUILD) -DCLYDE_WERROR=ON
	$(CMAKE) --build $(CLANG_BUILD) --parallel $(JOBS)

format-check:
	$(CLANG_FORMAT) --dry-run -Werror $(C_SOURCES)

# The shell scripts, when shellcheck is installed (it is optional).  One
# shellcheck on a CPU, 33 scripts at a time (four batches of the 131): one
# process for all took 47 s of CPU on one core while the other idled.
# Each batch parses the sourced tests/e2e/lib.sh again: 16 at a time took
# 76 s of CPU, 33 66 s; with one core taken by another process 55 s of
# wall time became 53 s and 46 s (2026-12-07, load 2).
SHELL_SCRIPTS = tests/e2e/*.sh tests/vm/*.sh scripts/*.sh bench/*.sh .ci/run
shellcheck:
	@if command -v shellcheck >/dev/null 2>&1; then \
		echo "shellcheck -x $(SHELL_SCRIPTS)"; \
		ls -d $(SHELL_SCRIPTS) | xargs -P $(JOBS) -n 33 shellcheck -x; \
	else \
		echo "shellcheck not installed: shell scripts not checked"; \
	fi

format:
	$(CLANG_FORMAT) -i $(C_SOURCES)

# Cheap checks first; the full ctest run last, so its summary closes the
# output.
test: deps-test
	$(MAKE) --no-print-directory format-check
	$(MAKE) --no-print-directory shellcheck
	$(MAKE) --no-print-directory asan
	$(MAKE) --no-print-directory check

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(CLANG_BUILD)
