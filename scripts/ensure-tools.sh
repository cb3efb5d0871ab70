#!/bin/sh
# Installs the Debian packages of the tools a make target needs, when they
# are missing. Arguments are NEED:PACKAGE pairs, where NEED is either a
# command name (checked with `command -v`) or an absolute path, possibly
# with shell wildcards (checked for an existing file):
#
#   sh scripts/ensure-tools.sh clang:clang valgrind:valgrind abidiff:abigail-tools \
#       '/usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a:libclang-rt-dev'
#
# Installs with apt-get when run as root; otherwise prints the apt-get
# command and fails. Does nothing when everything is there.
set -e
need=""
for pair in "$@"; do
    what=${pair%:*}
    pkg=${pair##*:}
    if [ -z "$what" ] || [ -z "$pkg" ] || [ "$what" = "$pair" ]; then
        echo "ensure-tools: bad argument '$pair' (expected NEED:PACKAGE)" >&2
        exit 2
    fi
    case $what in
        /*)
            found=no
            # shellcheck disable=SC2086 # the wildcards are meant to expand
            for f in $what; do
                [ -e "$f" ] && found=yes && break
            done
            [ "$found" = yes ] && continue
            ;;
        *)
            command -v "$what" >/dev/null 2>&1 && continue
            ;;
    esac
    case " $need " in
        *" $pkg "*) ;;
        *) need="$need $pkg" ;;
    esac
done
# shellcheck disable=SC2086 # one word per package
exec sh "$(dirname "$0")/apt-install.sh" $need
