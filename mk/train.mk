# The training pipeline of the learned evaluation (examples/python/train_net.py,
# docs/training.md): Debian's Python with python3-numpy and python3-torch over
# the Python binding and the build's libball.so. Included by the top-level
# Makefile; uses its B.
#
#   make train          from nothing to $(TRAIN_OUT)/value.net: self-play,
#                       training, export, the C-torch check; TRAIN_ARGS adds
#                       options (e.g. TRAIN_ARGS='--generations 3 --match-games 200')
# tests/learning/train_test.sh, which `make check` runs, runs it at toy size.

.PHONY: train train-deps

TRAIN_OUT    ?= $(B)/train
TRAIN_ARGS   ?=
TRAIN_PYTHON ?= /usr/bin/python3

train-deps:
	@sh scripts/deps.sh py=numpy:python3-numpy py=torch:python3-torch py=distributed:python3-distributed \
	    "/usr/include/python3*/Python.h:python3-dev"

train: train-deps lib python-ext tool
	PYTHONPATH=bindings/python LIBBALL_PATH=$(B)/libball.so.$(VERSION_MAJOR) \
	    $(TRAIN_PYTHON) examples/python/train_net.py --out $(TRAIN_OUT) --ball $(B)/bin/ball $(TRAIN_ARGS)
