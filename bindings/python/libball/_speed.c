/* SPDX-License-Identifier: MIT */
/*
 * libball._speed: the hot calls of libball.Game in C (issue 29, "Python at
 * native speed"; docs/performance.md).
 *
 * The module does not link libball: bind() receives the addresses of the C
 * functions from the library that libball._native loaded with ctypes, so
 * both paths always call the same library (LIBBALL_PATH, the bundled copy,
 * the system's). It holds no lock of its own: libball.Game calls it with
 * the per-game lock held, as it called ctypes in 1.0. Every failure goes
 * back to Python through the hooks given to bind(): error(handle, rc)
 * raises the exception of libball 1.0 with the game's message, closed()
 * the ClosedGameError of a closed game (handle None), missing(name) the
 * BallError of an experimental call the loaded library lacks. action(code)
 * makes an Action, cache is its code -> Action dict.
 *
 * The argument checks of the Python layer stay in Python (game.py): the
 * values reaching here are in range, and PyLong conversions that still
 * fail raise the usual OverflowError/TypeError.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#define BALL_EXPERIMENTAL
#include "ball.h"

#include <string.h>

typedef int (*random_action_fn)(ball_game *, uint64_t, ball_action *);
typedef int (*apply_fn)(ball_game *, ball_action);
typedef int (*apply_index_fn)(ball_game *, int);
typedef int (*random_playout_fn)(ball_game *, uint64_t, int);
typedef int (*legal_actions_fn)(ball_game *, ball_action *, size_t);
typedef int (*to_text_fn)(ball_game *, char *, size_t);
typedef int (*from_text_fn)(ball_game *, const char *);
typedef int (*game_new_fn)(ball_game **, const ball_rules *, char *, size_t);
typedef int (*game_clone_fn)(ball_game **, const ball_game *);
typedef void (*game_free_fn)(ball_game *);
typedef void (*rules_init_fn)(ball_rules *, size_t);

/* The types above are those of ball.h (checked without referencing the
 * symbols: _Generic does not evaluate its operand). */
#define SAME_TYPE(fn, type) _Static_assert(_Generic(&fn, type: 1, default: 0), #fn " has the type of ball.h")
SAME_TYPE(ball_random_action, random_action_fn);
SAME_TYPE(ball_random_apply, random_action_fn);
SAME_TYPE(ball_apply, apply_fn);
SAME_TYPE(ball_apply_index, apply_index_fn);
SAME_TYPE(ball_random_playout, random_playout_fn);
SAME_TYPE(ball_legal_actions, legal_actions_fn);
SAME_TYPE(ball_position_to_text, to_text_fn);
SAME_TYPE(ball_position_from_text, from_text_fn);
SAME_TYPE(ball_game_new, game_new_fn);
SAME_TYPE(ball_game_clone, game_clone_fn);
SAME_TYPE(ball_game_free, game_free_fn);
SAME_TYPE(ball_rules_init, rules_init_fn);

/* The bound library and hooks: set once by bind() at import, read-only
 * afterwards (the interpreter's module state of a module that cannot be
 * imported twice in one process with different libraries). */
static struct speed_lib {
    random_action_fn random_action, random_apply;
    apply_fn apply;
    apply_index_fn apply_index;
    random_playout_fn random_playout;
    legal_actions_fn legal_actions;
    to_text_fn to_text;
    from_text_fn from_text;
    game_new_fn game_new;
    game_clone_fn game_clone;
    game_free_fn game_free;
    rules_init_fn rules_init;
    PyObject *error, *closed, *missing, *action, *cache;
} lib;

/* NULL with the hook's exception set (a hook that returns raises TypeError). */
static PyObject *raise_hook(PyObject *hook, PyObject *args)
{
    if (args == NULL)
        return NULL;
    PyObject *r = PyObject_CallObject(hook, args);
    Py_DECREF(args);
    if (r != NULL) {
        Py_DECREF(r);
        PyErr_SetString(PyExc_TypeError, "libball._speed: an error hook returned");
    }
    return NULL;
}

static PyObject *fail(PyObject *handle, int rc)
{
    return raise_hook(lib.error, Py_BuildValue("(Oi)", handle, rc));
}

static PyObject *lacks(const char *name)
{
    return raise_hook(lib.missing, Py_BuildValue("(s)", name));
}

/* The game of a handle (the pointer as an int); NULL with ClosedGameError
 * for None. */
static ball_game *game_of(PyObject *handle)
{
    if (handle == Py_None) {
        raise_hook(lib.closed, PyTuple_New(0));
        return NULL;
    }
    ball_game *g = PyLong_AsVoidPtr(handle);
    if (g == NULL && !PyErr_Occurred())
        PyErr_SetString(PyExc_ValueError, "libball._speed: a NULL game handle");
    return g;
}

/* The interned Action of a code (a borrowed cache hit or a new one). */
static PyObject *action_of(ball_action code)
{
    PyObject *key = PyLong_FromUnsignedLong(code);
    if (key == NULL)
        return NULL;
    PyObject *a = PyDict_GetItemWithError(lib.cache, key);
    if (a != NULL) {
        Py_DECREF(key);
        Py_INCREF(a);
        return a;
    }
    if (PyErr_Occurred()) {
        Py_DECREF(key);
        return NULL;
    }
    a = PyObject_CallOneArg(lib.action, key);
    Py_DECREF(key);
    return a;
}

static int nargs(const char *name, Py_ssize_t n, Py_ssize_t want)
{
    if (n == want)
        return 0;
    PyErr_Format(PyExc_TypeError, "libball._speed.%s takes %zd arguments (%zd given)", name, want, n);
    return -1;
}

static int u64_arg(PyObject *o, uint64_t *out)
{
    unsigned long long v = PyLong_AsUnsignedLongLong(o);
    if (v == (unsigned long long)-1 && PyErr_Occurred())
        return -1;
    *out = (uint64_t)v;
    return 0;
}

static int int_arg(PyObject *o, int *out)
{
    long v = PyLong_AsLong(o);
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (v < INT_MIN || v > INT_MAX) {
        PyErr_SetString(PyExc_OverflowError, "libball._speed: an int argument out of range");
        return -1;
    }
    *out = (int)v;
    return 0;
}

/* random_action(handle, random) -> Action */
static PyObject *sp_random_action(PyObject *self, PyObject *const *args, Py_ssize_t n)
{
    (void)self;
    uint64_t r;
    if (nargs("random_action", n, 2) || u64_arg(args[1], &r))
        return NULL;
    ball_game *g = game_of(args[0]);
    if (g == NULL)
        return NULL;
    ball_action a;
    int rc = lib.random_action(g, r, &a);
    return rc < 0 ? fail(args[0], rc) : action_of(a);
}

/* random_apply(handle, random) -> Action */
static PyObject *sp_random_apply(PyObject *self, PyObject *const *args, Py_ssize_t n)
{
    (void)self;
    uint64_t r;
    if (nargs("random_apply", n, 2) || u64_arg(args[1], &r))
        return NULL;
    if (lib.random_apply == NULL)
        return lacks("ball_random_apply");
    ball_game *g = game_of(args[0]);
    if (g == NULL)
        return NULL;
    ball_action a;
    int rc = lib.random_apply(g, r, &a);
    return rc < 0 ? fail(args[0], rc) : action_of(a);
}

/* apply(handle, code) -> None (code: a 32-bit action code) */
static PyObject *sp_apply(PyObject *self, PyObject *const *args, Py_ssize_t n)
{
    (void)self;
    if (nargs("apply", n, 2))
        return NULL;
    unsigned long code = PyLong_AsUnsignedLong(args[1]);
    if (code == (unsigned long)-1 && PyErr_Occurred())
        return NULL;
    if (code > UINT32_MAX) {
        PyErr_SetString(PyExc_OverflowError, "libball._speed: an action code has 32 bits");
        return NULL;
    }
    ball_game *g = game_of(args[0]);
    if (g == NULL)
        return NULL;
    int rc = lib.apply(g, (ball_action)code);
    if (rc < 0)
        return fail(args[0], rc);
    Py_RETURN_NONE;
}

/* apply_index(handle, index) -> None */
static PyObject *sp_apply_index(PyObject *self, PyObject *const *args, Py_ssize_t n)
{
    (void)self;
    int index;
    if (nargs("apply_index", n, 2) || int_arg(args[1], &index))
        return NULL;
    if (lib.apply_index == NULL)
        return lacks("ball_apply_index");
    ball_game *g = game_of(args[0]);
    if (g == NULL)
        return NULL;
    int rc = lib.apply_index(g, index);
    if (rc < 0)
        return fail(args[0], rc);
    Py_RETURN_NONE;
}

/* random_playout(handle, seed, max_decisions) -> int */
static PyObject *sp_random_playout(PyObject *self, PyObject *const *args, Py_ssize_t n)
{
    (void)self;
    uint64_t seed;
    int limit;
    if (nargs("random_playout", n, 3) || u64_arg(args[1], &seed) || int_arg(args[2], &limit))
        return NULL;
    if (lib.random_playout == NULL)
        return lacks("ball_random_playout");
    ball_game *g = game_of(args[0]);
    if (g == NULL)
        return NULL;
    /* A playout is the one call here long enough for another thread to
     * want the interpreter meanwhile; the game itself is guarded by the
     * per-game lock its Python caller holds, and args[0] by the caller's
     * reference, so the GIL can go for the call as ctypes lets it go. */
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = lib.random_playout(g, seed, limit);
    Py_END_ALLOW_THREADS
    return rc < 0 ? fail(args[0], rc) : PyLong_FromLong(rc);
}

/* legal_codes(handle) -> bytes: the legal action codes, native uint32 */
static PyObject *sp_legal_codes(PyObject *self, PyObject *handle)
{
    (void)self;
    ball_game *g = game_of(handle);
    if (g == NULL)
        return NULL;
    ball_action codes[BALL_MAX_ACTIONS];
    int rc = lib.legal_actions(g, codes, BALL_MAX_ACTIONS);
    if (rc < 0)
        return fail(handle, rc);
    return PyBytes_FromStringAndSize((const char *)codes, (Py_ssize_t)rc * (Py_ssize_t)sizeof codes[0]);
}

/* count_legal(handle) -> int */
static PyObject *sp_count_legal(PyObject *self, PyObject *handle)
{
    (void)self;
    ball_game *g = game_of(handle);
    if (g == NULL)
        return NULL;
    int rc = lib.legal_actions(g, NULL, 0);
    return rc < 0 ? fail(handle, rc) : PyLong_FromLong(rc);
}

/* to_bpn(handle) -> str */
static PyObject *sp_to_bpn(PyObject *self, PyObject *handle)
{
    (void)self;
    ball_game *g = game_of(handle);
    if (g == NULL)
        return NULL;
    char buf[BALL_BPN_MAX];
    int rc = lib.to_text(g, buf, sizeof buf);
    if (rc < 0)
        return fail(handle, rc);
    return PyUnicode_DecodeUTF8(buf, (Py_ssize_t)strlen(buf), "replace");
}

/* from_bpn(handle, text: bytes without NUL) -> None */
static PyObject *sp_from_bpn(PyObject *self, PyObject *const *args, Py_ssize_t n)
{
    (void)self;
    if (nargs("from_bpn", n, 2))
        return NULL;
    const char *text = PyBytes_AsString(args[1]);
    if (text == NULL)
        return NULL;
    ball_game *g = game_of(args[0]);
    if (g == NULL)
        return NULL;
    int rc = lib.from_text(g, text);
    if (rc < 0)
        return fail(args[0], rc);
    Py_RETURN_NONE;
}

/* game_new(rules_address) -> int handle, or (rc, message) on failure;
 * address 0: the default rules (ball_rules_init). */
static PyObject *sp_game_new(PyObject *self, PyObject *address)
{
    (void)self;
    const ball_rules *rules = PyLong_AsVoidPtr(address);
    if (rules == NULL && PyErr_Occurred())
        return NULL;
    ball_rules defaults;
    if (rules == NULL) {
        lib.rules_init(&defaults, sizeof defaults);
        rules = &defaults;
    }
    ball_game *g = NULL;
    char err[256] = "";
    int rc = lib.game_new(&g, rules, err, sizeof err);
    if (rc < 0 || g == NULL)
        return Py_BuildValue("(is)", rc < 0 ? rc : BALL_E_NOMEM, err);
    PyObject *h = PyLong_FromVoidPtr(g);
    if (h == NULL)
        lib.game_free(g);
    return h;
}

/* game_clone(handle) -> int handle, or the error code (an int < 0) */
static PyObject *sp_game_clone(PyObject *self, PyObject *handle)
{
    (void)self;
    ball_game *g = game_of(handle);
    if (g == NULL)
        return NULL;
    ball_game *copy = NULL;
    int rc = lib.game_clone(&copy, g);
    if (rc < 0 || copy == NULL)
        return PyLong_FromLong(rc < 0 ? rc : BALL_E_NOMEM);
    PyObject *h = PyLong_FromVoidPtr(copy);
    if (h == NULL)
        lib.game_free(copy);
    return h;
}

/* game_free(handle) -> None */
static PyObject *sp_game_free(PyObject *self, PyObject *handle)
{
    (void)self;
    ball_game *g = PyLong_AsVoidPtr(handle);
    if (g == NULL && PyErr_Occurred())
        return NULL;
    lib.game_free(g);
    Py_RETURN_NONE;
}

/* bind(addresses: dict name -> int, error, closed, missing, action, cache) */
static PyObject *sp_bind(PyObject *self, PyObject *const *args, Py_ssize_t n)
{
    (void)self;
    if (nargs("bind", n, 6))
        return NULL;
    if (!PyDict_Check(args[0]) || !PyDict_Check(args[5])) {
        PyErr_SetString(PyExc_TypeError, "libball._speed.bind: the addresses and the cache are dicts");
        return NULL;
    }
    static const struct {
        const char *name;
        size_t offset;
        int required;
    } table[] = {
        {"ball_random_action", offsetof(struct speed_lib, random_action), 1},
        {"ball_random_apply", offsetof(struct speed_lib, random_apply), 0},
        {"ball_apply", offsetof(struct speed_lib, apply), 1},
        {"ball_apply_index", offsetof(struct speed_lib, apply_index), 0},
        {"ball_random_playout", offsetof(struct speed_lib, random_playout), 0},
        {"ball_legal_actions", offsetof(struct speed_lib, legal_actions), 1},
        {"ball_position_to_text", offsetof(struct speed_lib, to_text), 1},
        {"ball_position_from_text", offsetof(struct speed_lib, from_text), 1},
        {"ball_game_new", offsetof(struct speed_lib, game_new), 1},
        {"ball_game_clone", offsetof(struct speed_lib, game_clone), 1},
        {"ball_game_free", offsetof(struct speed_lib, game_free), 1},
        {"ball_rules_init", offsetof(struct speed_lib, rules_init), 1},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        PyObject *v = PyDict_GetItemString(args[0], table[i].name);
        void *p = v != NULL ? PyLong_AsVoidPtr(v) : NULL;
        if (p == NULL && PyErr_Occurred())
            return NULL;
        if (p == NULL && table[i].required) {
            PyErr_Format(PyExc_ImportError, "libball._speed: no address for %s()", table[i].name);
            return NULL;
        }
        /* POSIX: a function pointer and void * have one representation */
        memcpy((char *)&lib + table[i].offset, &p, sizeof p);
    }
    PyObject **hooks[] = {&lib.error, &lib.closed, &lib.missing, &lib.action, &lib.cache};
    for (size_t i = 0; i < 5; i++) {
        Py_INCREF(args[i + 1]);
        Py_XSETREF(*hooks[i], args[i + 1]);
    }
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"bind", (PyCFunction)(void (*)(void))sp_bind, METH_FASTCALL, "Binds the library's functions and the hooks."},
    {"random_action", (PyCFunction)(void (*)(void))sp_random_action, METH_FASTCALL, "ball_random_action()"},
    {"random_apply", (PyCFunction)(void (*)(void))sp_random_apply, METH_FASTCALL, "ball_random_apply()"},
    {"apply", (PyCFunction)(void (*)(void))sp_apply, METH_FASTCALL, "ball_apply()"},
    {"apply_index", (PyCFunction)(void (*)(void))sp_apply_index, METH_FASTCALL, "ball_apply_index()"},
    {"random_playout", (PyCFunction)(void (*)(void))sp_random_playout, METH_FASTCALL, "ball_random_playout()"},
    {"legal_codes", sp_legal_codes, METH_O, "ball_legal_actions(), the codes as bytes"},
    {"count_legal", sp_count_legal, METH_O, "ball_legal_actions(game, NULL, 0)"},
    {"to_bpn", sp_to_bpn, METH_O, "ball_position_to_text()"},
    {"from_bpn", (PyCFunction)(void (*)(void))sp_from_bpn, METH_FASTCALL, "ball_position_from_text()"},
    {"game_new", sp_game_new, METH_O, "ball_game_new()"},
    {"game_clone", sp_game_clone, METH_O, "ball_game_clone()"},
    {"game_free", sp_game_free, METH_O, "ball_game_free()"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_speed", "The hot calls of libball.Game in C (see _speed.c).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__speed(void)
{
    return PyModule_Create(&module);
}
