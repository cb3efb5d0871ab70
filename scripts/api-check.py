#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks that every binding has every public function of include/ball.h.

    python3 scripts/api-check.py --api build/api.json \\
        --exports-json build/wasm/exports.json \\
        [--exclusions bindings/api-exclusions.txt]

The description is the JSON of scripts/api-describe.py (make api-describe).
For each function of it (both tiers) and each binding:

  python   bindings/python/libball/_native.py: a row of _FUNCTIONS (read
           with ast, the module is not imported) with as many argument
           types as the C function has parameters, and each argument and
           the result type equal to the ctypes type that the C type maps
           to mechanically:
             int c_int, unsigned c_uint, int32_t c_int32, uint32_t
             c_uint32, int64_t c_int64, uint64_t c_uint64, size_t
             c_size_t, uint8_t c_uint8, float c_float, double c_double
             (ball_action and ball_task through their typedefs); void
             (result) None; char * and const char * c_char_p; void * and a
             pointer to an opaque handle (ball_game *) c_void_p; a pointer
             to a handle pointer (ball_game **) POINTER(c_void_p); a
             pointer to a struct of the header POINTER(ItsClass) (ball_rules
             BallRules); a pointer to a number POINTER(its type).
           A parameter of a function-pointer type is compared by count
           only. Names are compared after resolving the module's aliases
           (_p = ctypes.c_void_p), as text: c_int32 is not c_int even where
           ctypes makes them one object.
  lua      the one Lua binding: the C module bindings/lua/c/*.c (the
           `ball` module of PUC Lua 5.1-5.4 and LuaJIT) names it outside
           comments (a call, or a macro's argument such as
           GETTER(g_pa, ball_pa, ...)); it includes ball.h, so the compiler
           checks the types. Or the learning interface
           bindings/lua/ball_learn.lua (LuaJIT's FFI over the C module's
           games) calls it, C.NAME outside its cdef and -- comments.

ball_learn.lua's own cdef (M._CDEF, the declarations it uses) is checked
against the header as well, as "lua" problems: each prototype's result and
parameter types equal the header's after normalising whitespace and
dropping the parameter names; a typedef of a number type names the
header's type; a struct has the header's fields, types and names in order
(the FFI lays it out from these); a function the header lacks, and a C.NAME
the cdef does not declare, fail.
  wasm     the export list that mk/web.mk generates from the header
           ($(WASM_DIR)/exports.json) names _ball_NAME.
  js       bindings/js/libball.mjs, learn.mjs (the learning interface) or
           their .d.mts names _ball_NAME outside comments (the binding
           calls the module's export), or the binding's own C of the wasm
           build, bindings/js/emscripten/net.c, names ball_NAME outside
           comments (it hands the binding a function's address: a
           function pointer in wasm is a table index, not the export).

A function a binding lacks is allowed only by a line of the exclusions file
"BINDING FUNCTION reason" (# comments; the reason is required). An
exclusion that names an unknown binding or function, repeats another, or
is stale (the binding now has the function) fails the check too. Also a
function that a binding declares but the header no longer has (python,
ball_learn's cdef, wasm) fails. Every problem is printed, one line each, naming the
binding and the function; the exit status is 1 if there is one.
"""

import argparse
import ast
import glob
import importlib.util
import json
import os
import re
import sys

BINDINGS = ("python", "lua", "wasm", "js")
HERE = os.path.dirname(os.path.abspath(__file__))

_spec = importlib.util.spec_from_file_location("api_describe", os.path.join(HERE, "api-describe.py"))
api_describe = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(api_describe)

SCALAR_CTYPES = {
    "int": "c_int", "unsigned": "c_uint", "int32_t": "c_int32", "uint32_t": "c_uint32",
    "int64_t": "c_int64", "uint64_t": "c_uint64", "size_t": "c_size_t", "uint8_t": "c_uint8",
    "int8_t": "c_int8", "uint16_t": "c_uint16", "int16_t": "c_int16",
    "float": "c_float", "double": "c_double",
}


def camel(name):
    return "".join(w.capitalize() for w in name.split("_"))


class Api:
    def __init__(self, desc):
        self.desc = desc
        self.functions = desc["functions"]
        self.names = {f["name"] for f in self.functions}
        self.opaque = {o["name"] for o in desc["opaque"]}
        self.structs = {s["name"] for s in desc["structs"]}
        self.scalars = {t["name"]: t["type"]["base"] for t in desc["typedefs"] if t["kind"] == "scalar"}
        self.fnptrs = {t["name"] for t in desc["typedefs"] if t["kind"] == "function_pointer"}

    def ctypes_of(self, t, result=False):
        """The ctypes type (text) a C type maps to, or None when it does not
        map mechanically (a function pointer)."""
        base = self.scalars.get(t["base"], t["base"])
        p = t["pointers"]
        if "function_pointer" in t or base in self.fnptrs:
            return None
        if p == 0:
            if base == "void":
                return "None" if result else None
            return SCALAR_CTYPES.get(base)
        if p == 1:
            if base == "char":
                return "c_char_p"
            if base == "void" or base in self.opaque:
                return "c_void_p"
            if base in self.structs:
                return "POINTER(%s)" % camel(base)
            if base in SCALAR_CTYPES:
                return "POINTER(%s)" % SCALAR_CTYPES[base]
            return None
        if p == 2 and base in self.opaque:
            return "POINTER(c_void_p)"
        return None


def c_signature(ret, params):
    return "%s (%s)" % (ret, ", ".join(params) or "void")


# ------------------------------------------------------------ python
def python_functions(path):
    """{name: (line, restype text, [argtype text])} of _FUNCTIONS."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    aliases = {}
    table = None
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            name = node.targets[0].id
            if name == "_FUNCTIONS":
                table = node
            else:
                aliases[name] = node.value

    def render(e, depth=0):
        if depth > 20:
            raise ValueError("alias loop")
        if isinstance(e, ast.Constant) and e.value is None:
            return "None"
        if isinstance(e, ast.Attribute) and isinstance(e.value, ast.Name) and e.value.id == "ctypes":
            return e.attr
        if isinstance(e, ast.Name):
            if e.id in aliases:
                return render(aliases[e.id], depth + 1)
            return e.id  # a Structure class or a CFUNCTYPE
        if (isinstance(e, ast.Call) and len(e.args) == 1 and not e.keywords
                and render(e.func, depth + 1) == "POINTER"):
            return "POINTER(%s)" % render(e.args[0], depth + 1)
        return ast.unparse(e) if hasattr(ast, "unparse") else ast.dump(e)

    if table is None or not isinstance(table.value, ast.List):
        raise ValueError("%s: no list _FUNCTIONS" % path)
    out = {}
    for row in table.value.elts:
        if not (isinstance(row, ast.Tuple) and len(row.elts) == 4
                and isinstance(row.elts[0], ast.Constant) and isinstance(row.elts[2], ast.List)):
            raise ValueError("%s:%d: a row of _FUNCTIONS is not (name, restype, [argtypes], required)"
                             % (path, row.lineno))
        name = row.elts[0].value
        if name in out:
            raise ValueError("%s:%d: %s declared twice" % (path, row.lineno, name))
        out[name] = (row.lineno, render(row.elts[1]), [render(a) for a in row.elts[2].elts])
    return out


def check_python(api, path, problems, report):
    try:
        declared = python_functions(path)
    except (ValueError, SyntaxError, OSError) as e:
        problems.append("python: cannot read %s: %s" % (path, e))
        return set()
    have = set()
    for f in api.functions:
        name = f["name"]
        if name not in declared:
            continue
        have.add(name)
        line, restype, argtypes = declared[name]
        where = "%s:%d" % (path, line)
        if len(argtypes) != len(f["params"]):
            problems.append("python: %s: %s declares %d argument types, ball.h has %d parameters"
                            % (name, where, len(argtypes), len(f["params"])))
            continue
        want = api.ctypes_of(f["returns"], result=True)
        if want is None:
            report["python_unmapped"] = report.get("python_unmapped", 0) + 1
        elif want != restype:
            problems.append("python: %s: %s restype is %s, ball.h returns %s (%s)"
                            % (name, where, restype, f["returns"]["type"], want))
        else:
            report["python_types"] = report.get("python_types", 0) + 1
        for i, (p, got) in enumerate(zip(f["params"], argtypes)):
            want = api.ctypes_of(p)
            if want is None:
                report["python_unmapped"] = report.get("python_unmapped", 0) + 1
            elif want != got:
                problems.append("python: %s: %s argument %d (%s) is %s, ball.h has %s (%s)"
                                % (name, where, i + 1, p["name"], got, p["type"], want))
            else:
                report["python_types"] = report.get("python_types", 0) + 1
    for name in sorted(set(declared) - api.names):
        problems.append("python: %s: %s:%d declares it, ball.h has no such function"
                        % (name, path, declared[name][0]))
    return have


# ------------------------------------------------------------ cdef (ball_learn.lua)
def norm_type(text):
    """"const ball_game *" from "const  ball_game*" (the describer's form)."""
    toks = re.findall(r"[A-Za-z_][A-Za-z0-9_]*|\*", text)
    words = [t for t in toks if t != "*"]
    stars = toks.count("*")
    if words[-2:] == ["unsigned", "int"]:
        words = words[:-2] + ["unsigned"]
    return " ".join(words) + (" " + "*" * stars if stars else "")


def norm_param(text):
    text = text.strip()
    m = re.fullmatch(r"(.*?)\(\s*\*\s*[A-Za-z_]\w*\s*\)\s*\((.*)\)", text)
    if m:  # a function pointer parameter: names dropped
        inner = [norm_param(p) for p in split_params(m.group(2))]
        return "%s (*)(%s)" % (norm_type(m.group(1)), ", ".join(inner) or "void")
    toks = re.findall(r"[A-Za-z_][A-Za-z0-9_]*|\*", text)
    if len(toks) >= 2 and toks[-1] != "*" and not (len(toks) == 2 and toks == ["unsigned", "int"]):
        # the last identifier is the parameter's name, unless the
        # parameter is a type alone ("int", "const char *")
        text = text[:text.rstrip().rfind(toks[-1])]
    return norm_type(text)


def split_params(text):
    parts = api_describe.split_commas(text)
    if len(parts) == 1 and parts[0].strip() in ("void", ""):
        return []
    return parts


def cdef_functions(path, types=None):
    """{name: (line, "ret (params)")} of the prototypes in M._CDEF; when
    @p types is a dict, it receives {name: (line, kind, value)} of the
    cdef's typedefs: kind "scalar" (value: the base type) or "struct"
    (value: [(type, field name)]); opaque struct typedefs are left out."""
    with open(path, encoding="utf-8") as f:
        src = f.read()
    m = re.search(r"M\._CDEF\s*=\s*\[\[(.*?)\]\]", src, re.S)
    if not m:
        raise ValueError("no M._CDEF = [[ ... ]] in %s" % path)
    base_line = src.count("\n", 0, m.start(1)) + 1
    code, _ = api_describe.strip_comments(m.group(1), path)
    # preprocessor lines (the #ifdef BALL_EXPERIMENTAL around the
    # experimental prototypes) are blanked, keeping the line count
    code = re.sub(r"(?m)^[ \t]*#[^\n]*", "", code)
    out = {}
    depth, start = 0, 0
    for i, c in enumerate(code):
        depth += (c == "{") - (c == "}")
        if c == ";" and depth == 0:
            stmt = code[start:i]
            line = base_line + code.count("\n", 0, start + len(stmt) - len(stmt.lstrip()))
            start = i + 1
            s = re.sub(r"\s+", " ", stmt).strip()
            if types is not None:
                sm = re.fullmatch(r"typedef struct (\w+) ?\{(.*)\} ?(\w+)", s)
                tm = re.fullmatch(r"typedef ([\w ]+?) (\w+)", s)
                if sm:
                    fields = []
                    for fld in sm.group(2).split(";"):
                        if fld.strip():
                            fname = re.findall(r"[A-Za-z_]\w*", fld)[-1]
                            fields.append((norm_param(fld), fname))
                    types[sm.group(3)] = (line, "struct", fields)
                elif tm and not tm.group(1).startswith("struct "):
                    types[tm.group(2)] = (line, "scalar", norm_type(tm.group(1)))
            if re.match(r"(typedef|enum|static|struct)\b", s):
                continue
            fm = re.fullmatch(r"(.*?[\s*])(ball_[a-z0-9_]+) ?\((.*)\)", s)
            if not fm:
                raise ValueError("%s:%d: cannot read this cdef statement: %s" % (path, line, s[:70]))
            sig = c_signature(norm_type(fm.group(1)), [norm_param(p) for p in split_params(fm.group(3))])
            out[fm.group(2)] = (line, sig)
    return out


def check_cdef(api, path, problems, binding="lua"):
    """The cdef of @p path (M._CDEF) against the header: prototypes, number
    typedefs and struct fields; a C.NAME of the file's Lua code that the
    cdef does not declare. Returns the functions declared."""
    types = {}
    try:
        declared = cdef_functions(path, types)
        with open(path, encoding="utf-8") as f:
            called = set(re.findall(r"\bC\.(ball_[a-z0-9_]+)\b", lua_code(f.read())))
    except (ValueError, OSError) as e:
        problems.append("%s: cannot read the cdef of %s: %s" % (binding, path, e))
        return set()
    for f in api.functions:
        if f["name"] not in declared:
            continue
        want = c_signature(f["returns"]["type"], [p["type"] for p in f["params"]])
        line, got = declared[f["name"]]
        if got != want:
            problems.append("%s: %s: the cdef (%s:%d) declares %s, ball.h %s"
                            % (binding, f["name"], path, line, got, want))
    for name in sorted(set(declared) - api.names):
        problems.append("%s: %s: the cdef (%s:%d) declares it, ball.h has no such function"
                        % (binding, name, path, declared[name][0]))
    for name in sorted(called - set(declared)):
        problems.append("%s: %s: %s calls C.%s, its cdef does not declare it"
                        % (binding, name, path, name))
    structs = {st["name"]: st for st in api.desc["structs"]}
    scalars = {t["name"]: t["type"]["type"] for t in api.desc["typedefs"] if t["kind"] == "scalar"}
    for name, (line, kind, value) in sorted(types.items()):
        where = "%s:%d" % (path, line)
        if kind == "scalar":
            if name not in scalars:
                problems.append("%s: %s: the cdef (%s) declares typedef %s, ball.h has no such number type"
                                % (binding, name, where, value))
            elif norm_type(scalars[name]) != value:
                problems.append("%s: %s: the cdef (%s) declares typedef %s, ball.h %s"
                                % (binding, name, where, value, scalars[name]))
        else:
            if name not in structs:
                problems.append("%s: %s: the cdef (%s) declares struct %s, ball.h has no such struct"
                                % (binding, name, where, name))
                continue
            want = [(norm_type(fl["type"]), fl["name"]) for fl in structs[name]["fields"]]
            if value != want:
                problems.append("%s: %s: the cdef (%s) declares the fields %s, ball.h %s"
                                % (binding, name, where,
                                   "; ".join("%s %s" % fv for fv in value),
                                   "; ".join("%s %s" % fv for fv in want)))
    return set(declared) & api.names


# ------------------------------------------------------------ the others
def named_in_c(api, binding, path, problems):
    """The API's functions that the C file @p path, or the .c and .h files
    of the directory @p path, name outside comments (a binding's own C: the
    Lua module's units, the wasm build's glue)."""
    paths = sorted(glob.glob(os.path.join(path, "*.[ch]"))) if os.path.isdir(path) else [path]
    named = set()
    for p in paths:
        try:
            with open(p, encoding="utf-8") as f:
                code, _ = api_describe.strip_comments(f.read(), p)
        except (OSError, api_describe.ParseError) as e:
            problems.append("%s: cannot read %s: %s" % (binding, p, e))
            return set()
        named |= set(re.findall(r"\b(ball_[a-z0-9_]+)\b", code))
    return {f["name"] for f in api.functions if f["name"] in named}


def lua_code(text):
    """Lua without M._CDEF = [[...]], --[[ ]] comments and -- comments (a
    "--" inside a string also ends the line's code here: a use it hides is
    reported missing, never the reverse)."""
    text = re.sub(r"M\._CDEF\s*=\s*\[\[.*?\]\]", " ", text, flags=re.S)
    text = re.sub(r"--\[(=*)\[.*?\]\1\]", " ", text, flags=re.S)
    return re.sub(r"--[^\n]*", "", text)


def named_in(api, binding, paths, strip, pattern, problems):
    """The API's functions that @p pattern's first group names in the
    files @p paths, read through @p strip (which drops comments)."""
    code = ""
    for path in paths:
        try:
            with open(path, encoding="utf-8") as f:
                code += strip(f.read()) + "\n"
        except OSError as e:
            problems.append("%s: cannot read %s: %s" % (binding, path, e))
    named = set(re.findall(pattern, code))
    return {f["name"] for f in api.functions if f["name"] in named}


def check_lua(api, c_path, learn_path, problems):
    """The Lua binding: named by the C module, or called by ball_learn.lua
    (whose cdef is checked against the header)."""
    check_cdef(api, learn_path, problems)
    return (named_in_c(api, "lua", c_path, problems)
            | named_in(api, "lua", [learn_path], lua_code, r"\bC\.(ball_[a-z0-9_]+)\b", problems))


def check_wasm(api, path, problems):
    try:
        with open(path, encoding="utf-8") as f:
            exports = json.load(f)
    except (OSError, ValueError) as e:
        problems.append("wasm: cannot read %s (scripts/api-check.py expects the file mk/web.mk "
                        "generates): %s" % (path, e))
        return set()
    names = {e[1:] for e in exports if isinstance(e, str) and e.startswith("_ball_")}
    for name in sorted(names - api.names):
        problems.append("wasm: %s: %s exports it, ball.h has no such function" % (name, path))
    return names & api.names


def js_code(text):
    """JavaScript without its /* */ comments and its // comments (at the
    start of a line or after white space, so that 'http://' stays)."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"(^|\s)//[^\n]*", r"\1", text)


def check_js(api, paths, c_paths, problems):
    have = named_in(api, "js", paths, js_code, r"\b_(ball_[a-z0-9_]+)\b", problems)
    for path in c_paths:
        have |= named_in_c(api, "js", path, problems)
    return have


# ------------------------------------------------------------ exclusions
def read_exclusions(path, api, problems):
    out = {}
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
    except OSError as e:
        problems.append("exclusions: cannot read %s: %s" % (path, e))
        return out
    for lineno, line in enumerate(lines, 1):
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        parts = s.split(None, 2)
        where = "%s:%d" % (path, lineno)
        if len(parts) < 3:
            problems.append("exclusions: %s: \"BINDING FUNCTION reason\" expected, the reason is "
                            "required: %s" % (where, s))
            continue
        binding, name, reason = parts
        if binding not in BINDINGS:
            problems.append("exclusions: %s: unknown binding %s (one of %s)"
                            % (where, binding, ", ".join(BINDINGS)))
        elif name not in api.names:
            problems.append("exclusions: %s: %s is no function of ball.h" % (where, name))
        elif (binding, name) in out:
            problems.append("exclusions: %s: %s %s is listed twice" % (where, binding, name))
        else:
            out[(binding, name)] = (where, reason)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--api", default="build/api.json")
    ap.add_argument("--exports-json", default="build/wasm/exports.json")
    ap.add_argument("--exclusions", default="bindings/api-exclusions.txt")
    ap.add_argument("--python", default="bindings/python/libball/_native.py")
    ap.add_argument("--lua-c", default="bindings/lua/c")
    ap.add_argument("--lua-learn", default="bindings/lua/ball_learn.lua")
    ap.add_argument("--js", nargs="+", default=["bindings/js/libball.mjs", "bindings/js/libball.d.mts",
                                                 "bindings/js/learn.mjs", "bindings/js/learn.d.mts"])
    ap.add_argument("--js-c", nargs="*", default=["bindings/js/emscripten/net.c"])
    args = ap.parse_args(argv)
    try:
        with open(args.api, encoding="utf-8") as f:
            api = Api(json.load(f))
    except (OSError, ValueError, KeyError) as e:
        print("api-check: cannot read the description %s (make api-describe): %s" % (args.api, e),
              file=sys.stderr)
        return 1
    problems = []
    report = {}
    have = {
        "python": check_python(api, args.python, problems, report),
        "lua": check_lua(api, args.lua_c, args.lua_learn, problems),
        "wasm": check_wasm(api, args.exports_json, problems),
        "js": check_js(api, args.js, args.js_c, problems),
    }
    files = {"python": args.python + " (_FUNCTIONS)",
             "lua": args.lua_c + " or " + args.lua_learn + " (C.NAME outside the cdef)",
             "wasm": args.exports_json, "js": " or ".join(args.js + args.js_c)}
    excluded = read_exclusions(args.exclusions, api, problems)
    counts = []
    for binding in BINDINGS:
        n_ex = 0
        for f in api.functions:
            name = f["name"]
            ex = excluded.get((binding, name))
            if name in have[binding]:
                if ex:
                    problems.append("%s: %s: stale exclusion %s: the binding has it now (remove the line)"
                                    % (binding, name, ex[0]))
            elif ex:
                n_ex += 1
            else:
                problems.append("%s: %s: missing from %s (%s %s function; add it, or list "
                                "\"%s %s reason\" in %s)"
                                % (binding, name, files[binding], f["tier"], f["version"] or "unversioned",
                                   binding, name, args.exclusions))
        counts.append("%s %d+%d excluded" % (binding, len(have[binding]), n_ex))
    for p in problems:
        print("api-check: %s" % p)
    print("api-check: %d functions of %s; %s; python: %d argument and result types compared, "
          "%d not mapped (function pointers), by count only"
          % (len(api.functions), api.desc.get("header"), ", ".join(counts),
             report.get("python_types", 0), report.get("python_unmapped", 0)))
    if problems:
        print("api-check: %d problem%s" % (len(problems), "" if len(problems) == 1 else "s"))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
