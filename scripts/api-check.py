#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks that every hand-written binding wraps every public function of
include/ball.h, or says why not.

    python3 scripts/api-check.py --api build/api.json \\
        [--exclusions bindings/api-exclusions.txt]

The description is the JSON of scripts/api-describe.py (make api-describe).
The mechanical layers are not checked here: Python's ctypes table and
structs, the wasm export list and JavaScript's raw declarations are
generated from the same description (scripts/api-generate.py), so they
have every function by construction, and tests/bindings/api_generate_test.sh
fails when a committed one is stale. What is checked is what people write,
for each function of the description (both tiers) and each binding:

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
  js       the classes of bindings/js/libball.mjs, learn.mjs (the learning
           interface) or their .d.mts name _ball_NAME outside comments (the
           binding calls the module's export), or the binding's own C of
           the wasm build, bindings/js/emscripten/net.c, names ball_NAME
           outside comments (it hands the binding a function's address: a
           function pointer in wasm is a table index, not the export).

A function a binding lacks is allowed only by a line of the exclusions file
"BINDING FUNCTION reason" (# comments; the reason is required): a choice
not to wrap it. An exclusion that names an unknown binding or function,
repeats another, or is stale (the binding now has the function) fails the
check too. Every problem is printed, one line each, naming the binding and
the function; the exit status is 1 if there is one.
"""

import argparse
import glob
import importlib.util
import json
import os
import re
import sys

BINDINGS = ("lua", "js")
HERE = os.path.dirname(os.path.abspath(__file__))

_spec = importlib.util.spec_from_file_location("api_describe", os.path.join(HERE, "api-describe.py"))
api_describe = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(api_describe)

class Api:
    def __init__(self, desc):
        self.desc = desc
        self.functions = desc["functions"]
        self.names = {f["name"] for f in self.functions}


def c_signature(ret, params):
    return "%s (%s)" % (ret, ", ".join(params) or "void")


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
    ap.add_argument("--exclusions", default="bindings/api-exclusions.txt")
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
    have = {
        "lua": check_lua(api, args.lua_c, args.lua_learn, problems),
        "js": check_js(api, args.js, args.js_c, problems),
    }
    files = {"lua": args.lua_c + " or " + args.lua_learn + " (C.NAME outside the cdef)",
             "js": " or ".join(args.js + args.js_c)}
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
    print("api-check: %d functions of %s; %s (python, wasm and the raw declarations are "
          "generated: scripts/api-generate.py)"
          % (len(api.functions), api.desc.get("header"), ", ".join(counts)))
    if problems:
        print("api-check: %d problem%s" % (len(problems), "" if len(problems) == 1 else "s"))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
