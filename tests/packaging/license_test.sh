#!/bin/sh
# The license (issue 24): LICENSE at the top is the MIT license; every
# source file of libball/, include/, tools/, examples/ and bindings/ (C,
# headers, Python, Lua, JavaScript modules) carries the line
# "SPDX-License-Identifier: MIT" in its first comment (within its first
# three lines: after a shebang is fine); every package's metadata names MIT
# (Python pyproject.toml and the METADATA its build backend writes, the
# npm package.json, the Lua rockspec); the Python sdist ships LICENSE;
# `make install` installs LICENSE beside the guides (checked by reading
# the install rule here, run in tests/packaging/install_test.sh).
# Run from the repository root. Prints each failure; exits 1 if any.
. tests/lib/shell-test.sh

# ---- LICENSE
if [ -f LICENSE ]; then
    head -n 1 LICENSE | grep -qx 'MIT License' || fail "LICENSE: the first line is not 'MIT License'"
    grep -q '^Copyright (c) 2026 The libball authors$' LICENSE || fail "LICENSE: no copyright line for The libball authors"
    grep -q 'Permission is hereby granted, free of charge, to any person obtaining a copy' LICENSE ||
        fail "LICENSE: not the MIT grant"
    grep -q 'THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND' LICENSE ||
        fail "LICENSE: no MIT warranty disclaimer"
else
    fail "no LICENSE at the top of the repository"
fi

# ---- SPDX lines. The files: the tracked ones when this is a git checkout,
# else every file on disk under the source directories.
dirs="libball include tools examples bindings"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    # shellcheck disable=SC2086
    git ls-files $dirs >"$tmp/all"
else
    # shellcheck disable=SC2086
    find $dirs -type f -not -path '*/node_modules/*' >"$tmp/all"
fi
grep -E '\.(c|h|py|lua|mjs|mts|js)$' "$tmp/all" >"$tmp/sources"
n=$(wc -l <"$tmp/sources")
[ "$n" -gt 50 ] || fail "only $n source files found under $dirs"
while IFS= read -r f; do
    [ -f "$f" ] || continue
    head -n 3 "$f" | grep -q 'SPDX-License-Identifier: MIT' ||
        fail "$f: no 'SPDX-License-Identifier: MIT' in its first three lines"
done <"$tmp/sources"

# ---- package metadata
grep -Eq '^license *= *(\{ *text *= *"MIT" *\}|"MIT")' bindings/python/pyproject.toml ||
    fail "bindings/python/pyproject.toml: the license is not MIT"
grep -q '"license": "MIT"' bindings/js/package.json || fail "bindings/js/package.json: the license is not MIT"
for r in bindings/lua/*.rockspec; do
    grep -Eq '^ *license *= *"MIT"' "$r" || fail "$r: the license is not MIT"
done
# The Python build backend writes it into the metadata, and the sdist
# carries LICENSE (the wheel's dist-info gets the same file).
if command -v python3 >/dev/null 2>&1; then
    meta=$(cd bindings/python && python3 -B -c '
import sys
sys.path.insert(0, "build_backend")
import libball_build
sys.stdout.write(libball_build._metadata(libball_build._project()).decode())' 2>&1)
    printf '%s\n' "$meta" | grep -qx 'License: MIT' || fail "the Python METADATA has no 'License: MIT': $meta"
    mkdir -p "$tmp/sdist"
    if sdist=$(cd bindings/python && python3 -B -c '
import sys
sys.path.insert(0, "build_backend")
import libball_build
print(libball_build.build_sdist(sys.argv[1]))' "$tmp/sdist" 2>"$tmp/sdist.log"); then
        tar -tzf "$tmp/sdist/$sdist" | grep -qx "${sdist%.tar.gz}/LICENSE" ||
            fail "the Python sdist $sdist does not ship LICENSE"
        tar -xzOf "$tmp/sdist/$sdist" "${sdist%.tar.gz}/LICENSE" | cmp -s - LICENSE ||
            fail "the Python sdist's LICENSE differs from the repository's"
    else
        cat "$tmp/sdist.log"
        fail "the Python build backend's build_sdist failed"
    fi
else
    skip "python3 not installed: the Python metadata not checked"
fi

# ---- make install puts LICENSE beside the guides
make -n install DESTDIR="$tmp/root" PREFIX=/usr 2>/dev/null |
    grep -Eq "install .*LICENSE.*$tmp/root/usr/share/doc/libball" ||
    fail "make install does not install LICENSE into share/doc/libball/"

if [ "$failures" -ne 0 ]; then
    echo "license_test: $failures failure(s)"
    exit 1
fi
echo "license_test: $n source files with an SPDX line, LICENSE and package metadata MIT: ok"
finish
