# Sourced by the shell tests that cannot test an instrumented build of the
# suite (make check-asan, make coverage: CC/CFLAGS carry -fsanitize= or
# --coverage), because what they run does not use that build: pip or
# dpkg compiles its own library, emscripten builds the WebAssembly one, or
# Debian's python3 cannot load a sanitized library without the sanitizer's
# runtime preloaded. tests/expected-skips lists each such skip.
#
# skip_if_instrumented KIND REASON: exits 77 (skipped) with "SKIP: REASON"
# when the build is instrumented. KIND is "sanitizer" (sanitizer builds
# only: the test still counts toward coverage) or "any" (sanitizer and
# coverage builds).
skip_if_instrumented() {
    case " ${CC:-} ${CFLAGS:-} " in
        *-fsanitize=*) echo "SKIP: sanitizer build ($2)"; exit 77 ;;
        *--coverage*)
            if [ "$1" = any ]; then
                echo "SKIP: coverage build ($2)"
                exit 77
            fi ;;
    esac
}
