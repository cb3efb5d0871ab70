# SPDX-License-Identifier: MIT
"""The binding cannot drift from include/ball.h: its constants, enum
classes, error classes, ctypes prototypes and structs are compared with the
header of the repository the tests live in (read with simple regular
expressions). Skipped only when the header is absent (never in the
repository)."""

import ctypes
import re
import unittest

import libball
from libball import _native as n
from libball import errors, game

from helpers import HEADER

# `#define BALL_NAME 123` (also hex, negative, with a u suffix).
_DEFINE = re.compile(r"^\s*#\s*define\s+BALL_(\w+)\s+\(?(-?(?:0[xX][0-9a-fA-F]+|\d+))[uU]?\)?\s*"
                     r"(?:/\*.*|//.*)?$", re.M)
# `BALL_NAME = 123` inside an enum.
_ENUMERATOR = re.compile(r"\bBALL_(\w+)\s*=\s*(-?(?:0[xX][0-9a-fA-F]+|\d+))\b")
_ENUM = re.compile(r"\benum\s+(ball_\w+)\s*\{(.*?)\}\s*;", re.S)
_PROTO = re.compile(r"^BALL_API\s+([^;{}()]*?)\s*\b(ball_\w+)\s*\(([^;{}]*?)\)\s*;", re.S | re.M)
_STRUCT = re.compile(r"typedef\s+struct\s+(ball_\w+)\s*\{(.*?)\}\s*\1\s*;", re.S)

# Binding-only integer constants of _native (no BALL_ counterpart).
_OWN = {"ABI_MAJOR", "INT_MIN", "INT_MAX", "UINT_MAX", "UINT64_MAX", "SIZE_MAX", "ERR_MAX"}


def _strip_comments(text, experimental=False):
    """The C code of the header: no comments, no preprocessor lines, and
    (unless ``experimental``) not its experimental section, which the
    binding declares only in part (it may change in any minor release)."""
    if not experimental:
        text = re.sub(r"^#ifdef BALL_EXPERIMENTAL$.*?^#endif /\* BALL_EXPERIMENTAL \*/$", " ", text,
                      flags=re.S | re.M)
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    return re.sub(r"^\s*#.*(?:\\\n.*)*$", " ", text, flags=re.M)


def _read_header():
    if not HEADER.is_file():
        raise unittest.SkipTest("%s is absent" % HEADER)
    return HEADER.read_text()


def _int(text):
    return int(text, 0)


class Header:
    """The header's constants, enums, prototypes and structs."""

    def __init__(self, text, experimental=False):
        self.defines = {m.group(1): _int(m.group(2)) for m in _DEFINE.finditer(text)}
        # every #define of a BALL_ name, a number's expression included
        # (BALL_VERSION_NUMBER)
        self.define_names = set(re.findall(r"^\s*#\s*define\s+BALL_(\w+)\s", text, re.M))
        code = _strip_comments(text, experimental)
        self.enums = {}
        for m in _ENUM.finditer(code):
            self.enums[m.group(1)] = {e.group(1): _int(e.group(2))
                                      for e in _ENUMERATOR.finditer(m.group(2))}
        self.enumerators = {k: v for values in self.enums.values() for k, v in values.items()}
        self.functions = {}
        for m in _PROTO.finditer(code):
            ret = " ".join(m.group(1).split())
            params = [" ".join(p.split()) for p in m.group(3).split(",")]
            if params == ["void"]:
                params = []
            self.functions[m.group(2)] = (ret, [_param_type(p) for p in params])
        self.structs = {m.group(1): m.group(2) for m in _STRUCT.finditer(code)}
        # The experimental section's functions, which the binding may
        # declare too (scripts/api-check.py checks their types).
        m = re.search(r"^#ifdef BALL_EXPERIMENTAL$(.*?)^#endif /\* BALL_EXPERIMENTAL \*/$", text,
                      flags=re.S | re.M)
        self.experimental = set(re.findall(r"BALL_API\s+[^;(]*?\b(ball_\w+)\s*\(",
                                           m.group(1))) if m else set()


def _param_type(param):
    """The type of a parameter declaration ("const char *text" -> "const char *")."""
    m = re.match(r"^(.*?)\s*(\w+)$", param)
    return _norm(m.group(1))


def _norm(ctype):
    """One spelling of a C type: single spaces, stars apart ("char *")."""
    ctype = re.sub(r"\s*\*\s*", " *", ctype.strip())
    ctype = ctype.replace("* *", "**")
    return " ".join(ctype.split())


# C types of ball.h -> the ctypes type the binding must declare.
_CTYPES = {
    "void": None,
    "int": ctypes.c_int,
    "unsigned": ctypes.c_uint,
    "size_t": ctypes.c_size_t,
    "uint64_t": ctypes.c_uint64,
    "ball_action": ctypes.c_uint32,
    "ball_task": ctypes.c_int32,
    "const char *": ctypes.c_char_p,
    "char *": ctypes.c_char_p,
    "ball_game *": ctypes.c_void_p,
    "const ball_game *": ctypes.c_void_p,
    "ball_game **": ctypes.POINTER(ctypes.c_void_p),
    "ball_cardset *": ctypes.c_void_p,
    "const ball_cardset *": ctypes.c_void_p,
    "ball_cardset **": ctypes.POINTER(ctypes.c_void_p),
    "ball_rules *": ctypes.POINTER(n.BallRules),
    "const ball_rules *": ctypes.POINTER(n.BallRules),
    "ball_allocator *": ctypes.POINTER(n.BallAllocator),
    "const ball_allocator *": ctypes.POINTER(n.BallAllocator),
    "ball_action *": ctypes.POINTER(ctypes.c_uint32),
    "ball_task *": ctypes.POINTER(ctypes.c_int32),
    "int *": ctypes.POINTER(ctypes.c_int),
    "const int *": ctypes.POINTER(ctypes.c_int),
    "uint64_t *": ctypes.POINTER(ctypes.c_uint64),
    "uint8_t *": ctypes.POINTER(ctypes.c_uint8),
    "uint16_t *": ctypes.POINTER(ctypes.c_uint16),
    "const uint8_t *": ctypes.POINTER(ctypes.c_uint8),
    "int32_t *": ctypes.POINTER(ctypes.c_int32),
    "const int32_t *": ctypes.POINTER(ctypes.c_int32),
    "float *": ctypes.POINTER(ctypes.c_float),
    "const float *": ctypes.POINTER(ctypes.c_float),
    "void *": ctypes.c_void_p,
    "ball_batch *": ctypes.c_void_p,
    "const ball_batch *": ctypes.c_void_p,
    "ball_batch **": ctypes.POINTER(ctypes.c_void_p),
    "ball_mcts *": ctypes.c_void_p,
    "ball_mcts **": ctypes.POINTER(ctypes.c_void_p),
    "ball_mcts_config *": ctypes.POINTER(n.BallMctsConfig),
    "const ball_mcts_config *": ctypes.POINTER(n.BallMctsConfig),
    "ball_mcts_stats *": ctypes.POINTER(n.BallMctsStats),
    "size_t *": ctypes.POINTER(ctypes.c_size_t),
    "ball_search *": ctypes.c_void_p,
    "const ball_search *": ctypes.c_void_p,
    "ball_search **": ctypes.POINTER(ctypes.c_void_p),
    "ball_search_config *": ctypes.POINTER(n.BallSearchConfig),
    "const ball_search_config *": ctypes.POINTER(n.BallSearchConfig),
    "ball_search_result *": ctypes.POINTER(n.BallSearchResult),
    "ball_search_line *": ctypes.POINTER(n.BallSearchLine),
    # the experimental tier that the binding declares
    "double": ctypes.c_double,
    "double *": ctypes.POINTER(ctypes.c_double),
    "ball_search_eval_fn": n.SEARCH_EVAL_FN,
    "ball_search_prior_fn": n.SEARCH_PRIOR_FN,
    "const ball_mcts *": ctypes.c_void_p,
    "uint32_t *": ctypes.POINTER(ctypes.c_uint32),
    "const void *": ctypes.c_void_p,
    "ball_net *": ctypes.c_void_p,
    "const ball_net *": ctypes.c_void_p,
    "ball_net **": ctypes.POINTER(ctypes.c_void_p),
}

# Enum classes of the Python layer: header enum -> (class, header name of
# a member). Every enumerator of the header enum must be a member.
_ENUM_CLASSES = {
    "ball_team": (game.Team, lambda m: m),
    "ball_phase": (game.Phase, lambda m: "PHASE_" + m),
    "ball_result": (game.Result, lambda m: m),
    "ball_piece_type": (game.PieceType, lambda m: {"S": "SQUARE"}.get(m, m)),
    "ball_action_kind": (game.ActionKind, lambda m: m),
    "ball_action_flags": (game.ActionFlag, lambda m: "FLAG_" + m),
    "ball_keeper": (game.Keeper, lambda m: "KEEPER_" + m),
    "ball_task_kind": (game.TaskKind, lambda m: "TASK_" + m),
    "ball_card_effect": (game.CardEffect, lambda m: "EFFECT_" + m),
    "ball_verb": (game.Verb, lambda m: "VERB_" + m),
}


class HeaderConstants(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.h = Header(_read_header())

    def test_parsed_something(self):
        # Guards the regular expressions themselves.
        self.assertGreaterEqual(len(self.h.defines), 20)
        self.assertGreaterEqual(len(self.h.enums), 15)
        self.assertEqual(self.h.enumerators["E_LIMIT"], -10)
        self.assertEqual(self.h.defines["NO_SQUARE"], 127)
        self.assertEqual(self.h.defines["ACTION_NONE"], 0)
        self.assertGreaterEqual(len(self.h.functions), 60)

    def test_every_enumerator_is_in_the_binding(self):
        for name, value in self.h.enumerators.items():
            with self.subTest(name="BALL_" + name):
                self.assertTrue(hasattr(n, name), "libball._native lacks %s" % name)
                self.assertEqual(getattr(n, name), value)

    def test_every_define_the_binding_has_is_equal(self):
        for name, value in self.h.defines.items():
            if hasattr(n, name):
                with self.subTest(name="BALL_" + name):
                    self.assertEqual(getattr(n, name), value)
        # The ones the binding relies on must be there.
        for name in ("NUM_SQUARES", "NUM_COLS", "NUM_ROWS", "NO_SQUARE", "SQUARE_TEXT_MAX",
                     "MAX_ACTIONS", "ACTION_TEXT_MAX", "MAX_TASKS", "SELECT_STEPS", "BPN_MAX",
                     "RULES_TEXT_MAX", "MAX_PERFT_DEPTH", "VERSION_MAJOR"):
            self.assertIn(name, self.h.defines)
            self.assertTrue(hasattr(n, name), name)

    def test_no_constant_without_header_counterpart(self):
        known = self.h.define_names | set(self.h.enumerators) | _OWN
        for name, value in vars(n).items():
            if name.isupper() and isinstance(value, int) and not isinstance(value, bool):
                with self.subTest(name=name):
                    self.assertIn(name, known, "_native.%s is not in ball.h" % name)

    def test_abi_major_and_start(self):
        self.assertEqual(n.ABI_MAJOR, self.h.defines["VERSION_MAJOR"])
        self.assertEqual(n.SONAME, "libball.so.%d" % self.h.defines["VERSION_MAJOR"])
        m = re.search(r'#define BALL_START_BPN\s*\\?\s*"([^"]*)"', HEADER.read_text())
        self.assertEqual(n.START_BPN, m.group(1))
        self.assertEqual(libball.START_BPN, m.group(1))

    def test_enum_classes(self):
        for enum_name, (cls, header_name) in _ENUM_CLASSES.items():
            want = self.h.enums[enum_name]
            got = {header_name(name): int(member) for name, member in cls.__members__.items()
                   if not (cls is game.ActionFlag and name == "NONE")}
            with self.subTest(enum=enum_name):
                self.assertEqual(got, want)

    def test_error_classes(self):
        codes = dict(self.h.enums["ball_error"])
        # error codes of later sections are #defines (BALL_E_RECORD)
        codes.update({k: v for k, v in self.h.defines.items() if k.startswith("E_")})
        for name, value in codes.items():
            if name == "OK":
                continue
            with self.subTest(code="BALL_" + name):
                self.assertIn(value, errors._BY_CODE, "no exception class for BALL_" + name)
                cls = errors._BY_CODE[value]
                self.assertIsInstance(errors.error_for(value), cls)
                self.assertEqual(cls.code, value)
        self.assertEqual(set(errors._BY_CODE), {v for k, v in codes.items() if k != "OK"})
        self.assertIs(errors._BY_CODE[codes["E_RULES"]], libball.RulesError)
        self.assertIs(errors._BY_CODE[codes["E_LIMIT"]], libball.LimitError)

    def test_prototypes(self):
        declared = {name: (res, args) for name, res, args, _ in n._FUNCTIONS}
        # every stable function, and only functions of the header (the
        # experimental ones the binding wraps included)
        full = Header(_read_header(), experimental=True).functions
        self.assertEqual(sorted(set(self.h.functions) - set(declared)), [],
                         "ball.h functions missing from the ctypes table")
        self.assertEqual(sorted(set(declared) - set(full)), [],
                         "ctypes functions that ball.h does not declare")
        self.assertGreater(len(full), len(self.h.functions), "the experimental section was read")
        for name, (ret, params) in full.items():
            if name not in declared:
                continue
            with self.subTest(function=name):
                res, args = declared[name]
                self.assertIn(_norm(ret), _CTYPES, "unknown C type %r" % ret)
                self.assertIs(res, _CTYPES[_norm(ret)], "result type")
                self.assertEqual(len(args), len(params), "number of parameters")
                for i, (arg, param) in enumerate(zip(args, params)):
                    self.assertIn(param, _CTYPES, "unknown C type %r" % param)
                    self.assertIs(arg, _CTYPES[param], "parameter %d (%s)" % (i + 1, param))
                fn = getattr(n.lib, name)
                self.assertIs(fn.restype, res)
                self.assertEqual(list(fn.argtypes), list(args))

    def _fields(self, struct):
        body = self.h.structs[struct]
        names = []
        for decl in body.split(";"):
            decl = " ".join(decl.split())
            if not decl:
                continue
            m = re.search(r"\(\s*\*\s*(\w+)\s*\)", decl) or re.search(r"(\w+)\s*$", decl)
            names.append(m.group(1))
        return names

    def test_structs(self):
        self.assertEqual([f[0] for f in n.BallRules._fields_], self._fields("ball_rules"))
        self.assertEqual([f[0] for f in n.BallAllocator._fields_], self._fields("ball_allocator"))
        for cls, struct in ((n.BallMctsConfig, "ball_mcts_config"),
                            (n.BallMctsStats, "ball_mcts_stats"),
                            (n.BallSearchInfo, "ball_search_info"),
                            (n.BallSearchConfig, "ball_search_config"),
                            (n.BallSearchResult, "ball_search_result")):
            if struct in self.h.structs:
                self.assertEqual([f[0] for f in cls._fields_], self._fields(struct))
        self.assertEqual(ctypes.sizeof(n.BallRules), 8 * 3 + ctypes.sizeof(ctypes.c_void_p))
        # The library takes only published sizes: ours must be one.
        rules = n.new_rules()
        self.assertEqual(rules.size, ctypes.sizeof(n.BallRules))
        self.assertEqual(n.lib.ball_rules_check(ctypes.byref(rules), None, 0), n.OK)
        alloc = n.BallAllocator()
        n.lib.ball_allocator_init(ctypes.byref(alloc), ctypes.sizeof(alloc))
        self.assertEqual(alloc.size, ctypes.sizeof(n.BallAllocator))
        handle = ctypes.c_void_p()
        self.assertEqual(n.lib.ball_game_new_with_allocator(
            ctypes.byref(handle), None, ctypes.byref(alloc), None, 0), n.OK)
        n.lib.ball_game_free(handle)


class DriftIsCaught(unittest.TestCase):
    """The parser finds a changed value (the test would fail on drift)."""

    def test_changed_value(self):
        text = _read_header().replace("BALL_E_LIMIT = -10", "BALL_E_LIMIT = -11")
        self.assertEqual(Header(text).enumerators["E_LIMIT"], -11)
        text = _read_header().replace("#define BALL_MAX_TASKS 14", "#define BALL_MAX_TASKS 15")
        self.assertEqual(Header(text).defines["MAX_TASKS"], 15)


if __name__ == "__main__":
    unittest.main()
