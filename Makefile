# libball — build, test, install. See README.md for the two commands that
# matter (make demo, make check).

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

B ?= build
LIB_SRC := $(wildcard libball/*.c libball/learn/*.c)
LIB_OBJ := $(LIB_SRC:libball/%.c=$(B)/obj/%.o)
TEST_SRC := $(wildcard tests/test_*.c)
TEST_BIN := $(TEST_SRC:tests/%.c=$(B)/tests/%)
EXAMPLE_SRC := $(wildcard examples/*.c)
# Code shared by several examples (e.g. simple players) lives in
# examples/common/ and is compiled into every example.
EXAMPLE_COMMON := $(wildcard examples/common/*.c)
EXAMPLE_BIN := $(EXAMPLE_SRC:examples/%.c=$(B)/examples/%)

.PHONY: all lib tool examples check test deps demo docs install uninstall clean bench

all: lib tool examples

lib: $(B)/libball.a $(B)/libball.so
tool: $(B)/bin/ball
examples: $(EXAMPLE_BIN)

$(B)/obj/%.o: libball/%.c $(wildcard libball/*.h libball/learn/*.h) include/ball.h
	@mkdir -p $(dir $@)
	$(CC) $(LIBFLAGS) $(CFLAGS) -c $< -o $@

$(B)/libball.a: $(LIB_OBJ)
	@mkdir -p $(B)
	rm -f $@
	$(AR) rcs $@ $^

$(B)/libball.so.$(VERSION): $(LIB_OBJ) libball/exports.map
	$(CC) -shared -Wl,-soname,$(SONAME) -Wl,--version-script,libball/exports.map -o $@ $(LIB_OBJ) $(LDFLAGS)

$(B)/libball.so: $(B)/libball.so.$(VERSION)
	ln -sf libball.so.$(VERSION) $(B)/$(SONAME)
	ln -sf $(SONAME) $@

# The command-line tool links the static library: it runs from the build
# tree without LD_LIBRARY_PATH.
$(B)/bin/ball: tools/ball.c examples/common/board.c examples/common/board.h $(B)/libball.a
	@mkdir -p $(dir $@)
	$(CC) $(BASEFLAGS) -Iexamples/common $(CFLAGS) -pthread $< examples/common/board.c $(B)/libball.a $(LDFLAGS) -o $@

# Examples link the shared library, found next to them through the rpath.
$(B)/examples/%: examples/%.c $(EXAMPLE_COMMON) $(wildcard examples/common/*.h) $(B)/libball.so
	@mkdir -p $(dir $@)
	$(CC) $(BASEFLAGS) -Iexamples/common $(CFLAGS) -pthread $< $(EXAMPLE_COMMON) -L$(B) -lball -Wl,-rpath,'$$ORIGIN/..' $(LDFLAGS) -o $@

demo: $(B)/examples/demo
	$(B)/examples/demo

# ---------------------------------------------------------------- tests
CHECK_CFLAGS = $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS   = $(shell pkg-config --libs check 2>/dev/null || echo -lcheck)

deps:
	@sh scripts/deps.sh tests

$(B)/tests/testutil.o: tests/testutil.c tests/testutil.h include/ball.h
	@mkdir -p $(dir $@)
	$(CC) $(BASEFLAGS) $(CFLAGS) $(CHECK_CFLAGS) -Wno-missing-prototypes -c $< -o $@

$(B)/tests/%: tests/%.c $(B)/tests/testutil.o $(B)/libball.a tests/testutil.h
	@mkdir -p $(dir $@)
	$(CC) $(BASEFLAGS) $(CFLAGS) $(CHECK_CFLAGS) -Wno-missing-prototypes $< $(B)/tests/testutil.o $(B)/libball.a $(CHECK_LIBS) $(LDFLAGS) -o $@

# `make check` first installs what the tests need (Check, pkg-config) when
# missing, then builds in a second make so that pkg-config is consulted
# after the install.
check: deps
	@$(MAKE) --no-print-directory test

test: all $(TEST_BIN)
	@B=$(B) sh scripts/run-tests.sh $(TEST_BIN)

# ---------------------------------------------------------------- docs
docs:
	@sh scripts/deps.sh doxygen:doxygen
	doxygen docs/Doxyfile

# ---------------------------------------------------------------- install
install: lib tool
	install -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCDIR) $(DESTDIR)$(PCDIR) $(DESTDIR)$(BINDIR) \
	           $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(DOCDIR)
	install -m 644 include/ball.h $(DESTDIR)$(INCDIR)/ball.h
	install -m 644 $(B)/libball.a $(DESTDIR)$(LIBDIR)/libball.a
	install -m 755 $(B)/libball.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libball.so.$(VERSION)
	ln -sf libball.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libball.so
	install -m 755 $(B)/bin/ball $(DESTDIR)$(BINDIR)/ball
	install -m 644 man/ball.1 $(DESTDIR)$(MANDIR)/man1/ball.1
	install -m 644 README.md docs/*.md $(DESTDIR)$(DOCDIR)/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
	    -e 's|@INCDIR@|$(INCDIR)|' -e 's|@VERSION@|$(VERSION)|' \
	    pkgconfig/libball.pc.in > $(DESTDIR)$(PCDIR)/libball.pc

uninstall:
	rm -f $(DESTDIR)$(INCDIR)/ball.h $(DESTDIR)$(LIBDIR)/libball.a \
	      $(DESTDIR)$(LIBDIR)/libball.so $(DESTDIR)$(LIBDIR)/$(SONAME) \
	      $(DESTDIR)$(LIBDIR)/libball.so.$(VERSION) \
	      $(DESTDIR)$(PCDIR)/libball.pc $(DESTDIR)$(BINDIR)/ball \
	      $(DESTDIR)$(MANDIR)/man1/ball.1
	rm -rf $(DESTDIR)$(DOCDIR)

clean:
	rm -rf $(B)

# Further targets (benchmarks, sanitizers, fuzzing, ABI, coverage) live in
# one fragment per concern.
include $(wildcard mk/*.mk)
