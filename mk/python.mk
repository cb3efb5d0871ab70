# The C extension module of the Python binding, libball._speed
# (bindings/python/libball/_speed.c; issue 29, docs/performance.md), built
# by `make` into $(B)/python/ beside $(B)/libball.so.1, where the in-tree
# package finds it (libball/_native.py) when it runs from bindings/python
# (the tests, the benchmarks). It does not link libball: the package gives
# it the addresses of the library it loaded. Built when $(PYTHON) and its
# headers (Python.h) are installed, otherwise left out (the Python tests
# then fail with the ImportError that says to build it).
#
# It is compiled with $(CC) and the project's warnings and optimisation,
# not $(CFLAGS) (the library's). In make check-asan and make coverage $(CC)
# is a wrapper that carries the instrumentation, so the extension is
# instrumented too (check-asan preloads the sanitizer's runtime into
# python3); the coverage report reads $(B)/obj only, so the extension's
# counts are no part of the library's coverage or its floors.
# PY_EXT_FLAGS: flags of its own (debian/rules gives dpkg's hardening
# flags).
PYTHON ?= python3
PY_EXT_SUFFIX := $(shell $(PYTHON) -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX") or "")' 2>/dev/null)
PY_INCLUDE := $(shell $(PYTHON) -c 'import sysconfig; print(sysconfig.get_paths()["include"])' 2>/dev/null)
PY_SPEED := $(if $(and $(PY_EXT_SUFFIX),$(wildcard $(PY_INCLUDE)/Python.h)),$(B)/python/_speed$(PY_EXT_SUFFIX))

.PHONY: python-ext
python-ext: $(PY_SPEED)
all: python-ext

ifneq ($(PY_SPEED),)
$(PY_SPEED): bindings/python/libball/_speed.c include/ball.h
	@mkdir -p $(dir $@)
	$(QUIET_CCLD)$(CC) -std=c11 $(OPT) -g $(WARN) -Wno-missing-prototypes -Iinclude -I$(PY_INCLUDE) -shared -fPIC $< -o $@ $(PY_EXT_FLAGS)
endif
