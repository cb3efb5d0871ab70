/* SPDX-License-Identifier: MIT */
/*
 * libball._speed: the hot calls of libball.Game in C (issue 29, "Python at
 * native speed"; issue 46, "one implementation"; docs/performance.md).
 *
 * The module does not link libball: bind() receives the addresses of the C
 * functions from the library that libball._native loaded with ctypes, so
 * both paths always call the same library (LIBBALL_PATH, the bundled copy,
 * the system's). Every failure goes back to Python through the hooks given
 * to bind(): error(rc, message) raises the exception of libball 1.0 with
 * the game's message, closed() the ClosedGameError of a closed game,
 * missing(name) the BallError of an experimental call the loaded library
 * lacks. action(code) makes an Action, cache is its code -> Action dict.
 *
 * A game lives in a Guard (below): the ball_game pointer and the per-game
 * guard that replaced the threading.RLock of 1.0. The calls of this module
 * hold the interpreter lock from start to end, so they are atomic with
 * respect to each other without any lock of their own: the guard only has
 * to keep them out while another thread is inside a call that lets the
 * interpreter go (every ctypes call of game.py, made under `with
 * game._lock`, and random_playout() here). Entering it is a counter and a
 * thread id; a call of this module checks one integer.
 *
 * The argument checks of the Python layer stay in Python (game.py): the
 * values reaching here are in range, and PyLong conversions that still
 * fail raise the usual OverflowError/TypeError. The fallback without this
 * module, _speed_ctypes.py, has the same functions over ctypes.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <pythread.h>
#include <structmember.h>

#define BALL_EXPERIMENTAL
#include "ball.h"

#include <string.h>

#if PY_VERSION_HEX < 0x030A0000 /* the binding supports 3.9 */
static inline PyObject *Py_NewRef(PyObject *o)
{
    Py_INCREF(o);
    return o;
}
#endif

typedef int (*random_action_fn)(ball_game *, uint64_t, ball_action *);
typedef int (*apply_fn)(ball_game *, ball_action);
typedef int (*apply_index_fn)(ball_game *, int);
typedef int (*random_playout_fn)(ball_game *, uint64_t, int);
typedef int (*legal_actions_fn)(ball_game *, ball_action *, size_t);
typedef int (*to_text_fn)(ball_game *, char *, size_t);
typedef int (*from_text_fn)(ball_game *, const char *);
typedef int (*action_from_text_fn)(ball_game *, const char *, ball_action *);
typedef int (*game_new_fn)(ball_game **, const ball_rules *, char *, size_t);
typedef int (*game_clone_fn)(ball_game **, const ball_game *);
typedef void (*game_free_fn)(ball_game *);
typedef void (*rules_init_fn)(ball_rules *, size_t);
typedef int (*read_fn)(const ball_game *);
typedef int (*undo_fn)(ball_game *);
typedef uint64_t (*hash_fn)(const ball_game *);
typedef int (*history_action_fn)(ball_game *, int, ball_action *);
typedef const char *(*errmsg_fn)(const ball_game *);

/* The types above are those of ball.h (checked without referencing the
 * symbols: _Generic does not evaluate its operand). */
#define SAME_TYPE(fn, type) _Static_assert(_Generic(&fn, type: 1, default: 0), #fn " has the type of ball.h")
SAME_TYPE(ball_random_action, random_action_fn);
SAME_TYPE(ball_random_apply, random_action_fn);
SAME_TYPE(ball_apply, apply_fn);
SAME_TYPE(ball_apply_unchecked, apply_fn);
SAME_TYPE(ball_apply_index, apply_index_fn);
SAME_TYPE(ball_random_playout, random_playout_fn);
SAME_TYPE(ball_legal_actions, legal_actions_fn);
SAME_TYPE(ball_position_to_text, to_text_fn);
SAME_TYPE(ball_position_from_text, from_text_fn);
SAME_TYPE(ball_game_new, game_new_fn);
SAME_TYPE(ball_game_clone, game_clone_fn);
SAME_TYPE(ball_game_free, game_free_fn);
SAME_TYPE(ball_rules_init, rules_init_fn);
SAME_TYPE(ball_result, read_fn);
SAME_TYPE(ball_side, read_fn);
SAME_TYPE(ball_turn, read_fn);
SAME_TYPE(ball_history_length, read_fn);
SAME_TYPE(ball_undo, undo_fn);
SAME_TYPE(ball_hash, hash_fn);
SAME_TYPE(ball_history_action, history_action_fn);
SAME_TYPE(ball_errmsg, errmsg_fn);
SAME_TYPE(ball_action_from_text, action_from_text_fn);

/* The bound library and hooks: set once by bind() at import, read-only
 * afterwards (the interpreter's module state of a module that cannot be
 * imported twice in one process with different libraries). */
static struct speed_lib {
    random_action_fn random_action, random_apply;
    apply_fn apply, apply_unchecked;
    apply_index_fn apply_index;
    random_playout_fn random_playout;
    legal_actions_fn legal_actions;
    to_text_fn to_text;
    from_text_fn from_text;
    action_from_text_fn action_from_text;
    game_new_fn game_new;
    game_clone_fn game_clone;
    game_free_fn game_free;
    rules_init_fn rules_init;
    read_fn result, side, turn, history_length;
    undo_fn undo;
    hash_fn hash;
    history_action_fn history_action;
    errmsg_fn errmsg;
    PyObject *error, *closed, *missing, *action, *cache;
    /* methods(): the Python methods the C ones hand unusual arguments to,
     * the members of Result and Team by value, random.getrandbits, the
     * LegalActions factory, the docstrings kept alive */
    PyObject *py_random_action, *py_apply, *py_history_action;
    PyObject *results, *teams, *getrandbits, *legal, *action_type, *docs;
    PyObject *s_lock, *s_code, *py_set_bpn;
    /* where a Game keeps its Guard and an Action its code: the offsets of
     * their __slots__ (0: read by name) */
    Py_ssize_t lock_offset, code_offset;
} lib;

/* ------------------------------------------------------------ the guard */

/*
 * The decisions the library itself gave for one state of the game: the
 * draw of random_action() or the list of legal_codes(). apply() of one of
 * them while the game is still in that state (the same history length,
 * hash and turn: the same position, side, phase, PA and turn) is legal by
 * construction, so it goes to ball_apply_unchecked() and skips the
 * re-check that costs ball_apply() most of its time (docs/performance.md).
 * Every call here that changes the game forgets the decisions; a change
 * made another way (ctypes) changes the length, the hash or the turn.
 */
struct given {
    int valid, hlen, turn, n, next;
    uint64_t hash;
    ball_action one;   /* the draw */
    ball_action *list; /* the list, BALL_MAX_ACTIONS codes, made on first use */
    const ball_action *codes;
};

typedef struct {
    PyObject_HEAD
    ball_game *g;            /* NULL once closed */
    int hidden;              /* reads as closed: a search is using it */
    long depth;              /* re-entry depth of the holder; 0: free */
    unsigned long owner;     /* the holder's thread id */
    PyThread_type_lock held; /* acquired while depth > 0 */
    struct given given;
} Guard;

static PyTypeObject GuardType;

/* Blocks (without the interpreter lock) until this thread holds the
 * guard. */
static void guard_enter(Guard *self)
{
    unsigned long me = PyThread_get_thread_ident();
    if (self->depth > 0 && self->owner == me) {
        self->depth++;
        return;
    }
    if (!PyThread_acquire_lock(self->held, NOWAIT_LOCK)) {
        Py_BEGIN_ALLOW_THREADS
        PyThread_acquire_lock(self->held, WAIT_LOCK);
        Py_END_ALLOW_THREADS
    }
    self->owner = me;
    self->depth = 1;
}

static void guard_exit(Guard *self)
{
    if (--self->depth == 0) {
        self->owner = 0;
        PyThread_release_lock(self->held);
    }
}

/* Waits while another thread holds the guard (inside a call that let the
 * interpreter go). Once this returns, no other thread can enter before
 * the caller lets the interpreter go, which the calls below do not. */
static inline void guard_wait(Guard *self)
{
    if (self->depth == 0 || self->owner == PyThread_get_thread_ident())
        return;
    guard_enter(self);
    guard_exit(self);
}

static void forget(Guard *self)
{
    self->given.valid = 0;
}

static void guard_free_game(Guard *self)
{
    ball_game *g = self->g;
    self->g = NULL;
    forget(self);
    if (g != NULL)
        lib.game_free(g);
}

static Guard *guard_new(ball_game *g)
{
    Guard *self = PyObject_New(Guard, &GuardType);
    if (self == NULL) {
        lib.game_free(g);
        return NULL;
    }
    self->g = g;
    self->hidden = 0;
    self->depth = 0;
    self->owner = 0;
    memset(&self->given, 0, sizeof self->given);
    self->held = PyThread_allocate_lock();
    if (self->held == NULL) {
        Py_DECREF(self); /* frees g */
        PyErr_NoMemory();
        return NULL;
    }
    return self;
}

/* Guard(address): adopts a game made elsewhere (the record reader's). */
static PyObject *guard_tp_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    (void)type;
    PyObject *address;
    if (kwds != NULL && PyDict_GET_SIZE(kwds) != 0) {
        PyErr_SetString(PyExc_TypeError, "libball._speed.Guard takes no keyword arguments");
        return NULL;
    }
    if (!PyArg_UnpackTuple(args, "Guard", 1, 1, &address))
        return NULL;
    ball_game *g = PyLong_AsVoidPtr(address);
    if (g == NULL) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "libball._speed.Guard: a NULL game");
        return NULL;
    }
    return (PyObject *)guard_new(g);
}

static void guard_dealloc(Guard *self)
{
    guard_free_game(self);
    PyMem_Free(self->given.list);
    if (self->held != NULL)
        PyThread_free_lock(self->held);
    PyObject_Free(self);
}

static PyObject *guard_enter_py(PyObject *self, PyObject *unused)
{
    (void)unused;
    guard_enter((Guard *)self);
    Py_INCREF(self);
    return self;
}

static PyObject *guard_exit_py(PyObject *self, PyObject *const *args, Py_ssize_t n)
{
    (void)args;
    (void)n;
    Guard *guard = (Guard *)self;
    if (guard->depth == 0 || guard->owner != PyThread_get_thread_ident()) {
        PyErr_SetString(PyExc_RuntimeError, "libball._speed.Guard: released by a thread that does not hold it");
        return NULL;
    }
    guard_exit(guard);
    Py_RETURN_FALSE;
}

/* close(): frees the game once, after a call in progress elsewhere. */
static PyObject *guard_close(PyObject *self, PyObject *unused)
{
    (void)unused;
    Guard *guard = (Guard *)self;
    guard_enter(guard);
    guard_free_game(guard);
    guard_exit(guard);
    Py_RETURN_NONE;
}

static PyObject *guard_handle(PyObject *self, void *closure)
{
    (void)closure;
    Guard *guard = (Guard *)self;
    if (guard->g == NULL || guard->hidden)
        Py_RETURN_NONE;
    return PyLong_FromVoidPtr(guard->g);
}

static PyObject *guard_hidden(PyObject *self, void *closure)
{
    (void)closure;
    return PyBool_FromLong(((Guard *)self)->hidden);
}

static int guard_set_hidden(PyObject *self, PyObject *value, void *closure)
{
    (void)closure;
    int hide = value == NULL ? 0 : PyObject_IsTrue(value);
    if (hide < 0)
        return -1;
    ((Guard *)self)->hidden = hide;
    return 0;
}

static PyMethodDef guard_methods[] = {
    {"__enter__", guard_enter_py, METH_NOARGS, "Holds the guard (re-entrant; waits for another thread's call)."},
    {"__exit__", (PyCFunction)(void (*)(void))guard_exit_py, METH_FASTCALL, "Releases the guard."},
    {"close", guard_close, METH_NOARGS, "Frees the game (once; waits for a call in progress)."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef guard_getset[] = {
    {"handle", guard_handle, NULL, "The ball_game pointer as an int, None once closed (or hidden).", NULL},
    {"hidden", guard_hidden, guard_set_hidden, "True: the game reads as closed (a search is using it).", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject GuardType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "libball._speed.Guard",
    .tp_basicsize = sizeof(Guard),
    .tp_dealloc = (destructor)guard_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A game and its guard: the ball_game pointer, freed with the object or by close(), "
              "and a re-entrant per-game guard held by `with` around calls that let the interpreter go.",
    .tp_methods = guard_methods,
    .tp_getset = guard_getset,
    .tp_new = guard_tp_new,
};

/* ------------------------------------------------------------ errors */

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

/* The exception of a failed call on g, with the game's message. */
static PyObject *fail(ball_game *g, int rc)
{
    const char *msg = lib.errmsg(g);
    PyObject *text = PyUnicode_DecodeUTF8(msg, (Py_ssize_t)strlen(msg), "replace");
    if (text == NULL)
        return NULL;
    return raise_hook(lib.error, Py_BuildValue("(iN)", rc, text));
}

static PyObject *lacks(const char *name)
{
    return raise_hook(lib.missing, Py_BuildValue("(s)", name));
}

/* The game of a Guard, after any call in progress in another thread;
 * NULL with ClosedGameError once closed. */
static inline ball_game *game_of(PyObject *o)
{
    if (!Py_IS_TYPE(o, &GuardType)) {
        PyErr_Format(PyExc_TypeError, "libball._speed: a Guard, not %.100s", Py_TYPE(o)->tp_name);
        return NULL;
    }
    Guard *guard = (Guard *)o;
    guard_wait(guard);
    if (guard->g == NULL || guard->hidden) {
        raise_hook(lib.closed, PyTuple_New(0));
        return NULL;
    }
    return guard->g;
}

/* ------------------------------------------------------------ actions */

/* The interned Action of a code (a cache hit or a new one). */
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

static void remember(Guard *guard, const ball_action *codes, int n)
{
    struct given *k = &guard->given;
    ball_game *g = guard->g;
    k->valid = 1;
    k->hlen = lib.history_length(g);
    k->turn = lib.turn(g);
    k->hash = lib.hash(g);
    k->codes = codes;
    k->n = n;
    k->next = 0;
}

/* True if code is among the decisions given for the game's current state. */
static int given(Guard *guard, ball_action code)
{
    struct given *k = &guard->given;
    if (!k->valid || lib.apply_unchecked == NULL)
        return 0;
    ball_game *g = guard->g;
    if (lib.history_length(g) != k->hlen || lib.hash(g) != k->hash || lib.turn(g) != k->turn)
        return 0;
    /* a walk applies the list in order: look at the next one first */
    if (k->next < k->n && k->codes[k->next] == code) {
        k->next++;
        return 1;
    }
    for (int i = 0; i < k->n; i++)
        if (k->codes[i] == code) {
            k->next = i + 1;
            return 1;
        }
    return 0;
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

/* ------------------------------------------------------------ reading */

static PyObject *read_int(PyObject *o, read_fn fn)
{
    ball_game *g = game_of(o);
    if (g == NULL)
        return NULL;
    int rc = fn(g);
    return rc < 0 ? fail(g, rc) : PyLong_FromLong(rc);
}

/* is_over(guard) -> bool */
static PyObject *sp_is_over(PyObject *self, PyObject *o)
{
    (void)self;
    ball_game *g = game_of(o);
    if (g == NULL)
        return NULL;
    int rc = lib.result(g);
    if (rc < 0)
        return fail(g, rc);
    return PyBool_FromLong(rc != BALL_ONGOING);
}

/* result(guard) -> int */
static PyObject *sp_result(PyObject *self, PyObject *o)
{
    (void)self;
    return read_int(o, lib.result);
}

/* side(guard) -> int */
static PyObject *sp_side(PyObject *self, PyObject *o)
{
    (void)self;
    return read_int(o, lib.side);
}

/* turn(guard) -> int */
static PyObject *sp_turn(PyObject *self, PyObject *o)
{
    (void)self;
    return read_int(o, lib.turn);
}

/* history_length(guard) -> int */
static PyObject *sp_history_length(PyObject *self, PyObject *o)
{
    (void)self;
    return read_int(o, lib.history_length);
}

/* hash(guard) -> int */
static PyObject *sp_hash(PyObject *self, PyObject *o)
{
    (void)self;
    ball_game *g = game_of(o);
    return g == NULL ? NULL : PyLong_FromUnsignedLongLong(lib.hash(g));
}

/* history_action(guard, i) -> Action; a negative i counts from the end */
static PyObject *sp_history_action(PyObject *self, PyObject *const *args, Py_ssize_t n)
{
    (void)self;
    int i;
    if (nargs("history_action", n, 2) || int_arg(args[1], &i))
        return NULL;
    ball_game *g = game_of(args[0]);
    if (g == NULL)
        return NULL;
    if (i < 0)
        i += lib.history_length(g);
    ball_action a;
    int rc = lib.history_action(g, i, &a);
    return rc < 0 ? fail(g, rc) : action_of(a);
}

/* history(guard) -> list of Actions, oldest first */
static PyObject *sp_history(PyObject *self, PyObject *o)
{
    (void)self;
    ball_game *g = game_of(o);
    if (g == NULL)
        return NULL;
    int len = lib.history_length(g);
    if (len < 0)
        return fail(g, len);
    PyObject *list = PyList_New(len);
    for (int i = 0; list != NULL && i < len; i++) {
        ball_action a;
        int rc = lib.history_action(g, i, &a);
        PyObject *action = rc < 0 ? fail(g, rc) : action_of(a);
        if (action == NULL)
            Py_CLEAR(list);
        else
            PyList_SET_ITEM(list, i, action);
    }
    return list;
}

/* actions(codes) -> list of the Actions of a sequence of codes */
static PyObject *sp_actions(PyObject *self, PyObject *codes)
{
    (void)self;
    PyObject *seq = PySequence_Fast(codes, "libball._speed.actions: a sequence of codes");
    if (seq == NULL)
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject *list = PyList_New(n);
    for (Py_ssize_t i = 0; list != NULL && i < n; i++) {
        unsigned long code = PyLong_AsUnsignedLong(PySequence_Fast_GET_ITEM(seq, i));
        PyObject *a = code == (unsigned long)-1 && PyErr_Occurred() ? NULL : action_of((ball_action)code);
        if (a == NULL)
            Py_CLEAR(list);
        else
            PyList_SET_ITEM(list, i, a);
    }
    Py_DECREF(seq);
    return list;
}

/* ------------------------------------------------------------ playing */

/* random_action(guard, random) -> Action */
static PyObject *sp_random_action(PyObject *self, PyObject *const *args, Py_ssize_t n)
{
    (void)self;
    uint64_t r;
    if (nargs("random_action", n, 2) || u64_arg(args[1], &r))
        return NULL;
    ball_game *g = game_of(args[0]);
    if (g == NULL)
        return NULL;
    Guard *guard = (Guard *)args[0];
    ball_action a;
    int rc = lib.random_action(g, r, &a);
    if (rc < 0)
        return fail(g, rc);
    guard->given.one = a;
    remember(guard, &guard->given.one, 1);
    return action_of(a);
}

/* random_apply(guard, random) -> Action */
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
    forget((Guard *)args[0]);
    ball_action a;
    int rc = lib.random_apply(g, r, &a);
    return rc < 0 ? fail(g, rc) : action_of(a);
}

/* apply(guard, code) -> None (code: a 32-bit action code) */
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
    Guard *guard = (Guard *)args[0];
    /* given() keeps the decisions: an undo() brings their state back */
    int rc = given(guard, (ball_action)code) ? lib.apply_unchecked(g, (ball_action)code)
                                              : lib.apply(g, (ball_action)code);
    if (rc < 0)
        return fail(g, rc);
    Py_RETURN_NONE;
}

/* undo(guard) -> None */
static PyObject *sp_undo(PyObject *self, PyObject *o)
{
    (void)self;
    ball_game *g = game_of(o);
    if (g == NULL)
        return NULL;
    int rc = lib.undo(g);
    if (rc < 0)
        return fail(g, rc);
    Py_RETURN_NONE;
}

/* pop(guard) -> Action: the last decision, taken back */
static PyObject *sp_pop(PyObject *self, PyObject *o)
{
    (void)self;
    ball_game *g = game_of(o);
    if (g == NULL)
        return NULL;
    ball_action a = 0;
    int len = lib.history_length(g);
    if (len > 0 && lib.history_action(g, len - 1, &a) < 0)
        a = 0;
    int rc = lib.undo(g);
    if (rc < 0)
        return fail(g, rc);
    return action_of(a);
}

/* apply_index(guard, index) -> None */
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
    forget((Guard *)args[0]);
    int rc = lib.apply_index(g, index);
    if (rc < 0)
        return fail(g, rc);
    Py_RETURN_NONE;
}

/* random_playout(guard, seed, max_decisions) -> int */
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
     * want the interpreter meanwhile: it holds the guard, which keeps the
     * other calls on this game out, and lets the interpreter go. */
    Guard *guard = (Guard *)args[0];
    forget(guard);
    guard_enter(guard);
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = lib.random_playout(g, seed, limit);
    Py_END_ALLOW_THREADS
    guard_exit(guard);
    return rc < 0 ? fail(g, rc) : PyLong_FromLong(rc);
}

/* legal_codes(guard) -> bytes: the legal action codes, native uint32 */
static PyObject *sp_legal_codes(PyObject *self, PyObject *o)
{
    (void)self;
    ball_game *g = game_of(o);
    if (g == NULL)
        return NULL;
    Guard *guard = (Guard *)o;
    struct given *k = &guard->given;
    if (k->list == NULL && (k->list = PyMem_Malloc(BALL_MAX_ACTIONS * sizeof k->list[0])) == NULL)
        return PyErr_NoMemory();
    int rc = lib.legal_actions(g, k->list, BALL_MAX_ACTIONS);
    if (rc < 0) {
        forget(guard);
        return fail(g, rc);
    }
    remember(guard, k->list, rc);
    return PyBytes_FromStringAndSize((const char *)k->list, (Py_ssize_t)rc * (Py_ssize_t)sizeof k->list[0]);
}

/* count_legal(guard) -> int */
static PyObject *sp_count_legal(PyObject *self, PyObject *o)
{
    (void)self;
    ball_game *g = game_of(o);
    if (g == NULL)
        return NULL;
    int rc = lib.legal_actions(g, NULL, 0);
    return rc < 0 ? fail(g, rc) : PyLong_FromLong(rc);
}

/* to_bpn(guard) -> str */
static PyObject *sp_to_bpn(PyObject *self, PyObject *o)
{
    (void)self;
    ball_game *g = game_of(o);
    if (g == NULL)
        return NULL;
    char buf[BALL_BPN_MAX];
    int rc = lib.to_text(g, buf, sizeof buf);
    if (rc < 0)
        return fail(g, rc);
    return PyUnicode_DecodeUTF8(buf, (Py_ssize_t)strlen(buf), "replace");
}

/* The game and the text of a call (guard, text: bytes without NUL);
 * NULL with the exception. */
static ball_game *game_and_text(const char *name, PyObject *const *args, Py_ssize_t n,
                                const char **text)
{
    if (nargs(name, n, 2))
        return NULL;
    *text = PyBytes_AsString(args[1]);
    if (*text == NULL)
        return NULL;
    return game_of(args[0]);
}

/* from_bpn(guard, text: bytes without NUL) -> None */
static PyObject *sp_from_bpn(PyObject *self, PyObject *const *args, Py_ssize_t n)
{
    (void)self;
    const char *text;
    ball_game *g = game_and_text("from_bpn", args, n, &text);
    if (g == NULL)
        return NULL;
    forget((Guard *)args[0]);
    int rc = lib.from_text(g, text);
    if (rc < 0)
        return fail(g, rc);
    Py_RETURN_NONE;
}

/* action_from_text(guard, text: bytes without NUL) -> int, the code of
 * the action of this position written text (N2) */
static PyObject *sp_action_from_text(PyObject *self, PyObject *const *args, Py_ssize_t n)
{
    (void)self;
    const char *text;
    ball_game *g = game_and_text("action_from_text", args, n, &text);
    if (g == NULL)
        return NULL;
    ball_action code = 0;
    int rc = lib.action_from_text(g, text, &code);
    if (rc < 0)
        return fail(g, rc);
    return PyLong_FromUnsignedLong(code);
}

/* ------------------------------------------------------------ lifetime */

/* game_new(rules_address) -> Guard, or (rc, message) on failure;
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
    return (PyObject *)guard_new(g);
}

/* game_clone(guard) -> Guard, or the error code (an int < 0) */
static PyObject *sp_game_clone(PyObject *self, PyObject *o)
{
    (void)self;
    ball_game *g = game_of(o);
    if (g == NULL)
        return NULL;
    ball_game *copy = NULL;
    int rc = lib.game_clone(&copy, g);
    if (rc < 0 || copy == NULL)
        return PyLong_FromLong(rc < 0 ? rc : BALL_E_NOMEM);
    return (PyObject *)guard_new(copy);
}

/* ------------------------------------------------------------ Game's methods
 *
 * The hot methods of libball.Game itself, as method descriptors of the
 * class (methods(), called once by game.py): `g.apply(a)` runs here
 * without a Python frame. self is the Game; its guard is self._lock. An
 * argument of an unusual kind (not an exact int, an Action or None) goes
 * to the Python method of game.py, which checks it and raises what 1.0
 * raised: one implementation of the checks, in Python. */

/* The slot at offset of o (a new reference), AttributeError when unset. */
static PyObject *slot_at(PyObject *o, Py_ssize_t offset, PyObject *name)
{
    PyObject *v = *(PyObject **)((char *)o + offset);
    if (v == NULL) {
        PyErr_SetObject(PyExc_AttributeError, name);
        return NULL;
    }
    return Py_NewRef(v);
}

/* The Guard of a Game (a new reference), NULL with an exception. The
 * method descriptors check that self is a Game, whose slot _lock is at
 * lock_offset. */
static PyObject *guard_of(PyObject *self)
{
    PyObject *guard = lib.lock_offset ? slot_at(self, lib.lock_offset, lib.s_lock) : PyObject_GetAttr(self, lib.s_lock);
    if (guard != NULL && !Py_IS_TYPE(guard, &GuardType)) {
        Py_DECREF(guard);
        PyErr_SetString(PyExc_TypeError, "libball._speed: the game's _lock is not a Guard");
        return NULL;
    }
    return guard;
}

/* fn(guard) for the NOARGS methods below */
static PyObject *on_guard(PyObject *self, PyObject *(*fn)(PyObject *, PyObject *))
{
    PyObject *guard = guard_of(self);
    if (guard == NULL)
        return NULL;
    PyObject *r = fn(NULL, guard);
    Py_DECREF(guard);
    return r;
}

/* the member of an enum by value (a tuple indexed by value) */
static PyObject *member(PyObject *r, PyObject *members)
{
    if (r == NULL)
        return NULL;
    Py_ssize_t v = PyLong_AsSsize_t(r);
    Py_DECREF(r);
    if (v < 0 || v >= PyTuple_GET_SIZE(members)) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "libball._speed: a value out of its enum");
        return NULL;
    }
    PyObject *m = PyTuple_GET_ITEM(members, v);
    Py_INCREF(m);
    return m;
}

static PyObject *m_is_over(PyObject *self, PyObject *unused)
{
    (void)unused;
    return on_guard(self, sp_is_over);
}

static PyObject *m_result(PyObject *self, PyObject *unused)
{
    (void)unused;
    return member(on_guard(self, sp_result), lib.results);
}

static PyObject *m_side(PyObject *self, PyObject *unused)
{
    (void)unused;
    return member(on_guard(self, sp_side), lib.teams);
}

static PyObject *m_hash(PyObject *self, PyObject *unused)
{
    (void)unused;
    return on_guard(self, sp_hash);
}

static PyObject *m_history_length(PyObject *self, PyObject *unused)
{
    (void)unused;
    return on_guard(self, sp_history_length);
}

static PyObject *m_move_stack(PyObject *self, PyObject *unused)
{
    (void)unused;
    return on_guard(self, sp_history);
}

static PyObject *m_bpn(PyObject *self, PyObject *unused)
{
    (void)unused;
    return on_guard(self, sp_to_bpn);
}

static PyObject *m_undo(PyObject *self, PyObject *unused)
{
    (void)unused;
    return on_guard(self, sp_undo);
}

static PyObject *m_pop(PyObject *self, PyObject *unused)
{
    (void)unused;
    return on_guard(self, sp_pop);
}

static PyObject *m_count_legal_actions(PyObject *self, PyObject *unused)
{
    (void)unused;
    return on_guard(self, sp_count_legal);
}

/* legal_actions(): LegalActions of the codes (game.py's factory) */
static PyObject *m_legal_actions(PyObject *self, PyObject *unused)
{
    (void)unused;
    PyObject *codes = on_guard(self, sp_legal_codes);
    if (codes == NULL)
        return NULL;
    PyObject *r = PyObject_CallOneArg(lib.legal, codes);
    Py_DECREF(codes);
    return r;
}

/* peek(): the last decision or None */
static PyObject *m_peek(PyObject *self, PyObject *unused)
{
    (void)unused;
    PyObject *guard = guard_of(self);
    if (guard == NULL)
        return NULL;
    PyObject *r = NULL;
    ball_game *g = game_of(guard);
    if (g != NULL) {
        int len = lib.history_length(g);
        ball_action a;
        int rc = len <= 0 ? len : lib.history_action(g, len - 1, &a);
        if (rc < 0)
            r = fail(g, rc);
        else if (len == 0)
            r = Py_NewRef(Py_None);
        else
            r = action_of(a);
    }
    Py_DECREF(guard);
    return r;
}

/* The Python method fn(self, *args) with at most one argument (the
 * callers check), keywords included. */
static PyObject *to_python(PyObject *fn, PyObject *self, PyObject *const *args, Py_ssize_t n, PyObject *kwnames)
{
    PyObject *all[2];
    Py_ssize_t total = n + (kwnames != NULL ? PyTuple_GET_SIZE(kwnames) : 0);
    all[0] = self;
    for (Py_ssize_t i = 0; i < total; i++)
        all[i + 1] = args[i];
    return PyObject_Vectorcall(fn, all, (size_t)n + 1, kwnames);
}

/* random_action(random=None) */
static PyObject *m_random_action(PyObject *self, PyObject *const *args, Py_ssize_t nargsf, PyObject *kwnames)
{
    Py_ssize_t n = PyVectorcall_NARGS(nargsf);
    uint64_t r;
    if (kwnames != NULL || n > 1 || (n == 1 && !PyLong_CheckExact(args[0]) && args[0] != Py_None)) {
        if (n + (kwnames != NULL ? PyTuple_GET_SIZE(kwnames) : 0) > 1) {
            PyErr_SetString(PyExc_TypeError, "random_action() takes at most 1 argument");
            return NULL;
        }
        return to_python(lib.py_random_action, self, args, n, kwnames);
    }
    PyObject *bits;
    if (n == 0 || args[0] == Py_None) {
        PyObject *k = PyLong_FromLong(64);
        if (k == NULL)
            return NULL;
        bits = PyObject_CallOneArg(lib.getrandbits, k);
        Py_DECREF(k);
        if (bits == NULL)
            return NULL;
    } else {
        bits = Py_NewRef(args[0]);
    }
    unsigned long long v = PyLong_AsUnsignedLongLong(bits);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) {
        /* negative or 2**64 and more: the Python method says so */
        PyErr_Clear();
        PyObject *res = to_python(lib.py_random_action, self, &bits, 1, NULL);
        Py_DECREF(bits);
        return res;
    }
    Py_DECREF(bits);
    r = (uint64_t)v;
    PyObject *guard = guard_of(self);
    if (guard == NULL)
        return NULL;
    PyObject *res = NULL;
    ball_game *g = game_of(guard);
    if (g != NULL) {
        ball_action a;
        int rc = lib.random_action(g, r, &a);
        if (rc < 0) {
            res = fail(g, rc);
        } else {
            Guard *gd = (Guard *)guard;
            gd->given.one = a;
            remember(gd, &gd->given.one, 1);
            res = action_of(a);
        }
    }
    Py_DECREF(guard);
    return res;
}

/* apply(action): an Action here, anything else through the Python method */
static PyObject *m_apply(PyObject *self, PyObject *action)
{
    if ((PyObject *)Py_TYPE(action) != lib.action_type)
        return to_python(lib.py_apply, self, &action, 1, NULL);
    PyObject *code = lib.code_offset ? slot_at(action, lib.code_offset, lib.s_code) : PyObject_GetAttr(action, lib.s_code);
    if (code == NULL)
        return NULL;
    PyObject *guard = guard_of(self);
    if (guard == NULL) {
        Py_DECREF(code);
        return NULL;
    }
    PyObject *args[2] = {guard, code};
    PyObject *r = sp_apply(NULL, args, 2);
    Py_DECREF(guard);
    Py_DECREF(code);
    if (r == NULL)
        return NULL;
    Py_DECREF(r);
    return Py_NewRef(action);
}

/* history_action(i): an exact int here, anything else through Python */
static PyObject *m_history_action(PyObject *self, PyObject *i)
{
    if (!PyLong_CheckExact(i))
        return to_python(lib.py_history_action, self, &i, 1, NULL);
    int overflow;
    long v = PyLong_AsLongAndOverflow(i, &overflow);
    if (overflow || v < INT_MIN || v > INT_MAX)
        return to_python(lib.py_history_action, self, &i, 1, NULL);
    PyObject *guard = guard_of(self);
    if (guard == NULL)
        return NULL;
    PyObject *args[2] = {guard, i};
    PyObject *r = sp_history_action(NULL, args, 2);
    Py_DECREF(guard);
    return r;
}

/* The properties, as getset descriptors (read without a call). */
#define GETTER(name)                                          \
    static PyObject *g_##name(PyObject *self, void *closure)  \
    {                                                         \
        (void)closure;                                        \
        return m_##name(self, NULL);                          \
    }
GETTER(is_over)
GETTER(result)
GETTER(side)
GETTER(hash)
GETTER(history_length)
GETTER(move_stack)
GETTER(bpn)

/* bpn = text: the Python setter (Game.set_bpn) */
static int s_bpn(PyObject *self, PyObject *value, void *closure)
{
    (void)closure;
    if (value == NULL) {
        PyErr_SetString(PyExc_AttributeError, "can't delete attribute 'bpn'");
        return -1;
    }
    PyObject *args[2] = {self, value};
    PyObject *r = PyObject_Vectorcall(lib.py_set_bpn, args, 2, NULL);
    if (r == NULL)
        return -1;
    Py_DECREF(r);
    return 0;
}

static PyGetSetDef game_getset[] = {
    {"is_over", g_is_over, NULL, NULL, NULL},
    {"result", g_result, NULL, NULL, NULL},
    {"side", g_side, NULL, NULL, NULL},
    {"hash", g_hash, NULL, NULL, NULL},
    {"history_length", g_history_length, NULL, NULL, NULL},
    {"move_stack", g_move_stack, NULL, NULL, NULL},
    {"bpn", g_bpn, s_bpn, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

/* The offset of the __slots__ member name of type, 0 if it has none. */
static Py_ssize_t slot_offset(PyObject *type, const char *name)
{
    PyObject *d = PyDict_GetItemString(((PyTypeObject *)type)->tp_dict, name);
    if (d == NULL || !Py_IS_TYPE(d, &PyMemberDescr_Type))
        return 0;
    PyMemberDef *m = ((PyMemberDescrObject *)d)->d_member;
    return m->type == T_OBJECT_EX ? m->offset : 0;
}

/* The docstring of the Python method or property name, kept alive. */
static const char *doc_of(PyObject *python, const char *name)
{
    PyObject *fn = PyDict_GetItemString(python, name);
    PyObject *doc = fn != NULL ? PyObject_GetAttrString(fn, "__doc__") : NULL;
    const char *text = NULL;
    if (doc != NULL && PyUnicode_Check(doc) && PyList_Append(lib.docs, doc) == 0)
        text = PyUnicode_AsUTF8(doc);
    Py_XDECREF(doc);
    PyErr_Clear();
    return text;
}

/* methods(cls, python: dict name -> the Python method or getter, results,
 * teams, getrandbits, legal, action_type) -> dict name -> method or getset
 * descriptor of cls, with the Python one's docstring. */
static PyMethodDef game_methods[] = {
    {"undo", m_undo, METH_NOARGS, NULL},
    {"pop", m_pop, METH_NOARGS, NULL},
    {"peek", m_peek, METH_NOARGS, NULL},
    {"count_legal_actions", m_count_legal_actions, METH_NOARGS, NULL},
    {"legal_actions", m_legal_actions, METH_NOARGS, NULL},
    {"random_action", (PyCFunction)(void (*)(void))m_random_action, METH_FASTCALL | METH_KEYWORDS, NULL},
    {"apply", m_apply, METH_O, NULL},
    {"history_action", m_history_action, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

static PyObject *sp_methods(PyObject *self, PyObject *const *args, Py_ssize_t n)
{
    (void)self;
    if (nargs("methods", n, 7))
        return NULL;
    if (!PyType_Check(args[0]) || !PyDict_Check(args[1]) || !PyTuple_Check(args[2]) || !PyTuple_Check(args[3]) ||
        !PyType_Check(args[6])) {
        PyErr_SetString(PyExc_TypeError, "libball._speed.methods(cls, python, results, teams, getrandbits, legal, "
                                         "action_type)");
        return NULL;
    }
    PyObject **slots[] = {&lib.results, &lib.teams, &lib.getrandbits, &lib.legal, &lib.action_type};
    for (size_t i = 0; i < 5; i++)
        Py_XSETREF(*slots[i], Py_NewRef(args[i + 2]));
    struct {
        const char *name;
        PyObject **slot;
    } python[] = {{"random_action", &lib.py_random_action}, {"apply", &lib.py_apply},
                  {"history_action", &lib.py_history_action}, {"set_bpn", &lib.py_set_bpn}};
    for (size_t i = 0; i < sizeof python / sizeof python[0]; i++) {
        PyObject *fn = PyDict_GetItemString(args[1], python[i].name);
        if (fn == NULL) {
            PyErr_Format(PyExc_KeyError, "libball._speed.methods: no Python method %s", python[i].name);
            return NULL;
        }
        Py_XSETREF(*python[i].slot, Py_NewRef(fn));
    }
    if (lib.s_lock == NULL && ((lib.s_lock = PyUnicode_InternFromString("_lock")) == NULL ||
                               (lib.s_code = PyUnicode_InternFromString("_code")) == NULL))
        return NULL;
    if (lib.docs == NULL && (lib.docs = PyList_New(0)) == NULL)
        return NULL;
    lib.lock_offset = slot_offset(args[0], "_lock");
    lib.code_offset = slot_offset(args[6], "_code");
    PyObject *out = PyDict_New();
    for (PyMethodDef *def = game_methods; out != NULL && def->ml_name != NULL; def++) {
        def->ml_doc = doc_of(args[1], def->ml_name);
        PyObject *descr = PyDescr_NewMethod((PyTypeObject *)args[0], def);
        if (descr == NULL || PyDict_SetItemString(out, def->ml_name, descr) < 0)
            Py_CLEAR(out);
        Py_XDECREF(descr);
    }
    for (PyGetSetDef *def = game_getset; out != NULL && def->name != NULL; def++) {
        def->doc = doc_of(args[1], def->name);
        PyObject *descr = PyDescr_NewGetSet((PyTypeObject *)args[0], def);
        if (descr == NULL || PyDict_SetItemString(out, def->name, descr) < 0)
            Py_CLEAR(out);
        Py_XDECREF(descr);
    }
    return out;
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
        {"ball_apply_unchecked", offsetof(struct speed_lib, apply_unchecked), 0},
        {"ball_apply_index", offsetof(struct speed_lib, apply_index), 0},
        {"ball_random_playout", offsetof(struct speed_lib, random_playout), 0},
        {"ball_legal_actions", offsetof(struct speed_lib, legal_actions), 1},
        {"ball_position_to_text", offsetof(struct speed_lib, to_text), 1},
        {"ball_position_from_text", offsetof(struct speed_lib, from_text), 1},
        {"ball_game_new", offsetof(struct speed_lib, game_new), 1},
        {"ball_game_clone", offsetof(struct speed_lib, game_clone), 1},
        {"ball_game_free", offsetof(struct speed_lib, game_free), 1},
        {"ball_rules_init", offsetof(struct speed_lib, rules_init), 1},
        {"ball_result", offsetof(struct speed_lib, result), 1},
        {"ball_side", offsetof(struct speed_lib, side), 1},
        {"ball_turn", offsetof(struct speed_lib, turn), 1},
        {"ball_history_length", offsetof(struct speed_lib, history_length), 1},
        {"ball_undo", offsetof(struct speed_lib, undo), 1},
        {"ball_hash", offsetof(struct speed_lib, hash), 1},
        {"ball_history_action", offsetof(struct speed_lib, history_action), 1},
        {"ball_errmsg", offsetof(struct speed_lib, errmsg), 1},
        {"ball_action_from_text", offsetof(struct speed_lib, action_from_text), 1},
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

#define FAST(name, doc) {#name, (PyCFunction)(void (*)(void))sp_##name, METH_FASTCALL, doc}
#define ONE(name, doc) {#name, sp_##name, METH_O, doc}
static PyMethodDef methods[] = {
    FAST(bind, "Binds the library's functions and the hooks."),
    FAST(methods, "The hot methods of Game as method descriptors (see _speed.c)."),
    ONE(is_over, "ball_result() != BALL_ONGOING"),
    ONE(result, "ball_result()"),
    ONE(side, "ball_side()"),
    ONE(turn, "ball_turn()"),
    ONE(hash, "ball_hash()"),
    ONE(history_length, "ball_history_length()"),
    FAST(history_action, "ball_history_action(), a negative index from the end"),
    ONE(history, "every ball_history_action(), oldest first"),
    ONE(actions, "the Actions of a sequence of codes"),
    FAST(random_action, "ball_random_action()"),
    FAST(random_apply, "ball_random_apply()"),
    FAST(apply, "ball_apply(), ball_apply_unchecked() for a decision the library gave for this state"),
    ONE(undo, "ball_undo()"),
    ONE(pop, "the last decision, then ball_undo()"),
    FAST(apply_index, "ball_apply_index()"),
    FAST(random_playout, "ball_random_playout()"),
    ONE(legal_codes, "ball_legal_actions(), the codes as bytes"),
    ONE(count_legal, "ball_legal_actions(game, NULL, 0)"),
    ONE(to_bpn, "ball_position_to_text()"),
    FAST(from_bpn, "ball_position_from_text()"),
    FAST(action_from_text, "ball_action_from_text(), the code"),
    ONE(game_new, "ball_game_new(), a Guard"),
    ONE(game_clone, "ball_game_clone(), a Guard"),
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_speed", "The hot calls of libball.Game in C (see _speed.c).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__speed(void)
{
    if (PyType_Ready(&GuardType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    Py_INCREF(&GuardType);
    if (PyModule_AddObject(m, "Guard", (PyObject *)&GuardType) < 0) {
        Py_DECREF(&GuardType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
