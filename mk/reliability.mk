# Reliability gates (issue 6, "Reliability round 2"): fuzzing, sanitizers,
# valgrind, allocation failure, ABI, coverage. Included by the top-level
# Makefile; uses its B, CC, BASEFLAGS, LIB_SRC, TEST_BIN and VERSION. Each
# target installs the Debian packages it needs (scripts/deps.sh, as
# root) when they are missing. scripts/ci-reliability.sh runs the gates.
#
#   make fuzz            libFuzzer builds (clang, ASan+UBSan) in $(B)/fuzz/
#   make fuzz-run        run one of them: FUZZ_TARGET=bpn|action_text|actions|rules|diff|net
#                        FUZZ_SECONDS=600 (new inputs go to $(B)/fuzz/corpus-*)
#   make fuzz-merge      add the inputs of fuzz-run that bring new coverage
#                        to the committed corpus tests/fuzz/corpus/$(FUZZ_TARGET)
#   make fuzz-ci         every target FUZZ_CI_SECONDS (60) s from the committed
#                        corpus, FUZZ_CI_JOBS (2) at a time; fails on any
#                        finding; new inputs that add coverage go to
#                        $(B)/fuzz-ci/TARGET/to-commit/ (tests/fuzz/fuzz-ci.sh)
#   make fuzz-seeds      rewrite the generated seeds (tests/fuzz/gen_seeds.c)
#   make fuzz-replay     the targets built with $(CC) as plain programs that
#                        replay tests/fuzz/corpus/* (make check runs it through
#                        tests/fuzz/fuzz_replay_test.sh)
#   make fuzz-replay-asan  the same replay alone under ASan + UBSan (gcc), in
#                        $(FUZZ_ASAN_B) (build/fuzz-asan)
#   make check-asan      the whole suite under ASan + UBSan, in build/asan
#   make check-tsan      tests/tsan_stress.c and the tool's threaded perft
#                        under ThreadSanitizer, in $(B)/tsan
#   make check-valgrind  the Check programs under memcheck, CK_FORK=no
#   make check-malloc-fail  tests/malloc_fail.c: the N-th allocation of every
#                        allocating call fails, N = 1, 2, ... (under memcheck);
#                        every allocating export must be in its table
#                        (scripts/check-malloc-fail-table.sh)
#   make abi-check       abidiff of $(B)/libball.so against abi/libball.abi
#   make abi-baseline    regenerate abi/libball.abi (see docs/abi.md)
#   make coverage        line and branch coverage of libball/, in build/coverage;
#                        a ratchet: every uncovered line and branch outcome must
#                        be in tests/coverage-baseline.txt with a reason
#                        (COVERAGE_MIN_LINES / COVERAGE_MIN_BRANCHES: floors too)
#   make coverage-baseline  make coverage, then rewrite tests/coverage-baseline.txt
#   make coverage-report the report and ratchet again on the last run's counts
#
# check-asan and coverage run the suite in a mirror of the sources
# (scripts/in-build-tree.sh) whose build/ is ASAN_B / COV_B: these must be
# inside build/ (the mirror copies every other top-level entry) or outside
# the repository.

.PHONY: fuzz fuzz-run fuzz-merge fuzz-ci fuzz-seeds fuzz-replay fuzz-replay-asan check-asan check-valgrind \
        abi-check abi-baseline coverage coverage-baseline coverage-report check-tsan check-malloc-fail

REL_TOOLS := sh scripts/deps.sh
# Parallel builds inside the gates (the suite's tests run J at a time, as
# in make check).
REL_JOBS  ?= 2

# $(call cc_script,PATH,COMMAND): writes PATH, a one-word compiler that runs
# COMMAND with its arguments. The sanitizer and coverage builds pass it as
# CC: a CC of several words ("gcc --coverage") breaks the tests that quote
# "$$CC".
cc_script = mkdir -p $(dir $(1)) && printf '\043!/bin/sh\nexec %s "$$@"\n' '$(2)' >$(1) && chmod +x $(1)

# ---------------------------------------------------------------- fuzzing
FUZZ_NAMES  := bpn action_text actions rules diff net
FUZZ_DIR    := tests/fuzz
FUZZ_CORPUS := $(FUZZ_DIR)/corpus
FUZZ_HDR    := $(FUZZ_DIR)/fuzz_common.h
FUZZ_CC     ?= clang
FUZZ_SAN    := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_CFLAGS := -std=c11 -O1 -g -Wall -Wextra -Werror -Iinclude $(FUZZ_SAN)
FUZZ_OBJ    := $(LIB_SRC:libball/%.c=$(B)/fuzz/obj/%.o)
FUZZ_BIN    := $(FUZZ_NAMES:%=$(B)/fuzz/fuzz_%)
FUZZ_RT     := /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a

fuzz:
	@$(REL_TOOLS) clang:clang '$(FUZZ_RT):libclang-rt-dev'
	@$(MAKE) --no-print-directory -j$(REL_JOBS) $(FUZZ_BIN)

# The library is instrumented for coverage feedback too. Header
# dependencies as for the ordinary objects (DEPFLAGS, missing_dep).
$(B)/fuzz/obj/%.o: libball/%.c
	@mkdir -p $(dir $@)
	$(QUIET_CC)$(FUZZ_CC) $(FUZZ_CFLAGS) $(DEPFLAGS) -fsanitize=fuzzer-no-link -DBALL_BUILDING_LIBRARY -Ilibball -c $< -o $@
$(call missing_dep,$(FUZZ_OBJ)): .FORCE
-include $(FUZZ_OBJ:.o=.d)

# The targets' own checks are not instrumented for coverage: their
# comparisons would only slow the fuzzer down and mislead it.
$(B)/fuzz/%.o: $(FUZZ_DIR)/%.c $(FUZZ_HDR) include/ball.h
	@mkdir -p $(dir $@)
	$(QUIET_CC)$(FUZZ_CC) $(FUZZ_CFLAGS) -c $< -o $@

.SECONDARY: $(FUZZ_OBJ) $(FUZZ_NAMES:%=$(B)/fuzz/fuzz_%.o)
$(B)/fuzz/fuzz_%: $(B)/fuzz/fuzz_%.o $(FUZZ_OBJ)
	$(QUIET_LD)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $< $(FUZZ_OBJ) -o $@

FUZZ_TARGET  ?= bpn
FUZZ_SECONDS ?= 600
FUZZ_ARGS    ?=
# Decision streams: a few hundred decisions are enough to reach any kind
# of position; longer inputs only run slower.
FUZZ_ARGS_actions := -max_len=512
FUZZ_ARGS_diff    := -max_len=512
fuzz-run: fuzz
	@mkdir -p $(B)/fuzz/corpus-$(FUZZ_TARGET) $(B)/fuzz/artifacts
	$(B)/fuzz/fuzz_$(FUZZ_TARGET) -max_total_time=$(FUZZ_SECONDS) -dict=$(FUZZ_DIR)/ball.dict \
	    -artifact_prefix=$(B)/fuzz/artifacts/$(FUZZ_TARGET)- -print_final_stats=1 \
	    $(FUZZ_ARGS_$(FUZZ_TARGET)) $(FUZZ_ARGS) \
	    $(B)/fuzz/corpus-$(FUZZ_TARGET) $(FUZZ_CORPUS)/$(FUZZ_TARGET)

fuzz-merge: fuzz
	$(B)/fuzz/fuzz_$(FUZZ_TARGET) -merge=1 $(FUZZ_CORPUS)/$(FUZZ_TARGET) $(B)/fuzz/corpus-$(FUZZ_TARGET)

# Every target FUZZ_CI_SECONDS seconds from the committed corpus,
# FUZZ_CI_JOBS at a time; any finding fails (tests/fuzz/fuzz-ci.sh). New
# inputs that add coverage are merged into $(B)/fuzz-ci/TARGET/to-commit/,
# never into the committed corpus.
FUZZ_CI_SECONDS ?= 60
FUZZ_CI_JOBS    ?= 2
fuzz-ci: fuzz
	@FUZZ_CI_ARGS_actions="$(FUZZ_ARGS_actions)" FUZZ_CI_ARGS_diff="$(FUZZ_ARGS_diff)" \
	    sh $(FUZZ_DIR)/fuzz-ci.sh $(B) $(FUZZ_CI_SECONDS) $(FUZZ_CI_JOBS) $(FUZZ_NAMES)

# Corpus replay with the ordinary compiler and flags (CFLAGS/LDFLAGS carry
# the sanitizer or coverage flags in check-asan and coverage).
FUZZ_REPLAY_BIN := $(FUZZ_NAMES:%=$(B)/fuzz-replay/fuzz_%)

$(B)/fuzz-replay/fuzz_%: $(FUZZ_DIR)/fuzz_%.c $(FUZZ_DIR)/replay_main.c $(FUZZ_HDR) $(B)/libball.a
	@mkdir -p $(dir $@)
	$(QUIET_CCLD)$(CC) $(BASEFLAGS) $(CFLAGS) $< $(FUZZ_DIR)/replay_main.c $(B)/libball.a $(LDFLAGS) -o $@

# Regenerates the feature-picked seeds (tests/fuzz/gen_seeds.c); inputs
# that fuzzing found stay.
fuzz-seeds: $(B)/libball.a
	@mkdir -p $(B)/fuzz-seeds $(FUZZ_NAMES:%=$(FUZZ_CORPUS)/%)
	$(CC) $(BASEFLAGS) $(CFLAGS) $(FUZZ_DIR)/gen_seeds.c $(B)/libball.a $(LDFLAGS) -o $(B)/fuzz-seeds/gen_seeds
	$(B)/fuzz-seeds/gen_seeds $(FUZZ_CORPUS)

fuzz-replay: $(FUZZ_REPLAY_BIN)
	@for t in $(FUZZ_NAMES); do \
	    $(B)/fuzz-replay/fuzz_$$t $(FUZZ_CORPUS)/$$t || { echo "fuzz-replay: fuzz_$$t failed"; exit 1; }; \
	done

# The corpus replay alone under ASan + UBSan (gcc), in $(FUZZ_ASAN_B): what
# check-asan runs among the whole suite, in a minute. The targets hand
# every text to the library in a heap block of exactly its length plus
# one (fuzz_text(), fuzz_exact() in tests/fuzz/fuzz_common.h), so that a
# read past the terminating NUL is an ASan error. FUZZ_NAMES=bpn runs one.
# FUZZ_ASAN_OPT: the optimisation level (not -O0: libball/movegen.c's
# forced inlining under ASan then takes a quarter of an hour to compile).
FUZZ_ASAN_B   ?= build/fuzz-asan
FUZZ_ASAN_OPT ?= -O1
fuzz-replay-asan:
	@$(MAKE) --no-print-directory -j$(REL_JOBS) B=$(FUZZ_ASAN_B) CC=$(ASAN_CC) CFLAGS="$(ASAN_FLAGS)" \
	    LDFLAGS="$(ASAN_FLAGS)" FUZZ_NAMES="$(FUZZ_NAMES)" OPT=$(FUZZ_ASAN_OPT) $(FUZZ_NAMES:%=$(FUZZ_ASAN_B)/fuzz-replay/fuzz_%)
	@for t in $(FUZZ_NAMES); do \
	    $(ASAN_ENV) $(FUZZ_ASAN_B)/fuzz-replay/fuzz_$$t $(FUZZ_CORPUS)/$$t || { echo "fuzz-replay-asan: fuzz_$$t failed"; exit 1; }; \
	done

# ---------------------------------------------------------------- ASan + UBSan
# The whole suite (Check programs and tests/*/*_test.sh) against a sanitizer build
# in build/asan. The suite runs in a copy of the sources whose build/ is
# build/asan (scripts/in-build-tree.sh), so that the shell tests and the
# bindings, which use build/ paths, test the sanitizer build; python3 and
# luajit get the ASan runtime preloaded so that they can load the
# instrumented libball.so.
ASAN_B      ?= build/asan
ASAN_CC     := gcc
ASAN_FLAGS  := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
ASAN_ENV    := ASAN_OPTIONS=detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1 \
               UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

check-asan: deps
	@$(REL_TOOLS) $(ASAN_CC):$(ASAN_CC)
	@$(call cc_script,$(ASAN_B)/.cc/cc,$(ASAN_CC) $(ASAN_FLAGS))
	@sh scripts/in-build-tree.sh --preload "$$($(ASAN_CC) -print-file-name=libasan.so)" $(ASAN_B) \
	    env CC="$(abspath $(ASAN_B))/.cc/cc" CFLAGS="$(ASAN_FLAGS)" LDFLAGS="$(ASAN_FLAGS)" $(ASAN_ENV) \
	    $(MAKE) --no-print-directory -j$(REL_JOBS) B=build test

# ---------------------------------------------------------------- ThreadSanitizer
# The library, tests/tsan_stress.c (own games in several threads, one
# shared game cloned and read through const handles by several threads at
# once, one shared card set) and the command-line tool's threaded perft,
# all built with -fsanitize=thread in $(B)/tsan. Any race report fails.
# The tool is skipped, with a message, when tools/ball.c does not compile.
TSAN_B     := $(B)/tsan
TSAN_CC    ?= clang
# -DBALL_NO_CPU_DISPATCH: no ifunc resolver runs before the TSan runtime
# (GCC only, but harmless for clang).
TSAN_FLAGS := -fsanitize=thread -fno-omit-frame-pointer -DBALL_NO_CPU_DISPATCH
TSAN_ENV   := TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 history_size=4"
TSAN_THREADS ?= 4
TSAN_ROUNDS  ?= 1500
# setarch -R: clang 14's TSan cannot map its shadow under the 32-bit mmap
# randomisation of recent kernels ("unexpected memory mapping").
TSAN_RUN   := $(shell setarch -R true 2>/dev/null && echo setarch -R)

check-tsan:
	@$(REL_TOOLS) $(TSAN_CC):$(TSAN_CC) \
	    $(if $(filter clang%,$(TSAN_CC)),'/usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.tsan-x86_64.a:libclang-rt-dev','/usr/lib/x86_64-linux-gnu/libtsan.so.2:libtsan2')
	@$(MAKE) --no-print-directory -j$(REL_JOBS) B=$(TSAN_B) CC="$(TSAN_CC)" OPT=-O1 CFLAGS="$(TSAN_FLAGS)" \
	    LDFLAGS="$(TSAN_FLAGS)" $(TSAN_B)/libball.a
	$(TSAN_CC) $(BASEFLAGS:$(OPT)=-O1) $(TSAN_FLAGS) -pthread tests/tsan_stress.c $(TSAN_B)/libball.a \
	    $(TSAN_FLAGS) -o $(TSAN_B)/tsan_stress
	$(TSAN_ENV) $(TSAN_RUN) $(TSAN_B)/tsan_stress $(TSAN_THREADS) $(TSAN_ROUNDS)
	@if $(MAKE) --no-print-directory B=$(TSAN_B) CC="$(TSAN_CC)" OPT=-O1 CFLAGS="$(TSAN_FLAGS)" \
	        LDFLAGS="$(TSAN_FLAGS)" $(TSAN_B)/bin/ball >$(TSAN_B)/tool-build.log 2>&1; then \
	    echo "$(TSAN_B)/bin/ball perft --threads 2 4"; \
	    $(TSAN_ENV) $(TSAN_RUN) $(TSAN_B)/bin/ball perft --threads 2 4 || exit 1; \
	    $(TSAN_ENV) $(TSAN_RUN) $(TSAN_B)/bin/ball perft --threads 4 3 || exit 1; \
	else \
	    echo "check-tsan: SKIPPED the tool's threaded perft: tools/ball.c does not compile (see $(TSAN_B)/tool-build.log)"; \
	fi
	$(TSAN_CC) $(BASEFLAGS:$(OPT)=-O1) -Iexamples/common $(TSAN_FLAGS) -pthread examples/solve.c \
	    examples/common/args.c examples/common/board.c examples/common/players.c examples/common/sparring.c $(TSAN_B)/libball.a \
	    $(TSAN_FLAGS) -o $(TSAN_B)/solve
	@printf '#!/bin/sh\nexec $(TSAN_RUN) %s "$$@"\n' "$(abspath $(TSAN_B))/solve" >$(TSAN_B)/solve-run
	@chmod +x $(TSAN_B)/solve-run
	@echo "tests/tools/solve_test.sh with $(TSAN_B)/solve (solve --threads)"
	@$(MAKE) --no-print-directory B=$(TSAN_B) CC="$(TSAN_CC)" OPT=-O1 CFLAGS="$(TSAN_FLAGS)" \
	    LDFLAGS="$(TSAN_FLAGS)" $(TSAN_B)/bin/ball >/dev/null
	$(TSAN_ENV) BALL=$(abspath $(TSAN_B))/bin/ball SOLVE=$(abspath $(TSAN_B))/solve-run sh tests/tools/solve_test.sh
	@echo "check-tsan: no data race"

# ---------------------------------------------------------------- valgrind
# Every Check program of the ordinary build under memcheck, without fork,
# two at a time; any error or leak (definite, indirect, possible) fails.
# BALL_TEST_QUICK=1 shrinks the one long identity test (test_random_draw).
VALGRIND_FLAGS := --error-exitcode=99 --leak-check=full --show-leak-kinds=definite,indirect,possible \
                  --errors-for-leak-kinds=definite,indirect,possible --track-fds=no --quiet
VALGRIND_JOBS  ?= 2

check-valgrind: deps
	@$(REL_TOOLS) valgrind:valgrind
	@$(MAKE) --no-print-directory -j$(REL_JOBS) $(TEST_BIN)
	@mkdir -p $(B)/valgrind
	@printf '%s\n' $(TEST_BIN) | BALL_TEST_QUICK=1 CK_FORK=no xargs -P $(VALGRIND_JOBS) -I{} sh -c \
	    'log=$(B)/valgrind/$$(basename {}).log; \
	     if valgrind $(VALGRIND_FLAGS) --log-file=$$log {} >$$log.out 2>&1 && [ ! -s $$log ]; \
	     then echo "valgrind ok: {}"; \
	     else echo "VALGRIND FAILED: {}"; cat $$log.out $$log; exit 1; fi'
	@echo "check-valgrind: $(words $(TEST_BIN)) programs, no memcheck error, no leak"

# ---------------------------------------------------------------- allocation failure
# tests/malloc_fail.c wraps malloc, realloc, calloc and free (-Wl,--wrap)
# around the static library and makes the N-th allocation of every
# allocating call fail, N = 1, 2, ...: each must return BALL_E_NOMEM with
# nothing leaked or half-made. Run under memcheck for what its own counts
# cannot see.
MALLOC_FAIL_WRAP := -Wl,--wrap=malloc,--wrap=realloc,--wrap=calloc,--wrap=free

$(B)/tests/malloc_fail: tests/malloc_fail.c tests/crc32.h $(B)/libball.a include/ball.h
	@mkdir -p $(dir $@)
	$(QUIET_CCLD)$(CC) $(BASEFLAGS) $(CFLAGS) $< $(B)/libball.a $(LDFLAGS) $(MALLOC_FAIL_WRAP) -o $@

# scripts/check-malloc-fail-table.sh first: every exported function that the
# call graph of $(B)/libball.a shows reaching an allocation
# (scripts/alloc-entry-points.py) must be in the program's table of entry
# points, each of which it exercises.
check-malloc-fail: $(B)/tests/malloc_fail
	@$(REL_TOOLS) valgrind:valgrind python3:python3 objdump:binutils
	sh scripts/check-malloc-fail-table.sh $(B)/libball.a $(B)/tests/malloc_fail
	valgrind $(VALGRIND_FLAGS) $(B)/tests/malloc_fail

# ---------------------------------------------------------------- ABI
# abi/libball.abi is the ABI of the last release (abidw with the public
# headers). abidiff --no-added-syms exits 0 when functions were only
# added; a removed function sets bits 4|8, a changed one (parameter, return
# or public struct) bit 4: both fail. A function missing from the baseline
# passes only when it is new in the node of the header's version, one that
# the baseline does not have yet (scripts/abi-nodes.sh added): additions go
# through a minor release, never into a released node. The experimental
# tier (LIBBALL_EXPERIMENTAL) is left out of both (scripts/abi-nodes.sh
# suppressions). See docs/abi.md.
ABI_BASELINE := abi/libball.abi
ABI_SUPPR    := $(B)/abi-experimental.abignore
ABIDW_FLAGS  := --headers-dir include --no-corpus-path --no-comp-dir-path --short-locs

$(ABI_SUPPR): libball/exports.map scripts/abi-nodes.sh
	@mkdir -p $(dir $@)
	sh scripts/abi-nodes.sh suppressions >$@

abi-baseline: lib $(ABI_SUPPR)
	@$(REL_TOOLS) abidw:abigail-tools
	@mkdir -p $(dir $(ABI_BASELINE))
	abidw $(ABIDW_FLAGS) --suppressions $(ABI_SUPPR) --out-file $(ABI_BASELINE) $(B)/libball.so.$(VERSION)
	@echo "abi-baseline: wrote $(ABI_BASELINE) from $(B)/libball.so.$(VERSION)"

abi-check: lib $(ABI_SUPPR)
	@$(REL_TOOLS) abidiff:abigail-tools
	@test -f $(ABI_BASELINE) || { echo "abi-check: no $(ABI_BASELINE) (make abi-baseline)"; exit 1; }
	@abidiff --no-added-syms --headers-dir2 include --suppressions $(ABI_SUPPR) $(ABI_BASELINE) \
	    $(B)/libball.so.$(VERSION) >$(B)/abi-diff.txt 2>&1; rc=$$?; \
	if [ $$rc -eq 0 ]; then \
	    sh scripts/abi-nodes.sh added $(B)/libball.so.$(VERSION) $(ABI_BASELINE) || exit 1; \
	    echo "abi-check: $(B)/libball.so.$(VERSION) keeps every interface of $(ABI_BASELINE)"; \
	elif [ $$((rc & 3)) -ne 0 ]; then \
	    cat $(B)/abi-diff.txt; echo "abi-check: abidiff could not compare (exit $$rc)"; exit 1; \
	else \
	    cat $(B)/abi-diff.txt; \
	    echo "abi-check: FAILED: the ABI of $(B)/libball.so.$(VERSION) differs from $(ABI_BASELINE) (abidiff exit $$rc: removed or changed interfaces)."; \
	    echo "abi-check: an intended break needs a soname bump and a new baseline: see docs/abi.md"; exit 1; \
	fi

# ---------------------------------------------------------------- coverage
# gcc --coverage build without optimisation in build/coverage; runs the
# Check programs and the shell tests (in a mirror whose build/ is
# build/coverage), then reports line and branch coverage of libball/.
# Each line and branch is counted once, where it is written:
#  - no forced inlining: BALL_NO_FORCE_INLINE tells libball/movegen.c not
#    to force its HOT helpers inline; at -O0 nothing else is inlined, so
#    each helper is one function instead of a copy in each of its callers;
#  - no CPU dispatch: BALL_NO_CPU_DISPATCH compiles the generator's entry
#    points once instead of twice (target_clones), one copy never running.
# COVERAGE_MIN_LINES / COVERAGE_MIN_BRANCHES (percent) make it a gate.
COV_B     ?= build/coverage
# check: the ratchet of tests/coverage-baseline.txt (scripts/coverage-ratchet.py);
# update: rewrite it; off: none.
COVERAGE_RATCHET ?= check
# CC itself carries --coverage for tests that compile with $CC directly
# (tests/packaging/install_test.sh); --exclude-libs keeps libgcov's symbols out of
# libball.so's exports.
COV_CC    := gcc --coverage
COV_FLAGS := --coverage -DBALL_NO_FORCE_INLINE -DBALL_NO_CPU_DISPATCH

coverage: deps
	@$(REL_TOOLS) lcov:lcov gcov:gcc gcc:gcc python3:python3
	@rm -rf $(COV_B) $(COV_B)-tree
	@$(call cc_script,$(COV_B)/.cc/cc,$(COV_CC))
	@echo "coverage: the test suite and tests/malloc_fail.c, built with $(COV_CC) -O0 in $(COV_B) (log: $(COV_B).log)"
	@rc=0; sh scripts/in-build-tree.sh $(COV_B) \
	    env CC="$(abspath $(COV_B))/.cc/cc" CFLAGS="$(COV_FLAGS)" LDFLAGS="--coverage -Wl,--exclude-libs,ALL" OPT=-O0 \
	    sh -c '$(MAKE) --no-print-directory -j$(REL_JOBS) B=build test; a=$$?; \
	           $(MAKE) --no-print-directory B=build build/tests/malloc_fail && build/tests/malloc_fail; \
	           b=$$?; [ $$a -eq 0 ] && [ $$b -eq 0 ]' \
	    >$(COV_B).log 2>&1 || rc=$$?; \
	grep -E '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$$|^malloc_fail: ok' $(COV_B).log || tail -n 3 $(COV_B).log; \
	[ $$rc -eq 0 ] || { echo "coverage: the test suite failed (exit $$rc), see $(COV_B).log"; }; \
	COVERAGE_RATCHET="$(COVERAGE_RATCHET)" sh scripts/coverage-report.sh $(COV_B) || exit 1; \
	exit $$rc

# The whole coverage run, then tests/coverage-baseline.txt rewritten from
# it (reasons kept where the key matches; new entries say TODO, which
# make coverage refuses until each has its reason).
coverage-baseline:
	@$(MAKE) --no-print-directory coverage COVERAGE_RATCHET=update

# The report and the ratchet again on the counts of the last make coverage
# (after editing the baseline, say); COVERAGE_RATCHET=update rewrites it.
coverage-report:
	@test -d $(COV_B)/obj || { echo "coverage-report: no $(COV_B)/obj: run make coverage first"; exit 1; }
	@COVERAGE_RATCHET="$(COVERAGE_RATCHET)" sh scripts/coverage-report.sh $(COV_B)
