# tsumegen - top-level build.  `make` builds bin/tsumegen; `make test` runs every
# test; `make check` does the same under AddressSanitizer + UBSan; `make bench`.
CC      ?= cc
OPT     ?= -O2 -march=x86-64-v2
CFLAGS  ?= $(OPT) -fopenmp
WARN    := -std=c11 -Wall -Wextra -Werror -Wshadow -Wno-unused-function
CPPFLAGS += -Ibuild/gen -Icore -D_POSIX_C_SOURCE=200809L
LDLIBS  += -lm -pthread
BUILD   ?= build/rel
# OpenCL (tsumegen screen): used when the headers and the ICD loader are installed
# (Debian: opencl-headers ocl-icd-opencl-dev); OPENCL=0 forces the OpenMP-only build.
OPENCL  ?= $(if $(and $(wildcard /usr/include/CL/cl.h),$(filter /%,$(shell $(CC) -print-file-name=libOpenCL.so))),1,0)
ifeq ($(OPENCL),1)
CPPFLAGS += -DTG_HAVE_OPENCL
LDLIBS  += -lOpenCL
endif
BIN     ?= bin

CORE_SRC := $(wildcard core/*.c)
HOST_SRC := $(wildcard host/*.c)
LIB_SRC  := $(CORE_SRC) $(filter-out host/main.c,$(HOST_SRC))
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
TEST_SRC := $(wildcard tests/*.c)

.PHONY: all test check check-build variants bench fuzz clean
all: $(BIN)/tsumegen

build/gen/tables.inc: tools/gen_tables.c
	@mkdir -p build/gen
	$(CC) -O1 -o build/gen/gen_tables $<
	build/gen/gen_tables > $@.tmp && mv $@.tmp $@

# the kernel source with core/ inlined, and the default points weights, are
# embedded in the binary (tools/embed_cl.c), so it runs from any directory
build/gen/embed_cl: tools/embed_cl.c
	@mkdir -p build/gen
	$(CC) -O1 -o $@ $<

build/gen/screen_src.inc: build/gen/embed_cl kernels/screen.cl $(wildcard core/*.c core/*.h) build/gen/tables.inc
	build/gen/embed_cl SCREEN_CL_SRC kernels/screen.cl core build/gen > $@.tmp && mv $@.tmp $@

build/gen/screen_gen_src.inc: build/gen/embed_cl kernels/screen_gen.cl $(wildcard core/*.c core/*.h) build/gen/tables.inc
	build/gen/embed_cl SCREEN_GEN_CL_SRC kernels/screen_gen.cl core build/gen > $@.tmp && mv $@.tmp $@

build/gen/points_default.inc: build/gen/embed_cl data/points_default.txt
	build/gen/embed_cl POINTS_DEFAULT_TXT data/points_default.txt > $@.tmp && mv $@.tmp $@

$(BUILD)/host/ocl.o: build/gen/screen_src.inc
$(BUILD)/host/ocl_gen.o: build/gen/screen_gen_src.inc
build/gen/points_learned.inc: build/gen/embed_cl data/points_learned.txt
	build/gen/embed_cl POINTS_LEARNED_TXT data/points_learned.txt > $@.tmp && mv $@.tmp $@

$(BUILD)/host/screen.o: build/gen/points_default.inc build/gen/points_learned.inc

# The flags that built $(BUILD): a build dir made with other flags (another OPT, say)
# is rebuilt whole rather than linked from objects of both.
BUILD_FLAGS := $(CC) $(CPPFLAGS) $(WARN) $(CFLAGS) $(LDLIBS)
$(BUILD)/.flags: FORCE
	@mkdir -p $(BUILD)
	@echo '$(BUILD_FLAGS)' | cmp -s - $@ || echo '$(BUILD_FLAGS)' > $@
.PHONY: FORCE
FORCE:

$(BUILD)/%.o: %.c build/gen/tables.inc $(wildcard core/*.h host/*.h) $(BUILD)/.flags
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(WARN) $(CFLAGS) -c -o $@ $<

$(BIN)/tsumegen: $(LIB_OBJ) $(BUILD)/host/main.o
	@mkdir -p $(BIN)
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

$(BIN)/unit_tests: $(LIB_OBJ) $(TEST_SRC:%.c=$(BUILD)/%.o)
	@mkdir -p $(BIN)
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

# the fuzz target (tests/fuzz) replayed over its corpus by a plain main: the tests
# run it, under the sanitizers in `make check`
FUZZ_OBJ := $(BUILD)/tests/fuzz/fuzz_input.o
$(BUILD)/tests/fuzz/%.o: tests/fuzz/%.c build/gen/tables.inc $(wildcard core/*.h host/*.h) $(BUILD)/.flags
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Ihost $(WARN) $(CFLAGS) -c -o $@ $<

$(BIN)/fuzz_replay: $(LIB_OBJ) $(FUZZ_OBJ) $(BUILD)/tests/fuzz/replay.o
	@mkdir -p $(BIN)
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

test: $(BIN)/tsumegen $(BIN)/unit_tests $(BIN)/fuzz_replay
	BIN=$(BIN) bash tests/run_all.sh

SAN_VARS = BUILD=build/san BIN=bin/san OPT="-O2 -march=x86-64-v2 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all -DTG_DEBUG"
check:
	$(MAKE) test $(SAN_VARS)

# make check's binaries alone (run.sh test builds them before it runs the suites)
check-build:
	$(MAKE) $(SAN_VARS) bin/san/tsumegen bin/san/unit_tests bin/san/fuzz_replay

# gcc at -O3 and clang see warnings the default build does not (maybe-uninitialized,
# format truncation); -Werror makes each one a build failure here.  Built, not run.
variants:
	$(MAKE) BUILD=build/o3 BIN=bin/o3 OPT="-O3 -march=x86-64-v2" bin/o3/tsumegen bin/o3/unit_tests bin/o3/fuzz_replay
	$(MAKE) CC=clang BUILD=build/clang BIN=bin/clang bin/clang/tsumegen bin/clang/unit_tests bin/clang/fuzz_replay

# libFuzzer (clang): `make fuzz`, then bin/fuzz/fuzz_input CORPUS_DIR tests/fuzz/corpus
# (new inputs go to CORPUS_DIR; see tests/fuzz/README.md)
fuzz:
	$(MAKE) CC=clang BUILD=build/fuzz BIN=bin/fuzz OPT="-O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all -DTG_DEBUG" bin/fuzz/fuzz_input

bin/fuzz/fuzz_input: $(LIB_OBJ) $(FUZZ_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -fsanitize=fuzzer -o $@ $^ $(LDLIBS)

bench: $(BIN)/tsumegen
	$(BIN)/tsumegen bench

clean:
	rm -rf build bin
