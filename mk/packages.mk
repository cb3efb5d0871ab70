# Packages (issue 24; docs/guide.md "Debian packages", docs/bindings.md
# "Installing"). Included by the top-level Makefile; uses its B. Each
# target installs the Debian packages it needs through scripts/deps.sh (as
# root; otherwise it names them).
#
#   make deb           the Debian packages libball1, libball-dev, ball-tools
#                      and python3-libball (debian/), built with
#                      dpkg-buildpackage -us -uc -b from a copy of the
#                      source tree in $(DEB_DIR)/src, then checked with
#                      lintian (any error fails); the .deb, .changes and
#                      .buildinfo files land in $(DEB_DIR) (build/deb)
#   make deb-symbols   rewrite debian/libball1.symbols from
#                      libball/exports.map (debian/gen-symbols.sh)
#   make python-dist   the Python binding's sdist and wheel in
#                      $(PY_DIST_DIR) (build/python-dist), with Debian's
#                      python3-build, offline: python3 -m build
#                      --no-isolation (the wheel is built from the sdist)
#   make npm-pack      the npm package's tarball in $(NPM_DIR) (build/npm),
#                      after make wasm
#   make npm-dry-run   npm publish --dry-run in bindings/js, after make wasm
#
# tests/packaging/deb_test.sh builds the Debian packages in build/deb-test (make deb
# DEB_DIR=...), tests/packaging/python_sdist_test.sh the sdist, and
# bindings/js/test/pack.test.mjs (make check-web) the npm tarball.

.PHONY: deb deb-symbols python-dist npm-pack npm-dry-run

DEB_DIR      ?= $(B)/deb
PY_DIST_DIR  ?= $(B)/python-dist
NPM_DIR      ?= $(B)/npm

# The copy: the files git knows (tracked, and new ones not ignored) of a
# checkout, else every file but build/. dpkg-buildpackage writes its
# results into the parent of the tree it builds, here $(DEB_DIR), never
# into the parent of the repository. It runs without this make's
# variables (MAKEFLAGS: WERROR=1, B=..., -j): the package build is
# debian/rules' alone.
deb:
	@sh scripts/deps.sh deb
	rm -rf $(DEB_DIR) && mkdir -p $(DEB_DIR)/src
	@if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then \
	    git ls-files -z -c -o --exclude-standard | \
	        tar --null --no-recursion --ignore-failed-read -T - -cf - 2>/dev/null; \
	else \
	    tar --exclude=./build -cf - .; \
	fi | tar -xf - -C $(DEB_DIR)/src
	cd $(DEB_DIR)/src && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL dpkg-buildpackage -us -uc -b >../build.log 2>&1 || \
	    { tail -n 40 ../build.log; echo "deb: dpkg-buildpackage failed (log: $(DEB_DIR)/build.log)"; exit 1; }
	@st=0; lintian --allow-root --fail-on error --display-info $(DEB_DIR)/*.changes \
	    >$(DEB_DIR)/lintian.log 2>&1 || st=$$?; cat $(DEB_DIR)/lintian.log; \
	    [ $$st -eq 0 ] || { echo "deb: lintian found errors (exit $$st)"; exit 1; }
	@ls -l $(DEB_DIR)/*.deb

deb-symbols:
	sh debian/gen-symbols.sh >debian/libball1.symbols.tmp
	mv debian/libball1.symbols.tmp debian/libball1.symbols

python-dist:
	@sh scripts/deps.sh pybuild
	rm -rf $(PY_DIST_DIR)
	PIP_NO_INDEX=1 /usr/bin/python3 -m build --no-isolation --outdir $(PY_DIST_DIR) bindings/python
	@ls -l $(PY_DIST_DIR)

npm-pack: wasm
	@sh scripts/deps.sh npm:npm
	rm -rf $(NPM_DIR) && mkdir -p $(NPM_DIR)
	cd bindings/js && npm pack --pack-destination $(abspath $(NPM_DIR))

npm-dry-run: wasm
	@sh scripts/deps.sh npm:npm
	cd bindings/js && npm publish --dry-run
