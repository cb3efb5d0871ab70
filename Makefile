# libball — build, test, install. See README.md for the two commands that
# matter (make demo, make check). Each step prints one short line
# ("  CC      build/obj/game.o"); make V=1 prints the whole commands.

CC      ?= cc
AR      ?= ar
PREFIX  ?= /usr/local
DESTDIR ?=
LIBDIR  ?= $(PREFIX)/lib
INCDIR  ?= $(PREFIX)/include
BINDIR  ?= $(PREFIX)/bin
PCDIR   ?= $(LIBDIR)/pkgconfig
MANDIR  ?= $(PREFIX)/share/man
DOCDIR  ?= $(PREFIX)/share/doc/libball
CMAKEDIR ?= $(LIBDIR)/cmake/libball
DATADIR ?= $(PREFIX)/share/libball

VERSION_MAJOR := $(shell sed -n 's/^\#define BALL_VERSION_MAJOR \([0-9]*\)/\1/p' include/ball.h)
VERSION_MINOR := $(shell sed -n 's/^\#define BALL_VERSION_MINOR \([0-9]*\)/\1/p' include/ball.h)
VERSION_PATCH := $(shell sed -n 's/^\#define BALL_VERSION_PATCH \([0-9]*\)/\1/p' include/ball.h)
VERSION := $(VERSION_MAJOR).$(VERSION_MINOR).$(VERSION_PATCH)
SONAME  := libball.so.$(VERSION_MAJOR)

# -O3: the generator and apply/undo are 5-10% faster than at -O2
# (docs/performance.md); coverage builds override it with -O0.
OPT      ?= -O3
# Warnings are errors in development and CI (`make WERROR=1 ...`, which
# .ci/run sets), never in a user's plain `make`: a newer compiler's new
# warning must not break their build.
WERROR   ?=
WARN     := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes $(if $(WERROR),-Werror)
CFLAGS   ?=
BASEFLAGS := -std=c11 $(OPT) -g $(WARN) -Iinclude
LIBFLAGS := $(BASEFLAGS) -fPIC -fvisibility=hidden -DBALL_BUILDING_LIBRARY -Ilibball

# Quiet output: one short line per step ("  CC      build/obj/board.o"),
# as in Linux's and git's Makefiles; `make V=1` prints the whole commands.
# Only the echo of the commands goes: warnings, errors and the output of
# what runs are printed either way.
V ?=
ifeq ($(V),1)
Q :=
else
Q := @
QUIET_CC   = @echo '  CC      $@';
QUIET_CCLD = @echo '  CCLD    $@';
QUIET_LD   = @echo '  LD      $@';
QUIET_AR   = @echo '  AR      $@';
QUIET_LN   = @echo '  LN      $@';
QUIET_GEN  = @echo '  GEN     $@';
endif

B ?= build
LIB_SRC := $(wildcard libball/*.c libball/*/*.c)
LIB_OBJ := $(LIB_SRC:libball/%.c=$(B)/obj/%.o)
# The tests, by kind (docs/testing.md): tests/KIND/test_*.c, the Check
# programs, built flat into $(B)/tests/ (their names are the tests'
# names), and tests/KIND/*_test.sh, the shell tests.
TEST_SRC := $(wildcard tests/*/test_*.c)
TEST_BIN := $(sort $(patsubst %.c,$(B)/tests/%,$(notdir $(TEST_SRC))))
vpath test_%.c $(sort $(dir $(TEST_SRC)))
EXAMPLE_SRC := $(wildcard examples/*.c)
# Code shared by several examples (e.g. simple players) lives in
# examples/common/ and is compiled into every example.
EXAMPLE_COMMON := $(wildcard examples/common/*.c)
EXAMPLE_BIN := $(EXAMPLE_SRC:examples/%.c=$(B)/examples/%)
# Examples installed with the tool (package ball-tools) as ball-play and
# ball-selfplay: a bare `play` would clash with sox's /usr/bin/play.
INSTALLED_EXAMPLES := play selfplay

.PHONY: all lib tool examples check test check-quick quick test-quick deps demo docs install uninstall clean bench
.PHONY: api-describe api-generate

all: api-generate lib tool examples

lib: $(B)/libball.a $(B)/libball.so
tool: $(B)/bin/ball $(INSTALLED_EXAMPLES:%=$(B)/bin/ball-%)
examples: $(EXAMPLE_BIN)

# Header dependencies: each compile lists the headers it read in a .d file
# beside its output (-MMD; -MP adds an empty rule per header, so that a
# removed header does not stop the build), read back at the end of this
# file. An object whose .d file is missing (built before, or the .d
# deleted) is compiled again once: $(call missing_dep,OBJECTS).
DEPFLAGS := -MMD -MP
missing_dep = $(foreach o,$(1),$(if $(wildcard $(o:.o=.d)),,$(o)))
.PHONY: .FORCE
.FORCE:

# Sources in subfolders of libball/ (libball/search/x.c) get objects in the
# same subfolders of $(B)/obj/.
$(B)/obj/%.o: libball/%.c
	@mkdir -p $(dir $@)
	$(QUIET_CC)$(CC) $(LIBFLAGS) $(DEPFLAGS) $(CFLAGS) -c $< -o $@
$(call missing_dep,$(LIB_OBJ)): .FORCE

$(B)/libball.a: $(LIB_OBJ)
	@mkdir -p $(B)
	$(Q)rm -f $@
	$(QUIET_AR)$(AR) rcs $@ $^

$(B)/libball.so.$(VERSION): $(LIB_OBJ) libball/exports.map
	$(QUIET_LD)$(CC) -shared -Wl,-soname,$(SONAME) -Wl,--version-script,libball/exports.map -o $@ $(LIB_OBJ) $(LDFLAGS)

$(B)/libball.so: $(B)/libball.so.$(VERSION)
	$(QUIET_LN)ln -sf libball.so.$(VERSION) $(B)/$(SONAME) && ln -sf $(SONAME) $@

# The command-line tool links the static library: it runs from the build
# tree without LD_LIBRARY_PATH.
# Its commands engine and match (BEP, docs/protocol.md) are files of their own.
TOOL_SRC := tools/ball.c $(filter-out tools/ball.c,$(wildcard tools/*.c))
$(B)/bin/ball: $(TOOL_SRC) $(wildcard tools/*.h) $(B)/libball.a
	@mkdir -p $(dir $@)
	$(QUIET_CCLD)$(CC) $(BASEFLAGS) $(CFLAGS) -pthread $(TOOL_SRC) $(B)/libball.a $(LDFLAGS) -lm -o $@

# The installed examples link the static library, as the tool does: no
# rpath, nothing to find at run time.
$(B)/bin/ball-%: examples/%.c $(EXAMPLE_COMMON) $(wildcard examples/common/*.h) $(B)/libball.a
	@mkdir -p $(dir $@)
	$(QUIET_CCLD)$(CC) $(BASEFLAGS) -Iexamples/common $(CFLAGS) -pthread $< $(EXAMPLE_COMMON) $(B)/libball.a $(LDFLAGS) -lm -o $@

# Examples link the shared library, found next to them through the rpath.
$(B)/examples/%: examples/%.c $(EXAMPLE_COMMON) $(wildcard examples/common/*.h) $(B)/libball.so
	@mkdir -p $(dir $@)
	$(QUIET_CCLD)$(CC) $(BASEFLAGS) -Iexamples/common $(CFLAGS) -pthread $< $(EXAMPLE_COMMON) -L$(B) -lball -Wl,-rpath,'$$ORIGIN/..' $(LDFLAGS) -o $@

demo: $(B)/examples/demo
	$(Q)$(B)/examples/demo

# ---------------------------------------------------------------- tests
CHECK_CFLAGS = $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS   = $(shell pkg-config --libs check 2>/dev/null || echo -lcheck)

deps:
	@sh scripts/deps.sh tests

$(B)/tests/testutil.o: tests/testutil.c
	@mkdir -p $(dir $@)
	$(QUIET_CC)$(CC) $(BASEFLAGS) $(DEPFLAGS) $(CFLAGS) $(CHECK_CFLAGS) -Wno-missing-prototypes -c $< -o $@
$(call missing_dep,$(B)/tests/testutil.o): .FORCE

# Compiled and linked in one step: -MF and -MT name the .d file and the
# target (the object is a temporary file here).
# A Check program tests/KIND/test_NAME.c (found through vpath) or another
# program of tests/ (malloc_fail.c, ...); -Itests for testutil.h.
$(B)/tests/test_%: test_%.c $(B)/tests/testutil.o $(B)/libball.a
	@mkdir -p $(dir $@)
	$(QUIET_CCLD)$(CC) $(BASEFLAGS) -Itests $(DEPFLAGS) -MF $@.d -MT $@ $(CFLAGS) $(CHECK_CFLAGS) -Wno-missing-prototypes $< $(B)/tests/testutil.o $(B)/libball.a $(CHECK_LIBS) $(LDFLAGS) -o $@
# The tests' sources before they moved into folders of their kind (issue
# 47): a build made then has .d files that name them; as -MP does for a
# removed header, a rule without recipe lets make rebuild instead of stop.
$(addprefix tests/,$(notdir $(TEST_SRC))): ; @:
$(B)/tests/%: tests/%.c $(B)/tests/testutil.o $(B)/libball.a
	@mkdir -p $(dir $@)
	$(QUIET_CCLD)$(CC) $(BASEFLAGS) $(DEPFLAGS) -MF $@.d -MT $@ $(CFLAGS) $(CHECK_CFLAGS) -Wno-missing-prototypes $< $(B)/tests/testutil.o $(B)/libball.a $(CHECK_LIBS) $(LDFLAGS) -o $@
$(foreach t,$(TEST_BIN),$(if $(wildcard $(t).d),,$(t))): .FORCE

# The suite: the Check programs and tests/*/*_test.sh, run by scripts/run-tests.sh
# (docs/testing.md), J at a time, each test's output in $(B)/test-logs/;
# it ends with the line "N passed, N failed, N skipped". A test that exits
# 77 is skipped (it prints "SKIP: reason"); under CI=true a skip fails the
# run unless tests/expected-skips lists it.
#   make check               installs what the tests need, builds, runs all
#   make check T=record      only the tests whose name contains "record"
#                            (several: T="record bpn")
#   make check J=1           one test at a time (default: one per processor)
#   make check-quick, quick  the Check programs and the fast shell tests
#                            (those not tagged "# run-tests: slow")
J ?= $(shell nproc 2>/dev/null || echo 1)
T ?=
# in the order of their names, as when they were all in tests/
TEST_SH := $(foreach n,$(sort $(notdir $(wildcard tests/*/*_test.sh))),$(wildcard tests/*/$(n)))
RUN_TESTS = B=$(B) J=$(J) T='$(T)' sh scripts/run-tests.sh

# `make check` first installs what the tests need (Check, pkg-config, ...)
# when missing, then builds in a second make so that pkg-config is
# consulted after the install.
check: deps
	@$(MAKE) --no-print-directory test

test: all $(TEST_BIN)
	@$(RUN_TESTS) $(TEST_BIN) $(TEST_SH)

check-quick: deps
	@$(MAKE) --no-print-directory test-quick

quick: check-quick

test-quick: all $(TEST_BIN)
	@QUICK=1 $(RUN_TESTS) $(TEST_BIN) $(TEST_SH)

# ---------------------------------------------------------------- docs
# The rules page's pictures (docs/rules.md: diagrams/*.svg) are copied
# beside the pages, where the generated <img src="diagrams/..."> points.
docs:
	@sh scripts/deps.sh doxygen:doxygen
	doxygen docs/Doxyfile
	mkdir -p build/docs/html/diagrams
	cp docs/diagrams/*.svg build/docs/html/diagrams/

# The public API of include/ball.h as one JSON description (functions,
# structs, enums, constants; scripts/api-describe.py), which
# tests/bindings/api_bindings_test.sh checks the bindings against.
api-describe: $(B)/api.json
$(B)/api.json: include/ball.h libball/exports.map scripts/api-describe.py
	$(QUIET_GEN)python3 scripts/api-describe.py -o $@

# The mechanical layer of the bindings, generated from the same description
# (scripts/api-generate.py: Python's ctypes table and structs, JavaScript's
# constants, struct layouts, wasm export list and raw declarations, Lua's
# constants). The files are committed, so that a build without python3 (a
# release tarball) has them; `make` regenerates them when the header
# changes, rewriting only those that differ, and
# tests/bindings/api_generate_test.sh fails on a stale one.
API_GENERATED := bindings/python/libball/_api.py bindings/js/_api.mjs bindings/js/_api.d.mts \
    bindings/js/emscripten/exports.json bindings/lua/c/ball_constants.h
api-generate: $(B)/api-generate.stamp
$(B)/api-generate.stamp: include/ball.h libball/exports.map scripts/api-describe.py scripts/api-generate.py
	@mkdir -p $(dir $@)
	$(QUIET_GEN)if command -v python3 >/dev/null 2>&1; then python3 scripts/api-generate.py; \
	else echo "api-generate: no python3: the committed $(API_GENERATED) are used as they are"; fi
	@touch $@
$(API_GENERATED): $(B)/api-generate.stamp ;

# ---------------------------------------------------------------- install
install: lib tool
	install -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCDIR) $(DESTDIR)$(PCDIR) $(DESTDIR)$(BINDIR) \
	           $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(DOCDIR)
	install -m 644 include/ball.h $(DESTDIR)$(INCDIR)/ball.h
	install -m 644 $(B)/libball.a $(DESTDIR)$(LIBDIR)/libball.a
	install -m 755 $(B)/libball.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libball.so.$(VERSION)
	ln -sf libball.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libball.so
	install -m 755 $(B)/bin/ball $(INSTALLED_EXAMPLES:%=$(B)/bin/ball-%) $(DESTDIR)$(BINDIR)/
	install -m 644 man/ball.1 $(INSTALLED_EXAMPLES:%=man/ball-%.1) $(DESTDIR)$(MANDIR)/man1/
	install -m 644 LICENSE README.md docs/*.md $(DESTDIR)$(DOCDIR)/
	install -d $(DESTDIR)$(DOCDIR)/diagrams
	install -m 644 docs/diagrams/*.svg $(DESTDIR)$(DOCDIR)/diagrams/
	install -d $(DESTDIR)$(DATADIR)
	install -m 644 share/openings.txt $(DESTDIR)$(DATADIR)/openings.txt
	install -m 644 share/net/value.net $(DESTDIR)$(DATADIR)/value.net
	install -m 644 share/net/nnue.net $(DESTDIR)$(DATADIR)/nnue.net
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
	    -e 's|@INCDIR@|$(INCDIR)|' -e 's|@VERSION@|$(VERSION)|' \
	    pkgconfig/libball.pc.in > $(DESTDIR)$(PCDIR)/libball.pc
	install -d $(DESTDIR)$(CMAKEDIR)
	for f in libballConfig libballConfigVersion; do \
	    sed -e 's|@VERSION@|$(VERSION)|g' -e 's|@VERSION_MAJOR@|$(VERSION_MAJOR)|g' \
	        -e "s|@LIBDIR_REL@|$$(realpath -m --relative-to='$(CMAKEDIR)' '$(LIBDIR)')|g" \
	        -e "s|@INCDIR_REL@|$$(realpath -m --relative-to='$(CMAKEDIR)' '$(INCDIR)')|g" \
	        cmake/$$f.cmake.in > $(DESTDIR)$(CMAKEDIR)/$$f.cmake || exit 1; \
	done

uninstall:
	rm -f $(DESTDIR)$(INCDIR)/ball.h $(DESTDIR)$(LIBDIR)/libball.a \
	      $(DESTDIR)$(LIBDIR)/libball.so $(DESTDIR)$(LIBDIR)/$(SONAME) \
	      $(DESTDIR)$(LIBDIR)/libball.so.$(VERSION) \
	      $(DESTDIR)$(PCDIR)/libball.pc $(DESTDIR)$(BINDIR)/ball \
	      $(INSTALLED_EXAMPLES:%=$(DESTDIR)$(BINDIR)/ball-%) \
	      $(DESTDIR)$(MANDIR)/man1/ball.1 $(INSTALLED_EXAMPLES:%=$(DESTDIR)$(MANDIR)/man1/ball-%.1) \
	      $(DESTDIR)$(CMAKEDIR)/libballConfig.cmake $(DESTDIR)$(CMAKEDIR)/libballConfigVersion.cmake
	rmdir $(DESTDIR)$(CMAKEDIR) 2>/dev/null || :
	rm -rf $(DESTDIR)$(DOCDIR)
	rm -f $(DESTDIR)$(DATADIR)/openings.txt $(DESTDIR)$(DATADIR)/value.net $(DESTDIR)$(DATADIR)/nnue.net
	rmdir $(DESTDIR)$(DATADIR) 2>/dev/null || :

clean:
	rm -rf $(B)

# The header dependencies written by -MMD (see DEPFLAGS).
-include $(LIB_OBJ:.o=.d) $(B)/tests/testutil.d $(TEST_BIN:=.d)

# Further targets (benchmarks, sanitizers, fuzzing, ABI, coverage) live in
# one fragment per concern.
include $(wildcard mk/*.mk)
