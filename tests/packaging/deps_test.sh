#!/bin/sh
# scripts/deps.sh with a fake apt-get (no package is installed): a missing
# NEED is installed with apt's progress shown, a line per tenth of the
# download and of the installation, while apt's own output stays in a log
# (issue 49: a multi-minute install printed nothing); a failed install
# prints that log and fails; what is present installs nothing. Run from
# the repository root.
. tests/lib/shell-test.sh

bin=$tmp/bin
mkdir -p "$bin"
# The fake apt-get: `install` writes apt's status lines to the fd named by
# -o APT::Status-Fd=N and chatter to stdout; FAKE_APT_FAIL=1 fails it.
cat >"$bin/apt-get" <<'SH'
#!/bin/sh
echo "apt-get $*" >>"$FAKE_APT_CALLS"
[ "$1" = update ] && exit 0
fd=""
for a; do case $a in APT::Status-Fd=*) fd=${a#APT::Status-Fd=} ;; esac; done
i=0
while [ $i -le 100 ]; do
    [ -n "$fd" ] && eval "echo \"dlstatus:$i:$i.0000:Retrieving file $i of 100\" >&$fd"
    i=$((i + 5))
done
echo "Get:1 http://deb.debian.org/debian bookworm/main fake 1.0 [1 kB]"
i=0
while [ $i -le 100 ]; do
    [ -n "$fd" ] && eval "echo \"pmstatus:fake-pkg:$i.5000:Unpacking fake-pkg ($i)\" >&$fd"
    [ $i -eq 39 ] && [ -n "$fd" ] && eval "echo \"pmstatus:fake-pkg:40:Setting up fake-pkg: a colon\" >&$fd"
    i=$((i + 3))
done
echo "Setting up fake-pkg (1.0) ..."
[ "${FAKE_APT_FAIL:-}" = 1 ] && { echo "E: Sub-process /usr/bin/dpkg returned an error code (1)"; exit 100; }
exit 0
SH
printf '#!/bin/sh\necho 0\n' >"$bin/id"
chmod +x "$bin/apt-get" "$bin/id"
export FAKE_APT_CALLS="$tmp/calls"

PATH=$bin:$PATH sh scripts/deps.sh /nonexistent/libball-deps-test:fake-pkg >"$tmp/ok.out" 2>&1
st=$?
[ "$st" -eq 0 ] || { cat "$tmp/ok.out"; fail "deps.sh with a fake apt-get: exit $st"; }
grep -q '^apt-get install -y -o APT::Status-Fd=3 fake-pkg$' "$tmp/calls" ||
    { cat "$tmp/calls"; fail "apt-get install was not asked for its status lines"; }
for pct in 0 10 50 90 100; do
    grep -qx "deps: downloading $pct%: Retrieving file $pct of 100" "$tmp/ok.out" ||
        { cat "$tmp/ok.out"; fail "no download progress line at $pct%"; }
done
# the installation's percentages are not multiples of 10: the first at or
# past each tenth is shown, one line a tenth
n=$(grep -c "^deps: installing [0-9]*%: " "$tmp/ok.out")
[ "$n" -eq 10 ] || { cat "$tmp/ok.out"; fail "$n installation progress lines, expected 10 (0%, then one a tenth to 99%)"; }
grep -qx 'deps: installing 30%: Unpacking fake-pkg (30)' "$tmp/ok.out" || fail "no line for 30% of the installation"
grep -qx 'deps: installing 40%: Setting up fake-pkg: a colon' "$tmp/ok.out" || fail "a message with a colon was cut"
grep -q '^Setting up\|^Get:1' "$tmp/ok.out" && fail "apt's own output was shown on success"
grep -qx 'deps: installed fake-pkg' "$tmp/ok.out" || { cat "$tmp/ok.out"; fail "no closing line"; }

FAKE_APT_FAIL=1 PATH=$bin:$PATH sh scripts/deps.sh /nonexistent/libball-deps-test:fake-pkg >"$tmp/bad.out" 2>&1
st=$?
[ "$st" -ne 0 ] || fail "a failed apt-get install passed"
grep -q 'E: Sub-process /usr/bin/dpkg returned an error code' "$tmp/bad.out" ||
    { cat "$tmp/bad.out"; fail "a failed install does not show apt's output"; }

: >"$tmp/calls"
PATH=$bin:$PATH sh scripts/deps.sh sh:fake-pkg >"$tmp/none.out" 2>&1 || fail "deps.sh with everything present failed"
[ -s "$tmp/none.out" ] && { cat "$tmp/none.out"; fail "deps.sh printed something with nothing to install"; }
[ -s "$tmp/calls" ] && fail "apt-get ran with nothing to install"

echo "deps_test: $failures failure(s)"
finish
