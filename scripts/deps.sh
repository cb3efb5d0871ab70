#!/bin/sh
# The project's one dependency installer: installs the Debian packages
# that a make target needs when they are missing, with apt-get when run as
# root; otherwise it names the packages and the command, and fails. Does
# nothing when everything is there.
#
#   sh scripts/deps.sh [GROUP | NEED:PACKAGE]...
#
# NEED is one of
#   a command name          present when `command -v NAME` finds it;
#   an absolute path        present when the file exists (wildcards allowed);
#   pc=MODULE               present when `pkg-config --exists MODULE`;
#   py=MOD,MOD...           present when Debian's /usr/bin/python3 imports them.
# GROUP names a list of pairs kept here so that make targets share them:
#   tests   what `make check` needs (Check, pkg-config, Debian's Python with
#           venv for the binding's install test and its headers for the
#           extension module, LuaJIT, PUC Lua 5.1 to 5.4 with headers and
#           luarocks for the C module, mypy, numpy, groff
#           for the manual page's test, aiohttp for the game server's test,
#           psycopg2 and the PostgreSQL 15 server for its several-process
#           test, torch for the training pipeline's toy run, doxygen for
#           the test that builds the HTML documentation, tests/docs/docs_html_test.sh).
#   deb     what `make deb` and tests/packaging/deb_test.sh need: dpkg-buildpackage,
#           debhelper (compat 13), dh-python, fakeroot, lintian, pkg-config.
#   pybuild what tests/packaging/python_sdist_test.sh needs: Debian's python3-build
#           (`python3 -m build`, `pyproject-build`) and venv with ensurepip.
#   server  what the game server (examples/server, make serve) and its
#           tests (tests/tools/server_test.sh, tests/tools/server_pg_test.sh) need:
#           Debian's python3-aiohttp, python3-psycopg2 (--db postgresql://)
#           and PostgreSQL 15's server (initdb, pg_ctl, for the test and
#           make bench-server-pg).
#   love    what the LÖVE game (examples/love, make love) and its test
#           (tests/bindings/love_test.sh) need: Debian's love (LÖVE 11, on
#           LuaJIT), Lua 5.1's headers for the module it loads
#           (build/lua/5.1/ball.so), and for the test the X server Xvfb
#           (xvfb) and xdotool, which clicks and presses keys in it.
#
# An install can take minutes (python3-torch, postgresql, emscripten): apt's
# own progress (APT::Status-Fd) is shown as a line per tenth of the
# download and of the installation ("deps: installing 40%: Unpacking
# python3-torch"); apt's output goes to a log, printed when it fails.
#
#   sh scripts/deps.sh tests groff:groff-base
#   sh scripts/deps.sh clang:clang '/usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a:libclang-rt-dev'
set -e

group() {
    case $1 in
        tests)
            echo pkg-config:pkg-config pc=check:check python3:python3 luajit:luajit \
                py=ensurepip:python3-venv lua5.1:lua5.1 lua5.2:lua5.2 lua5.3:lua5.3 lua5.4:lua5.4 \
                /usr/include/lua5.1/lua.h:liblua5.1-0-dev /usr/include/lua5.2/lua.h:liblua5.2-dev \
                /usr/include/lua5.3/lua.h:liblua5.3-dev /usr/include/lua5.4/lua.h:liblua5.4-dev \
                luarocks:luarocks mypy:mypy py=numpy:python3-numpy groff:groff-base \
                py=aiohttp:python3-aiohttp py=psycopg2:python3-psycopg2 py=torch:python3-torch \
                /usr/include/python3*/Python.h:python3-dev \
                /usr/lib/postgresql/15/bin/initdb:postgresql doxygen:doxygen
            ;;
        deb)
            echo dpkg-buildpackage:dpkg-dev /usr/share/build-essential/list:build-essential \
                dh:debhelper dh_python3:dh-python fakeroot:fakeroot lintian:lintian \
                pkg-config:pkg-config python3:python3 cmake:cmake
            ;;
        pybuild)
            echo py=build:python3-build py=ensurepip:python3-venv
            ;;
        server)
            echo python3:python3 py=aiohttp:python3-aiohttp py=psycopg2:python3-psycopg2 py=torch:python3-torch \
                /usr/include/python3*/Python.h:python3-dev \
                /usr/lib/postgresql/15/bin/initdb:postgresql
            ;;
        love)
            echo love:love /usr/include/lua5.1/lua.h:liblua5.1-0-dev Xvfb:xvfb xdotool:xdotool
            ;;
        *) return 1 ;;
    esac
}

present() {
    case $1 in
        pc=*) command -v pkg-config >/dev/null 2>&1 && pkg-config --exists "${1#pc=}" ;;
        # -I: not the current directory first on the path, where build/ would
        # pass for the package "build" (python3-build).
        py=*) [ -x /usr/bin/python3 ] \
                  && /usr/bin/python3 -I -c "import $(echo "${1#py=}" | tr , ' ' | sed 's/ /, /g')" >/dev/null 2>&1 ;;
        /*)
            # shellcheck disable=SC2086 # the wildcards are meant to expand
            for f in $1; do
                [ -e "$f" ] && return 0
            done
            return 1
            ;;
        *) command -v "$1" >/dev/null 2>&1 ;;
    esac
}

need=""
add() {
    case " $need " in
        *" $1 "*) ;;
        *) need="$need $1" ;;
    esac
}

for arg in "$@"; do
    if pairs=$(group "$arg"); then
        for pair in $pairs; do
            present "${pair%:*}" || add "${pair##*:}"
        done
        continue
    fi
    what=${arg%:*}
    pkg=${arg##*:}
    if [ -z "$what" ] || [ -z "$pkg" ] || [ "$what" = "$arg" ]; then
        echo "deps: bad argument '$arg' (expected GROUP or NEED:PACKAGE)" >&2
        exit 2
    fi
    present "$what" || add "$pkg"
done

[ -z "$need" ] && exit 0
if [ "$(id -u)" != 0 ]; then
    echo "missing Debian packages:$need — install them as root: apt-get install$need" >&2
    exit 1
fi
echo "installing:$need (apt-get; progress below)"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
log=$(mktemp) && status=$(mktemp) || exit 1
trap 'rm -f "$log" "$status"' EXIT
# apt's status lines (fd 3) through awk, its output to the log.
# shellcheck disable=SC2086 # one word per package
{ apt-get install -y -o APT::Status-Fd=3 $need 3>&1 >"$log" 2>&1; echo $? >"$status"; } |
    awk -F: '$1 == "dlstatus" || $1 == "pmstatus" {
        what = $1 == "dlstatus" ? "downloading" : "installing"
        if (what != last) { next_at = 0; last = what }
        pct = int($3)
        if (pct >= next_at) {
            msg = $0
            sub(/^[^:]*:[^:]*:[^:]*:/, "", msg) # the message may hold colons
            printf "deps: %s %d%%: %s\n", what, pct, msg
            fflush()
            next_at = pct - pct % 10 + 10
        }
    }'
st=$(cat "$status")
if [ "$st" != 0 ]; then
    cat "$log" >&2
    echo "deps: apt-get install$need failed (exit $st)" >&2
    exit 1
fi
echo "deps: installed$need"
