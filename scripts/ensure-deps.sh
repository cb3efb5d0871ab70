#!/bin/sh
# Installs what the tests need when it is missing: Check and pkg-config
# (and any extra Debian packages named as arguments), via apt-get when run
# as root. Does nothing when everything is already there.
set -e
need=""
pkg-config --exists check 2>/dev/null || need="$need check"
command -v pkg-config >/dev/null 2>&1 || need="$need pkg-config"
command -v python3 >/dev/null 2>&1 || need="$need python3"
command -v luajit >/dev/null 2>&1 || need="$need luajit"
# The Python binding's install test needs pip, setuptools, wheel and venv
# in Debian's python3 (pip install ./bindings/python works offline then).
if ! /usr/bin/python3 -c 'import setuptools, wheel, pip, ensurepip' >/dev/null 2>&1; then
    need="$need python3-pip python3-setuptools python3-wheel python3-venv"
fi
for extra in "$@"; do
    command -v "$extra" >/dev/null 2>&1 || need="$need $extra"
done
# shellcheck disable=SC2086 # one word per package
exec sh "$(dirname "$0")/apt-install.sh" $need
