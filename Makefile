# git ai-apply — build, test, demo.
#
#   make            build libaiapply.a and ./git-ai-apply
#   make test       install missing dependencies, run the whole suite,
#                   plain and under -fsanitize=address,undefined
#   make demo       apply the example answers in a throw-away repository
#   make SANITIZE=1 build into build-asan/ with the sanitizers

CC ?= cc
PKGS = libgit2 yaml-0.1 libcjson libxxhash
PROVE ?= prove

ifeq ($(SANITIZE),1)
B ?= build-asan
SAN_FLAGS = -fsanitize=address,undefined -fno-sanitize-recover=undefined \
	    -fno-omit-frame-pointer
else
B ?= build
SAN_FLAGS =
endif

OPT ?= -O2 -g
AA_CFLAGS = -std=c11 -Wall -Wextra -D_DEFAULT_SOURCE -D_POSIX_C_SOURCE=200809L \
	    -Iinclude -Isrc $(OPT) $(SAN_FLAGS) \
	    $(shell pkg-config --cflags $(PKGS) 2>/dev/null) $(CFLAGS)
AA_LDFLAGS = $(SAN_FLAGS) $(LDFLAGS)
AA_LIBS = $(shell pkg-config --libs $(PKGS) 2>/dev/null) $(LIBS)
TEST_LIBS = $(shell pkg-config --libs cmocka 2>/dev/null)

LIB_SRCS := $(filter-out src/cli.c,$(wildcard src/*.c src/format/*.c))
LIB_OBJS := $(LIB_SRCS:%.c=$(B)/%.o)
UNIT_SRCS := $(wildcard t/unit/test-*.c)
UNIT_BINS := $(UNIT_SRCS:t/unit/%.c=$(B)/t/unit/%)
HEADERS := $(wildcard include/*.h include/aiapply/*.h src/*.h src/format/*.h)

.PHONY: all deps test test-build test-run demo bench fuzz fuzz-long clean

all: $(B)/git-ai-apply $(if $(SANITIZE),,git-ai-apply)

$(B)/%.o: %.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(AA_CFLAGS) -c -o $@ $<

$(B)/libaiapply.a: $(LIB_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(B)/git-ai-apply: $(B)/src/cli.o $(B)/libaiapply.a
	$(CC) $(AA_LDFLAGS) -o $@ $^ $(AA_LIBS)

libaiapply.a: $(B)/libaiapply.a
	cp $< $@

git-ai-apply: $(B)/git-ai-apply libaiapply.a
	cp $< $@

$(B)/t/unit/%: t/unit/%.c t/unit/unit.h $(B)/libaiapply.a
	@mkdir -p $(dir $@)
	$(CC) $(AA_CFLAGS) -It/unit $(AA_LDFLAGS) -o $@ $< $(B)/libaiapply.a \
		$(AA_LIBS) $(TEST_LIBS)

deps:
	@sh contrib/install-deps.sh

test-build: all $(UNIT_BINS)

# Runs every unit binary and sharness script of one build through prove.
test-run: test-build
	AA_BUILD_DIR=$(abspath $(B)) $(PROVE) --exec "$(abspath t/run-test.sh)" \
		$(UNIT_BINS) $(sort $(wildcard t/t[0-9]*.sh))

test: deps
	$(MAKE) test-run
	$(MAKE) SANITIZE=1 test-run

demo: deps
	$(MAKE) all
	sh contrib/demo.sh

bench: deps
	$(MAKE) all
	sh bench/run.sh

# libFuzzer targets (clang) in build-fuzz/; see contrib/fuzz/README.
# Both skip with a message when clang is missing.
fuzz: deps
	sh contrib/fuzz/build.sh

# Every parser target in turn, FUZZ_RUNS (10^7) runs or FUZZ_TIME s each.
fuzz-long: fuzz
	FUZZ_RUNS="$(FUZZ_RUNS)" FUZZ_TIME="$(FUZZ_TIME)" sh contrib/fuzz/run.sh

clean:
	rm -rf build build-asan build-fuzz git-ai-apply libaiapply.a t/trash
