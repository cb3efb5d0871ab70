#!/bin/sh
# Builds the fuzz targets for an outside fuzzing service, in the
# OSS-Fuzz / ClusterFuzzLite convention: the service sets
#   CC, CFLAGS           the compiler and its flags (sanitizer and
#                        coverage instrumentation, e.g.
#                        -fsanitize=address,fuzzer-no-link)
#   CXX, CXXFLAGS        used to link (the engines are C++); CC and CFLAGS
#                        when unset
#   LIB_FUZZING_ENGINE   the engine to link (e.g. -fsanitize=fuzzer, or
#                        the path of an AFL++ / honggfuzz driver library)
#   OUT                  where the fuzzers and their files go
# and runs this script (from a ClusterFuzzLite build.sh: `sh
# $SRC/libball/tests/fuzz/build.sh`). For every target tests/fuzz/fuzz_*.c
# it writes to $OUT:
#   fuzz_NAME                  the fuzzer (libball compiled in, with CFLAGS)
#   fuzz_NAME_seed_corpus.zip  the committed corpus tests/fuzz/corpus/NAME
#   fuzz_NAME.dict             the dictionary tests/fuzz/ball.dict
#   fuzz_NAME.options          libFuzzer options, where the target has some
#
# Try it locally:
#   CC=clang CFLAGS='-fsanitize=address,fuzzer-no-link' \
#   LIB_FUZZING_ENGINE=-fsanitize=fuzzer OUT=/tmp/out sh tests/fuzz/build.sh
set -eu
: "${CC:?set CC (e.g. clang)}"
: "${OUT:?set OUT (the output folder)}"
: "${LIB_FUZZING_ENGINE:?set LIB_FUZZING_ENGINE (e.g. -fsanitize=fuzzer)}"
CFLAGS=${CFLAGS:-}
LINK=${CXX:-$CC}
LINKFLAGS=${CXXFLAGS:-$CFLAGS}
root=$(cd "$(dirname "$0")/../.." && pwd)
fuzz=$root/tests/fuzz
work=${WORK:-$(mktemp -d)}
obj=$work/libball-fuzz-obj
rm -rf "$obj"
mkdir -p "$obj" "$OUT"
OUT=$(cd "$OUT" && pwd)

# The library, as a static archive built with the service's flags.
# shellcheck disable=SC2086 # CFLAGS are words
for src in "$root"/libball/*.c "$root"/libball/*/*.c; do
    $CC $CFLAGS -std=c11 -g -DBALL_BUILDING_LIBRARY -I"$root/include" -I"$root/libball" \
        -c "$src" -o "$obj/$(basename "$src" .c).o"
done
rm -f "$obj/libball.a"
${AR:-ar} rcs "$obj/libball.a" "$obj"/*.o

# Per-target libFuzzer options (the decision streams: see mk/reliability.mk).
options() {
    case $1 in
        actions | diff) printf '[libfuzzer]\nmax_len = 512\n' ;;
    esac
}

zip_corpus() { # DIR ZIP
    rm -f "$2"
    if command -v zip >/dev/null 2>&1; then
        (cd "$1" && zip -q -r -X "$2" .)
    else
        python3 - "$1" "$2" <<'EOF'
import os, sys, zipfile
src, dst = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as z:
    for name in sorted(os.listdir(src)):
        path = os.path.join(src, name)
        if os.path.isfile(path):
            z.write(path, name)
EOF
    fi
}

n=0
for src in "$fuzz"/fuzz_*.c; do
    name=$(basename "$src" .c)
    target=${name#fuzz_}
    # shellcheck disable=SC2086
    $CC $CFLAGS -std=c11 -g -I"$root/include" -c "$src" -o "$obj/$name.o"
    # shellcheck disable=SC2086
    $LINK $LINKFLAGS "$obj/$name.o" "$obj/libball.a" $LIB_FUZZING_ENGINE -o "$OUT/$name"
    if [ -d "$fuzz/corpus/$target" ]; then
        zip_corpus "$fuzz/corpus/$target" "$OUT/${name}_seed_corpus.zip"
    fi
    cp "$fuzz/ball.dict" "$OUT/$name.dict"
    opts=$(options "$target")
    if [ -n "$opts" ]; then
        printf '%s\n' "$opts" >"$OUT/$name.options"
    else
        rm -f "$OUT/$name.options"
    fi
    n=$((n + 1))
done
[ -n "${WORK:-}" ] || rm -rf "$work"
echo "tests/fuzz/build.sh: $n fuzzers in $OUT"
