# gpux: convenience wrapper around CMake. The build directory is $(BUILD) (default: build).
#
#   make demo      install missing Debian packages, build, run examples/matrix_add (auto backend)
#   make test      build, run every registered test on every backend (absent ones: skipped)
#   make info      build, run gpux-info
#   make bench     build, run gpux-bench at small sizes (BENCH_ARGS to change)
#   make install   install into $(PREFIX) (default /usr/local)
#   make clean     remove $(BUILD)
#
# Variables: BUILD, PREFIX, CMAKE_ARGS (extra configure options), JOBS, BENCH_ARGS.

BUILD      ?= build
PREFIX     ?= /usr/local
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE      ?= cmake
CTEST      ?= ctest
CMAKE_ARGS ?=
BENCH_ARGS ?= --op all --sizes 2^20,2^22 --reps 10

# pocl needs a writable kernel cache, or its device silently disappears.
POCL_CACHE_DIR ?= $(abspath $(BUILD))/pocl-cache
export POCL_CACHE_DIR

# Debian packages the build and the tests need (ninja-build is optional: make works too).
DEB_PACKAGES := cmake gcc pkg-config pocl-opencl-icd ocl-icd-opencl-dev opencl-c-headers \
                libclblast-dev libcmocka-dev
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
GENERATOR := $(shell command -v ninja >/dev/null 2>&1 && echo Ninja || echo "Unix Makefiles")

.PHONY: all demo test info bench install clean deps configure build

all: build

# Installs only what is missing; with everything present, apt-get is not run at all.
deps:
	@if ! command -v dpkg >/dev/null 2>&1; then \
	  echo "gpux: not a Debian system; install by hand: $(DEB_PACKAGES)"; exit 0; \
	fi; \
	missing=""; \
	for p in $(DEB_PACKAGES); do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; \
	done; \
	if ! dpkg -s ninja-build >/dev/null 2>&1 && ! command -v make >/dev/null 2>&1; then \
	  missing="$$missing ninja-build"; \
	fi; \
	if [ -n "$$missing" ]; then \
	  echo "gpux: installing Debian packages:$$missing"; \
	  if [ -n "$(SUDO)" ] && ! command -v sudo >/dev/null 2>&1; then \
	    echo "gpux: not root and no sudo: install them by hand"; exit 1; \
	  fi; \
	  $(SUDO) apt-get update && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y $$missing; \
	else \
	  echo "gpux: all Debian packages present"; \
	fi

# Configures on first use (the generator cannot change in an existing build directory);
# CMAKE_ARGS given later re-run the configuration with them.
configure:
	@if [ ! -f $(BUILD)/CMakeCache.txt ]; then \
	  echo '$(CMAKE) -S . -B $(BUILD) -G "$(GENERATOR)" -DCMAKE_BUILD_TYPE=Release $(CMAKE_ARGS)'; \
	  $(CMAKE) -S . -B $(BUILD) -G "$(GENERATOR)" -DCMAKE_BUILD_TYPE=Release $(CMAKE_ARGS); \
	elif [ -n "$(strip $(CMAKE_ARGS))" ]; then \
	  $(CMAKE) -S . -B $(BUILD) $(CMAKE_ARGS); \
	fi

build: configure
	$(CMAKE) --build $(BUILD) -j$(JOBS)
	@mkdir -p "$(POCL_CACHE_DIR)"

demo: deps
	@$(MAKE) --no-print-directory build
	@echo "gpux: running matrix_add (GPUX_BACKEND=$${GPUX_BACKEND:-auto})"
	$(BUILD)/bin/matrix_add

# pocl's kernel cache is primed from one process before the tests run in parallel: pocl 3.1
# was seen to abort (an assertion in pocl_llvm_build_program) when one process read a program
# from the cache while another was still writing it. The tests use $(BUILD)/pocl-cache.
test: deps
	@$(MAKE) --no-print-directory build
	-@GPUX_BACKEND=opencl POCL_CACHE_DIR="$(abspath $(BUILD))/pocl-cache" \
	  $(BUILD)/bin/vector_add >/dev/null 2>&1
	$(CTEST) --test-dir $(BUILD) --output-on-failure -j$(JOBS)

info: build
	$(BUILD)/bin/gpux-info

bench: build
	$(BUILD)/bin/gpux-bench $(BENCH_ARGS)

# The prefix is configured (not only passed to cmake --install) so that gpux.pc and the CMake
# package files name the directory the files are installed in.
install:
	@$(MAKE) --no-print-directory build CMAKE_ARGS='$(CMAKE_ARGS) -DCMAKE_INSTALL_PREFIX=$(abspath $(PREFIX))'
	$(CMAKE) --install $(BUILD)

clean:
	rm -rf $(BUILD)
