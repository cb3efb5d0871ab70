#!/bin/sh
# Installs the Debian packages named as arguments with apt-get when run as
# root; otherwise prints the command to run and fails. Used by
# ensure-deps.sh and ensure-tools.sh once they know what is missing.
set -e
[ $# -eq 0 ] && exit 0
if [ "$(id -u)" != 0 ]; then
    echo "missing: $* — install these Debian packages (as root: apt-get install $*)" >&2
    exit 1
fi
echo "installing: $*"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq "$@" >/dev/null
