# git ai-apply — build, test, demo.
#
#   make            build libaiapply.a and ./git-ai-apply
#   make test       install missing dependencies, run the whole suite,
#                   plain and under -fsanitize=address,undefined
#   make demo       apply the example answers in a throw-away repository
#   make SANITIZE=1 build into build-asan/ with the sanitizers
#                   (linked against the shared libraries)
#   make DYNAMIC=1  link the command against the shared libraries even
#                   where the static archives are installed (SHARED=1
#                   says the same); the default links them statically
#                   when libgit2.a is there (Documentation/building.md)
#   make doc        the manual git-ai-apply(1) and the formats page
#                   gitai-apply-formats(7), man pages and HTML, into
#                   $(B)/Documentation/
#                   (needs asciidoctor: make deps installs it)
#   make install    the command, its man page, completions (bash, zsh),
#                   contrib hooks and git-ai-apply-test-suggestions
#                   (contrib/test-suggestions.sh) under $(prefix) (default
#                   /usr/local), and
#                   the library: libaiapply.a, its headers (aiapply.h and
#                   aiapply/) and aiapply.pc for pkg-config;
#                   DESTDIR= for a staging root, NO_MAN=1 without the manual,
#                   NO_BUILD=1 to install what $(B) holds without rebuilding
#   make uninstall  removes what make install installed

CC ?= cc
PKGS = libgit2 yaml-0.1 libcjson libxxhash zlib
PROVE ?= prove
# Scripts and unit binaries run in parallel; each script has its own
# trash directory (t/test-lib.sh).
PROVE_JOBS ?= $(shell nproc 2>/dev/null || echo 2)
ASCIIDOCTOR ?= asciidoctor
INSTALL ?= install

prefix ?= /usr/local
exec_prefix ?= $(prefix)
bindir ?= $(exec_prefix)/bin
libdir ?= $(exec_prefix)/lib
includedir ?= $(prefix)/include
pkgconfigdir ?= $(libdir)/pkgconfig
datarootdir ?= $(prefix)/share
mandir ?= $(datarootdir)/man
man1dir ?= $(mandir)/man1
man7dir ?= $(mandir)/man7
htmldir ?= $(datarootdir)/doc/git-ai-apply
# bash-completion loads completions/git-ai-apply when git's own
# completion meets "git ai-apply" (its _completion_loader "git-<cmd>").
bashcompdir ?= $(datarootdir)/bash-completion/completions
zshcompdir ?= $(datarootdir)/zsh/site-functions
hooksdir ?= $(datarootdir)/git-ai-apply/hooks

ifeq ($(SANITIZE),1)
B ?= build-asan
SAN_FLAGS = -fsanitize=address,undefined -fno-sanitize-recover=undefined \
	    -fno-omit-frame-pointer
else
B ?= build
SAN_FLAGS =
endif

# The static build (Documentation/building.md "Static build"): the
# command links the static archive of each library where one is installed
# (libgit2.a decides: without it the build is shared), so the dynamic
# loader has only the C library to bring in. In the order a static link
# needs them: what a library uses comes after it.
STATIC_ORDER = git2 yaml xxhash mbedtls mbedx509 mbedcrypto http_parser \
	       ssh2 crypto pcre2-8 z cjson
archive = $(abspath $(filter /%,$(shell $(CC) -print-file-name=lib$(1).a 2>/dev/null)))
ifeq ($(SANITIZE)$(DYNAMIC)$(SHARED),)
STATIC := $(if $(call archive,git2),1)
endif

OPT ?= -O2 -g
AA_CFLAGS = -std=c11 -Wall -Wextra -MMD -MP -D_DEFAULT_SOURCE -D_POSIX_C_SOURCE=200809L \
	    -Iinclude -Isrc $(OPT) $(SAN_FLAGS) \
	    $(shell pkg-config --cflags $(PKGS) 2>/dev/null) $(CFLAGS)
AA_LDFLAGS = $(SAN_FLAGS) $(LDFLAGS)
# mbedTLS has no pkg-config file in Debian 12; libgit2-dev depends on
# libmbedtls-dev and libgit2 loads it anyway.
# libcrypto (OpenSSL): the SHA-1 trailers of the index and of the packs
# we write (issue 22; libssh2, which libgit2 loads, links it already).
AA_LIBS = $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lmbedcrypto -lcrypto $(LIBS)
TEST_LIBS = $(shell pkg-config --libs cmocka 2>/dev/null)

LIB_SRCS := $(filter-out src/cli/%,$(wildcard src/*/*.c))
LIB_OBJS := $(LIB_SRCS:%.c=$(B)/%.o)
# Linked into the command only, never into the library. no-gssapi.c
# stands for a library the static build does not link.
CMD_OBJS := $(patsubst %.c,$(B)/%.o,$(filter-out \
	$(if $(STATIC),,src/cli/no-gssapi.c),$(wildcard src/cli/*.c)))

# The command's libraries: each static archive found, else the shared
# library (Debian 12 packages no libcjson.a); the functions the no-*.c
# files replace are reached through --wrap (src/cli/stub-name.h).
ifeq ($(STATIC),1)
CMD_LIBS = $(foreach l,$(STATIC_ORDER),$(or $(call archive,$(l)),-l$(l))) \
	   -lrt -lpthread $(LIBS)
CMD_LDFLAGS = $(foreach f,mbedtls_x509_crt_parse_file libssh2_init \
	mbedtls_havege_init mbedtls_havege_poll,-Wl,--wrap=$(f))
AA_CFLAGS += -DAA_STATIC_LINK
else
CMD_LIBS = $(AA_LIBS)
CMD_LDFLAGS =
endif
UNIT_SRCS := $(wildcard t/unit/test-*.c)
UNIT_BINS := $(UNIT_SRCS:t/unit/%.c=$(B)/t/unit/%)
HOOKS := $(wildcard contrib/hooks/*)
# What a program embedding the library includes: include/ holds nothing else.
PUBLIC_HEADERS := $(wildcard include/aiapply/*.h)
MAN_SRC := Documentation/git-ai-apply.adoc
MAN_PAGE := $(B)/Documentation/git-ai-apply.1
MAN_HTML := $(B)/Documentation/git-ai-apply.html
# The formats page, gitai-apply-formats(7), and the list of formats both
# pages include: generated from the format table and the format pages.
FORMATS_SRC := Documentation/gitai-apply-formats.adoc
FORMATS_PAGE := $(B)/Documentation/gitai-apply-formats.7
FORMATS_HTML := $(B)/Documentation/gitai-apply-formats.html
FORMAT_LIST := $(B)/Documentation/format-list.adoc
AA_VERSION ?= $(shell git describe --always --dirty 2>/dev/null || echo unknown)

.PHONY: all deps test test-build test-run demo bench fuzz fuzz-long clean \
	doc man html install install-bin install-lib install-man install-html \
	uninstall FORCE

all: $(B)/git-ai-apply $(B)/libaiapply.ldflags $(if $(SANITIZE),,git-ai-apply)

# -MMD -MP: each object's header dependencies, written beside it.
# (The unit binaries' go to t/unit/deps/, out of the way of t/unit/test-*.)
-include $(wildcard $(B)/src/*.d $(B)/src/*/*.d $(B)/t/unit/deps/*.d)

# Objects are rebuilt when the flags change (another SANITIZE, CFLAGS).
$(B)/build-flags: FORCE
	@mkdir -p $(B)
	@echo 'v2 $(CC) $(AA_CFLAGS) | $(AA_LDFLAGS) $(CMD_LIBS) | $(AA_LIBS)' >$@.new
	@if cmp -s $@.new $@; then rm -f $@.new; else mv $@.new $@; fi

$(B)/%.o: %.c $(B)/build-flags
	@mkdir -p $(dir $@)
	$(CC) $(AA_CFLAGS) -c -o $@ $<

# The version (AA_VERSION) reaches the binary through cli.o alone, which
# is rebuilt when it changes (version-string is rewritten only then).
$(B)/version-string: FORCE
	@mkdir -p $(B)
	@echo '$(AA_VERSION)' >$@.new
	@if cmp -s $@.new $@; then rm -f $@.new; else mv $@.new $@; fi

$(B)/src/cli/cli.o: src/cli/cli.c $(B)/build-flags $(B)/version-string
	@mkdir -p $(dir $@)
	$(CC) $(AA_CFLAGS) -DAA_VERSION='"$(AA_VERSION)"' -c -o $@ $<

$(B)/libaiapply.a: $(LIB_OBJS)
	@rm -f $@
	ar rcs $@ $^

# The link flags the archive's objects need beside their libraries (the
# sanitizers'): make install writes them into aiapply.pc.
$(B)/libaiapply.ldflags: $(B)/build-flags
	@echo '$(SAN_FLAGS)' >$@

$(B)/git-ai-apply: $(CMD_OBJS) $(B)/libaiapply.a
	$(CC) $(AA_LDFLAGS) $(CMD_LDFLAGS) -o $@ $^ $(CMD_LIBS)

libaiapply.a: $(B)/libaiapply.a
	cp $< $@

git-ai-apply: $(B)/git-ai-apply libaiapply.a
	cp $< $@

$(B)/t/unit/%: t/unit/%.c $(B)/libaiapply.a $(B)/build-flags
	@mkdir -p $(dir $@)deps
	$(CC) $(AA_CFLAGS) -MF $(dir $@)deps/$*.d -It/unit $(AA_LDFLAGS) \
		-o $@ $< $(B)/libaiapply.a \
		$(AA_LIBS) $(TEST_LIBS)

deps:
	@sh contrib/install-deps.sh

test-build: all $(UNIT_BINS)

# Runs every unit binary and sharness script of one build through prove.
test-run: test-build
	AA_BUILD_DIR=$(abspath $(B)) $(PROVE) -j$(PROVE_JOBS) \
		--exec "$(abspath t/run-test.sh)" \
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

# The manual: Documentation/git-ai-apply.adoc, and the formats page
# Documentation/gitai-apply-formats.adoc; both include the list of formats
# Documentation/format-list.sh writes from src/format/registry.c.
doc: man html
man: $(MAN_PAGE) $(FORMATS_PAGE)
html: $(MAN_HTML) $(FORMATS_HTML)

NEED_ASCIIDOCTOR = @command -v $(ASCIIDOCTOR) >/dev/null 2>&1 || { \
	echo "asciidoctor is needed for the manual: make deps" \
	     "(or make install NO_MAN=1)" >&2; exit 1; }

$(FORMAT_LIST): Documentation/format-list.sh src/format/registry.c \
		$(wildcard Documentation/format-*.md)
	@mkdir -p $(dir $@)
	sh Documentation/format-list.sh . >$@.new && mv $@.new $@

ADOC_MAN = $(ASCIIDOCTOR) -b manpage -d manpage -a mansource=git-ai-apply \
	-a manversion=$(AA_VERSION) -a manmanual="Git Manual" \
	-a formatlist=$(abspath $(FORMAT_LIST))
ADOC_HTML = $(ASCIIDOCTOR) -b html5 -d manpage -a manversion=$(AA_VERSION) \
	-a formatlist=$(abspath $(FORMAT_LIST))

$(MAN_PAGE): $(MAN_SRC) $(FORMAT_LIST)
	@mkdir -p $(dir $@)
	$(NEED_ASCIIDOCTOR)
	$(ADOC_MAN) -o $@ $<

$(FORMATS_PAGE): $(FORMATS_SRC) $(FORMAT_LIST)
	@mkdir -p $(dir $@)
	$(NEED_ASCIIDOCTOR)
	$(ADOC_MAN) -o $@ $<

$(MAN_HTML): $(MAN_SRC) $(FORMAT_LIST)
	@mkdir -p $(dir $@)
	$(NEED_ASCIIDOCTOR)
	$(ADOC_HTML) -o $@ $<

$(FORMATS_HTML): $(FORMATS_SRC) $(FORMAT_LIST)
	@mkdir -p $(dir $@)
	$(NEED_ASCIIDOCTOR)
	$(ADOC_HTML) -o $@ $<

# Installs what is built; needs no network (make deps beforehand).
install: install-bin install-lib $(if $(NO_MAN),,install-man)

install-bin: $(if $(NO_BUILD),,all)
	$(INSTALL) -d -m 755 '$(DESTDIR)$(bindir)' '$(DESTDIR)$(bashcompdir)' \
		'$(DESTDIR)$(zshcompdir)'
	$(INSTALL) -m 755 $(B)/git-ai-apply '$(DESTDIR)$(bindir)/git-ai-apply'
	$(INSTALL) -m 755 contrib/test-suggestions.sh \
		'$(DESTDIR)$(bindir)/git-ai-apply-test-suggestions'
	$(INSTALL) -m 644 contrib/completion/git-ai-apply.bash \
		'$(DESTDIR)$(bashcompdir)/git-ai-apply'
	$(INSTALL) -m 644 contrib/completion/_git-ai-apply \
		'$(DESTDIR)$(zshcompdir)/_git-ai-apply'
ifneq ($(HOOKS),)
	$(INSTALL) -d -m 755 '$(DESTDIR)$(hooksdir)'
	$(INSTALL) -m 755 $(HOOKS) '$(DESTDIR)$(hooksdir)'
endif

# The library, its public headers and its pkg-config file.
install-lib: $(if $(NO_BUILD),,$(B)/libaiapply.a $(B)/libaiapply.ldflags)
	$(INSTALL) -d -m 755 '$(DESTDIR)$(libdir)' '$(DESTDIR)$(pkgconfigdir)' \
		'$(DESTDIR)$(includedir)/aiapply'
	$(INSTALL) -m 644 $(B)/libaiapply.a '$(DESTDIR)$(libdir)/libaiapply.a'
	$(INSTALL) -m 644 include/aiapply.h '$(DESTDIR)$(includedir)/aiapply.h'
	$(INSTALL) -m 644 $(PUBLIC_HEADERS) '$(DESTDIR)$(includedir)/aiapply'
	sed -e 's|@prefix@|$(prefix)|' -e 's|@exec_prefix@|$(exec_prefix)|' \
		-e 's|@libdir@|$(libdir)|' -e 's|@includedir@|$(includedir)|' \
		-e 's|@version@|$(AA_VERSION)|' \
		-e "s|@ldflags@|$$(cat $(B)/libaiapply.ldflags 2>/dev/null)|" \
		-e 's| *$$||' aiapply.pc.in >'$(DESTDIR)$(pkgconfigdir)/aiapply.pc'
	chmod 644 '$(DESTDIR)$(pkgconfigdir)/aiapply.pc'

install-man: $(MAN_PAGE) $(FORMATS_PAGE)
	$(INSTALL) -d -m 755 '$(DESTDIR)$(man1dir)' '$(DESTDIR)$(man7dir)'
	$(INSTALL) -m 644 $(MAN_PAGE) '$(DESTDIR)$(man1dir)/git-ai-apply.1'
	$(INSTALL) -m 644 $(FORMATS_PAGE) \
		'$(DESTDIR)$(man7dir)/gitai-apply-formats.7'

install-html: $(MAN_HTML) $(FORMATS_HTML)
	$(INSTALL) -d -m 755 '$(DESTDIR)$(htmldir)'
	$(INSTALL) -m 644 $(MAN_HTML) $(FORMATS_HTML) '$(DESTDIR)$(htmldir)'

uninstall:
	rm -f '$(DESTDIR)$(bindir)/git-ai-apply' \
		'$(DESTDIR)$(bindir)/git-ai-apply-test-suggestions' \
		'$(DESTDIR)$(man1dir)/git-ai-apply.1' \
		'$(DESTDIR)$(man7dir)/gitai-apply-formats.7' \
		'$(DESTDIR)$(htmldir)/git-ai-apply.html' \
		'$(DESTDIR)$(htmldir)/gitai-apply-formats.html' \
		'$(DESTDIR)$(bashcompdir)/git-ai-apply' \
		'$(DESTDIR)$(zshcompdir)/_git-ai-apply' \
		$(foreach h,$(HOOKS),'$(DESTDIR)$(hooksdir)/$(notdir $(h))') \
		'$(DESTDIR)$(libdir)/libaiapply.a' \
		'$(DESTDIR)$(pkgconfigdir)/aiapply.pc' \
		'$(DESTDIR)$(includedir)/aiapply.h' \
		$(foreach h,$(PUBLIC_HEADERS),'$(DESTDIR)$(includedir)/aiapply/$(notdir $(h))')
	@# the directories of our own, when empty
	@rmdir '$(DESTDIR)$(htmldir)' '$(DESTDIR)$(hooksdir)' \
		'$(DESTDIR)$(datarootdir)/git-ai-apply' \
		'$(DESTDIR)$(includedir)/aiapply' 2>/dev/null || :

clean:
	rm -rf build build-asan build-fuzz git-ai-apply libaiapply.a t/trash
