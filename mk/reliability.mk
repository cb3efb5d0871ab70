# Reliability gates (issue 6): fuzzing, sanitizers, valgrind, ABI, coverage.
# Included by the top-level Makefile; uses its B, CC, BASEFLAGS, LIB_SRC,
# TEST_BIN and VERSION. Each target installs the Debian packages it needs
# (scripts/ensure-tools.sh, as root) when they are missing.
#
#   make fuzz            libFuzzer builds (clang, ASan+UBSan) in $(B)/fuzz/
#   make fuzz-run        run one of them: FUZZ_TARGET=bpn|action_text|actions
#                        FUZZ_SECONDS=600 (new inputs go to $(B)/fuzz/corpus-*)
#   make fuzz-merge      add the inputs of fuzz-run that bring new coverage
#                        to the committed corpus tests/fuzz/corpus/$(FUZZ_TARGET)
#   make fuzz-seeds      rewrite the generated seeds (tests/fuzz/gen_seeds.c)
#   make fuzz-replay     the targets built with $(CC) as plain programs that
#                        replay tests/fuzz/corpus/* (make check runs it through
#                        tests/fuzz_replay_test.sh)
#   make check-asan      the whole suite under ASan + UBSan, in build/asan
#   make check-valgrind  the Check programs under memcheck, CK_FORK=no
#   make abi-check       abidiff of $(B)/libball.so against abi/libball.abi
#   make abi-baseline    regenerate abi/libball.abi (see docs/abi.md)
#   make coverage        line and branch coverage of libball/, in build/coverage

.PHONY: fuzz fuzz-run fuzz-merge fuzz-seeds fuzz-replay check-asan check-valgrind \
        abi-check abi-baseline coverage

REL_TOOLS := sh scripts/ensure-tools.sh

# ---------------------------------------------------------------- fuzzing
FUZZ_NAMES  := bpn action_text actions
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
	@$(MAKE) --no-print-directory $(FUZZ_BIN)

# The library is instrumented for coverage feedback too.
$(B)/fuzz/obj/%.o: libball/%.c $(wildcard libball/*.h) include/ball.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -DBALL_BUILDING_LIBRARY -Ilibball -c $< -o $@

# The targets' own checks are not instrumented for coverage: their
# comparisons would only slow the fuzzer down and mislead it.
$(B)/fuzz/%.o: $(FUZZ_DIR)/%.c $(FUZZ_HDR) include/ball.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -c $< -o $@

.SECONDARY: $(FUZZ_OBJ) $(FUZZ_NAMES:%=$(B)/fuzz/fuzz_%.o)
$(B)/fuzz/fuzz_%: $(B)/fuzz/fuzz_%.o $(FUZZ_OBJ)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $< $(FUZZ_OBJ) -o $@

FUZZ_TARGET  ?= bpn
FUZZ_SECONDS ?= 600
FUZZ_ARGS    ?=
# A decision stream costs a full check per byte: keep inputs short.
FUZZ_ARGS_actions := -max_len=512
fuzz-run: fuzz
	@mkdir -p $(B)/fuzz/corpus-$(FUZZ_TARGET) $(B)/fuzz/artifacts
	$(B)/fuzz/fuzz_$(FUZZ_TARGET) -max_total_time=$(FUZZ_SECONDS) -dict=$(FUZZ_DIR)/ball.dict \
	    -artifact_prefix=$(B)/fuzz/artifacts/$(FUZZ_TARGET)- -print_final_stats=1 \
	    $(FUZZ_ARGS_$(FUZZ_TARGET)) $(FUZZ_ARGS) \
	    $(B)/fuzz/corpus-$(FUZZ_TARGET) $(FUZZ_CORPUS)/$(FUZZ_TARGET)

fuzz-merge: fuzz
	$(B)/fuzz/fuzz_$(FUZZ_TARGET) -merge=1 $(FUZZ_CORPUS)/$(FUZZ_TARGET) $(B)/fuzz/corpus-$(FUZZ_TARGET)

# Corpus replay with the ordinary compiler and flags (CFLAGS/LDFLAGS carry
# the sanitizer or coverage flags in check-asan and coverage).
FUZZ_REPLAY_BIN := $(FUZZ_NAMES:%=$(B)/fuzz-replay/fuzz_%)

$(B)/fuzz-replay/fuzz_%: $(FUZZ_DIR)/fuzz_%.c $(FUZZ_DIR)/replay_main.c $(FUZZ_HDR) $(B)/libball.a
	@mkdir -p $(dir $@)
	$(CC) $(BASEFLAGS) $(CFLAGS) $< $(FUZZ_DIR)/replay_main.c $(B)/libball.a $(LDFLAGS) -o $@

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

# ---------------------------------------------------------------- ASan + UBSan
# The whole suite (Check programs and tests/*.sh) against a sanitizer build
# in build/asan. The suite runs in a copy of the sources whose build/ is
# build/asan (scripts/in-build-tree.sh), so that the shell tests and the
# bindings, which use build/ paths, test the sanitizer build; python3 and
# luajit get the ASan runtime preloaded so that they can load the
# instrumented libball.so.
ASAN_B      := build/asan
ASAN_CC     := gcc
ASAN_FLAGS  := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
ASAN_ENV    := ASAN_OPTIONS=detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1 \
               UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

check-asan: deps
	@$(REL_TOOLS) $(ASAN_CC):$(ASAN_CC)
	@sh scripts/in-build-tree.sh --preload "$$($(ASAN_CC) -print-file-name=libasan.so)" $(ASAN_B) \
	    env CC="$(ASAN_CC) $(ASAN_FLAGS)" CFLAGS="$(ASAN_FLAGS)" LDFLAGS="$(ASAN_FLAGS)" $(ASAN_ENV) \
	    $(MAKE) --no-print-directory B=build test

# ---------------------------------------------------------------- valgrind
# Every Check program of the ordinary build under memcheck, without fork,
# two at a time; any error or leak (definite, indirect, possible) fails.
VALGRIND_FLAGS := --error-exitcode=99 --leak-check=full --show-leak-kinds=definite,indirect,possible \
                  --errors-for-leak-kinds=definite,indirect,possible --track-fds=no --quiet
VALGRIND_JOBS  ?= 2

check-valgrind: deps
	@$(REL_TOOLS) valgrind:valgrind
	@$(MAKE) --no-print-directory $(TEST_BIN)
	@mkdir -p $(B)/valgrind
	@printf '%s\n' $(TEST_BIN) | CK_FORK=no xargs -P $(VALGRIND_JOBS) -I{} sh -c \
	    'log=$(B)/valgrind/$$(basename {}).log; \
	     if valgrind $(VALGRIND_FLAGS) --log-file=$$log {} >$$log.out 2>&1 && [ ! -s $$log ]; \
	     then echo "valgrind ok: {}"; \
	     else echo "VALGRIND FAILED: {}"; cat $$log.out $$log; exit 1; fi'
	@echo "check-valgrind: $(words $(TEST_BIN)) programs, no memcheck error, no leak"

# ---------------------------------------------------------------- ABI
# abi/libball.abi is the ABI of the last release line (abidw with the public
# headers). abidiff --no-added-syms exits 0 when functions were only added;
# a removed function sets bits 4|8, a changed one (parameter, return or
# public struct) bit 4: both fail. See docs/abi.md.
ABI_BASELINE := abi/libball.abi
ABIDW_FLAGS  := --headers-dir include --no-corpus-path --no-comp-dir-path --short-locs

abi-baseline: lib
	@$(REL_TOOLS) abidw:abigail-tools
	@mkdir -p $(dir $(ABI_BASELINE))
	abidw $(ABIDW_FLAGS) --out-file $(ABI_BASELINE) $(B)/libball.so.$(VERSION)
	@echo "abi-baseline: wrote $(ABI_BASELINE) from $(B)/libball.so.$(VERSION)"

abi-check: lib
	@$(REL_TOOLS) abidiff:abigail-tools
	@test -f $(ABI_BASELINE) || { echo "abi-check: no $(ABI_BASELINE) (make abi-baseline)"; exit 1; }
	@abidiff --no-added-syms --headers-dir2 include $(ABI_BASELINE) $(B)/libball.so.$(VERSION) \
	    >$(B)/abi-diff.txt 2>&1; rc=$$?; \
	if [ $$rc -eq 0 ]; then \
	    added=$$(sed -n 's/.*(\([0-9]*\) filtered out) function.*/\1/p' $(B)/abi-diff.txt | head -n 1); \
	    echo "abi-check: $(B)/libball.so.$(VERSION) is compatible with $(ABI_BASELINE)$${added:+ ($$added added functions)}"; \
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
COV_B := build/coverage
# CC itself carries --coverage for tests that compile with $CC directly
# (tests/install_test.sh); --exclude-libs keeps libgcov's symbols out of
# libball.so's exports.
COV_CC := gcc --coverage

coverage: deps
	@$(REL_TOOLS) lcov:lcov gcov:gcc gcc:gcc
	@rm -rf $(COV_B) $(COV_B)-tree
	@rc=0; sh scripts/in-build-tree.sh $(COV_B) \
	    env CC="$(COV_CC)" CFLAGS="--coverage" LDFLAGS="--coverage -Wl,--exclude-libs,ALL" OPT=-O0 \
	    $(MAKE) --no-print-directory B=build test >$(COV_B).log 2>&1 || rc=$$?; \
	tail -n 1 $(COV_B).log; \
	[ $$rc -eq 0 ] || { echo "coverage: the test suite failed (exit $$rc), see $(COV_B).log"; }; \
	sh scripts/coverage-report.sh $(COV_B) || exit 1; \
	exit $$rc
