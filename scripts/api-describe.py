#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The public API of include/ball.h as one machine-readable description.

    python3 scripts/api-describe.py [--header include/ball.h]
        [--map libball/exports.map] [-o build/api.json]

Reads the header (and the linker version script, for each function's
symbol version node) and writes a JSON document (sorted keys, two-space
indent, lists in the header's order) with:

  functions  each BALL_API function: name, return type, parameters (type
             and name), tier ("stable", or "experimental" inside
             #ifdef BALL_EXPERIMENTAL), section (the header's @name group),
             version (the exports.map node that lists it, or null), line;
  structs    each struct with a body: fields (type, name, array length or
             function-pointer signature), size_tagged (the first field is
             `size_t size`), init (the ball_*_init() that fills it);
  opaque     the handle types (`typedef struct X X;`);
  typedefs   the scalar and function-pointer typedefs;
  enums      each enum: members with their values;
  constants  each #define whose value is a number (an integer literal or
             an expression of earlier ones), with its value;
  strings    each #define whose value is a string literal.

A type is given as its text ("const ball_game *") and split into base
(ball_game), pointers (1) and const (of the base). This is not a C parser:
it reads this header's own style (one declaration per statement,
comments in /* */, no macros in declarations) and stops with
"include/ball.h:LINE: ..." on anything it does not understand, so that a
new kind of declaration is noticed instead of skipped. python3 stdlib
only; `make api-describe` runs it (build/api.json).
"""

import argparse
import json
import os
import re
import sys

BUILTIN_TYPES = {
    "void", "char", "int", "unsigned", "float", "double", "size_t",
    "uint8_t", "int8_t", "uint16_t", "int16_t", "uint32_t", "int32_t",
    "uint64_t", "int64_t",
}
IDENT = r"[A-Za-z_][A-Za-z0-9_]*"


class ParseError(Exception):
    def __init__(self, path, line, message):
        super().__init__("%s:%d: %s" % (path, line, message))


def strip_comments(text, path):
    """The text with each comment replaced by spaces (newlines kept, so
    that line numbers stay) and the @name titles by line: [(line, title)].
    String literals are kept as they are."""
    sections = []

    def blank(m):
        body = m.group(0)
        if body.startswith('"'):
            return body
        if body.startswith("/*"):
            title = re.search(r"@name\s+(.*)", body)
            if title:
                sections.append((text.count("\n", 0, m.start()) + 1, title.group(1).strip()))
        return re.sub(r"[^\n]", " ", body)

    out = re.sub(r'/\*.*?\*/|//[^\n]*|"(?:[^"\\\n]|\\.)*"', blank, text, flags=re.S)
    for m in re.finditer(r'"(?:[^"\\\n]|\\.)*"|/\*', out):
        if m.group(0) == "/*":
            raise ParseError(path, out.count("\n", 0, m.start()) + 1, "unterminated comment")
    return out, sections


class Number:
    """A tiny evaluator of the #define values: integer literals (decimal,
    hex, u/U/l/L suffixes), names of earlier constants, parentheses,
    unary -, and + - * / << >> | &."""

    TOKEN = re.compile(r"\s*(0[xX][0-9a-fA-F]+|[0-9]+)([uUlL]*)|\s*(%s)|\s*(<<|>>|[-+*/|&()])" % IDENT)

    def __init__(self, text, known):
        self.toks = []
        pos = 0
        text = text.strip()
        while pos < len(text):
            m = self.TOKEN.match(text, pos)
            if not m or m.end() == pos:
                raise ValueError("cannot read %r" % text[pos:])
            if m.group(1):
                self.toks.append(("num", int(m.group(1), 0)))
            elif m.group(3):
                if m.group(3) not in known:
                    raise ValueError("%s is not a known number" % m.group(3))
                self.toks.append(("num", known[m.group(3)]))
            else:
                self.toks.append(("op", m.group(4)))
            pos = m.end()
            while pos < len(text) and text[pos].isspace():
                pos += 1
        self.i = 0

    def value(self):
        v = self.expr(0)
        if self.i != len(self.toks):
            raise ValueError("trailing tokens")
        return v

    PREC = {"|": 1, "&": 2, "<<": 3, ">>": 3, "+": 4, "-": 4, "*": 5, "/": 5}

    def expr(self, min_prec):
        v = self.unary()
        while self.i < len(self.toks):
            kind, op = self.toks[self.i]
            if kind != "op" or op not in self.PREC or self.PREC[op] < min_prec:
                break
            self.i += 1
            r = self.expr(self.PREC[op] + 1)
            v = {"|": lambda a, b: a | b, "&": lambda a, b: a & b,
                 "<<": lambda a, b: a << b, ">>": lambda a, b: a >> b,
                 "+": lambda a, b: a + b, "-": lambda a, b: a - b,
                 "*": lambda a, b: a * b, "/": lambda a, b: a // b}[op](v, r)
        return v

    def unary(self):
        if self.i >= len(self.toks):
            raise ValueError("expression ends early")
        kind, tok = self.toks[self.i]
        self.i += 1
        if kind == "num":
            return tok
        if tok == "-":
            return -self.unary()
        if tok == "(":
            v = self.expr(0)
            if self.i >= len(self.toks) or self.toks[self.i] != ("op", ")"):
                raise ValueError("missing )")
            self.i += 1
            return v
        raise ValueError("unexpected %r" % tok)


def number(text, known):
    return Number(text, known).value()


def split_commas(text):
    """The text split at its commas outside parentheses (a parameter list
    whose parameters may be function pointers)."""
    parts, depth, cur = [], 0, ""
    for c in text:
        depth += (c == "(") - (c == ")")
        if c == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += c
    parts.append(cur)
    return parts


class Header:
    def __init__(self, path, display=None):
        self.path = display or path
        with open(path, encoding="utf-8") as f:
            raw = f.read()
        self.code, self.sections = strip_comments(raw, self.path)
        self.types = set(BUILTIN_TYPES)
        self.functions = []
        self.structs = []
        self.opaque = []
        self.typedefs = []
        self.enums = []
        self.constants = {}
        self.strings = {}
        self.const_lines = {}
        self.parse()

    def fail(self, line, message):
        raise ParseError(self.path, line, message)

    def section_at(self, line):
        title = None
        for start, name in self.sections:
            if start <= line:
                title = name
        return title

    # ---------------------------------------------------- preprocessor
    def parse(self):
        """Splits the text into preprocessor lines (handled here) and C
        code at file scope (passed on in chunks with their lines)."""
        lines = self.code.split("\n")
        # stack of (what, line): guard, cplusplus, export, experimental
        stack = []
        chunk = []  # [(line number, text)] of C code
        i = 0
        while i < len(lines):
            lineno = i + 1
            text = lines[i]
            # continuation lines
            while text.rstrip().endswith("\\") and i + 1 < len(lines):
                i += 1
                text = text.rstrip()[:-1] + " " + lines[i]
            i += 1
            s = text.strip()
            skipping = any(w in ("cplusplus", "export") for w, _ in stack)
            if not s.startswith("#"):
                if not skipping:
                    chunk.append((lineno, text))
                continue
            d = re.match(r"#\s*(\w+)\s*(.*)$", s)
            if not d:
                self.fail(lineno, "unreadable preprocessor line: %s" % s)
            kw, arg = d.group(1), d.group(2).strip()
            if kw == "ifndef" and arg == "BALL_H" and not stack:
                stack.append(("guard", lineno))
            elif kw == "ifdef" and arg == "__cplusplus":
                stack.append(("cplusplus", lineno))
            elif kw == "ifndef" and arg == "BALL_API":
                stack.append(("export", lineno))
            elif kw == "ifdef" and arg == "BALL_EXPERIMENTAL":
                if any(w == "experimental" for w, _ in stack):
                    self.fail(lineno, "nested #ifdef BALL_EXPERIMENTAL")
                self.flush(chunk, stack)
                stack.append(("experimental", lineno))
            elif kw in ("if", "ifdef", "ifndef", "elif", "else") and skipping:
                if kw in ("if", "ifdef", "ifndef"):
                    stack.append(("export" if stack[-1][0] == "export" else "cplusplus", lineno))
            elif kw == "endif":
                if not stack:
                    self.fail(lineno, "#endif without #if")
                what, _ = stack.pop()
                if what == "experimental":
                    self.flush(chunk, stack + [("experimental", 0)])
            elif kw == "include":
                if arg not in ("<stddef.h>", "<stdint.h>"):
                    self.fail(lineno, "unexpected #include %s" % arg)
            elif kw == "define" and not skipping:
                self.define(lineno, arg, stack)
            elif kw == "define":
                pass  # the export macro's own definitions
            else:
                self.fail(lineno, "unexpected preprocessor line: %s" % s)
        if stack:
            self.fail(stack[-1][1], "#%s without #endif" % stack[-1][0])
        self.flush(chunk, stack)
        if not self.functions:
            self.fail(1, "no BALL_API function found")

    def define(self, lineno, arg, stack):
        m = re.match(r"(%s)(\s+(.*))?$" % IDENT, arg)
        if not m or "(" in arg.split()[0]:
            self.fail(lineno, "unreadable #define (function-like macros are not expected): %s" % arg)
        name, value = m.group(1), (m.group(3) or "").strip()
        if name == "BALL_H" and not value:
            return
        if name == "BALL_EXPERIMENTAL":
            self.fail(lineno, "the header must not define BALL_EXPERIMENTAL")
        if re.fullmatch(r'"(?:[^"\\]|\\.)*"', value):
            try:
                text = json.loads(value)
            except ValueError:
                self.fail(lineno, "#define %s: a string with escapes this script does not read: %s"
                          % (name, value))
            self.strings[name] = {"value": text, "line": lineno, "tier": self.tier(stack)}
            return
        try:
            v = number(value, self.constants_values())
        except ValueError as e:
            self.fail(lineno, "#define %s: its value %r is neither a number nor a string (%s)"
                      % (name, value, e))
        self.constants[name] = {"value": v, "text": re.sub(r"\s+", " ", value), "line": lineno,
                                "tier": self.tier(stack)}

    def constants_values(self):
        known = {k: c["value"] for k, c in self.constants.items()}
        for e in self.enums:
            for mem in e["members"]:
                known[mem["name"]] = mem["value"]
        return known

    @staticmethod
    def tier(stack):
        return "experimental" if any(w == "experimental" for w, _ in stack) else "stable"

    # ---------------------------------------------------- declarations
    def flush(self, chunk, stack):
        """Parses the C code collected so far: statements ending in ';' at
        brace depth 0."""
        tier = self.tier(stack)
        stmt, start, depth = [], None, 0
        for lineno, text in chunk:
            if start is None and not text.strip():
                continue
            if not any(c in text for c in "{};"):
                if start is None:
                    start = lineno
                stmt.append(text + "\n")
                continue
            for col, c in enumerate(text):
                if start is None and not c.isspace():
                    start = lineno
                if c == "{":
                    depth += 1
                elif c == "}":
                    depth -= 1
                    if depth < 0:
                        self.fail(lineno, "unbalanced }")
                if c == ";" and depth == 0:
                    self.statement("".join(stmt), start, tier)
                    stmt, start = [], None
                elif start is not None:
                    stmt.append(c)
            if start is not None:
                stmt.append("\n")
        rest = "".join(stmt).strip()
        if rest:
            self.fail(start, "declaration without its ';': %s" % rest[:60])
        del chunk[:]

    def statement(self, text, line, tier):
        s = re.sub(r"\s+", " ", text).strip()
        if s.startswith("BALL_API "):
            return self.function(s[len("BALL_API "):], line, tier)
        m = re.fullmatch(r"enum (%s) \{(.*)\}" % IDENT, s)
        if m:
            return self.enum(m.group(1), m.group(2), line, tier)
        m = re.fullmatch(r"typedef struct (%s) (%s)" % (IDENT, IDENT), s)
        if m:
            if m.group(1) != m.group(2):
                self.fail(line, "typedef struct %s with another name %s" % m.groups())
            self.types.add(m.group(1))
            self.opaque.append({"name": m.group(1), "line": line, "tier": tier})
            return None
        m = re.fullmatch(r"typedef struct (%s) \{(.*)\} (%s)" % (IDENT, IDENT), s)
        if m:
            if m.group(1) != m.group(3):
                self.fail(line, "typedef struct %s { } with another name %s" % (m.group(1), m.group(3)))
            return self.struct(m.group(1), m.group(2), line, tier)
        m = re.fullmatch(r"typedef (.*?) ?\( ?\* ?(%s) ?\) ?\((.*)\)" % IDENT, s)
        if m:
            ret = self.ctype(m.group(1), line)
            params = self.params(m.group(3), line)
            self.types.add(m.group(2))
            self.typedefs.append({"name": m.group(2), "kind": "function_pointer", "returns": ret,
                                  "params": params, "line": line, "tier": tier})
            return None
        m = re.fullmatch(r"typedef (.*?) (%s)" % IDENT, s)
        if m:
            t = self.ctype(m.group(1), line)
            if t["pointers"]:
                self.fail(line, "typedef of a pointer type is not expected: %s" % s)
            self.types.add(m.group(2))
            self.typedefs.append({"name": m.group(2), "kind": "scalar", "type": t,
                                  "line": line, "tier": tier})
            return None
        if re.fullmatch(r'extern "C" \{|\}', s):
            return None
        self.fail(line, "cannot parse this declaration: %s" % s[:80])
        return None

    def ctype(self, text, line):
        """{"type", "base", "pointers", "const"} of a type's text."""
        t = re.sub(r"\s*\*\s*", " * ", text).split()
        const = False
        words = []
        pointers = 0
        for w in t:
            if w == "const" and not pointers:
                const = True
            elif w == "const":
                self.fail(line, "a const pointer (%s) is not expected" % text)
            elif w == "*":
                pointers += 1
            elif pointers:
                self.fail(line, "cannot read the type %r" % text)
            else:
                words.append(w)
        if words in (["unsigned", "int"], ["unsigned"]):
            words = ["unsigned"]
        if len(words) != 1 or not re.fullmatch(IDENT, words[0]):
            self.fail(line, "cannot read the type %r" % text)
        base = words[0]
        if base not in self.types:
            self.fail(line, "unknown type %s (neither a C type this script knows nor one the "
                      "header declared before)" % base)
        if base == "void" and const and not pointers:
            self.fail(line, "const void is not expected")
        shown = ("const " if const else "") + base + (" " + "*" * pointers if pointers else "")
        return {"type": shown, "base": base, "pointers": pointers, "const": const}

    def declarator(self, text, line, what):
        """One "type name", "type name[N]" or "type (*name)(params)"."""
        text = text.strip()
        m = re.fullmatch(r"(.*?) ?\( ?\* ?(%s) ?\) ?\((.*)\)" % IDENT, text)
        if m:
            ret, params = self.ctype(m.group(1), line), self.params(m.group(3), line)
            shown = "%s (*)(%s)" % (ret["type"], ", ".join(p["type"] for p in params) or "void")
            return {"name": m.group(2), "type": shown,
                    "function_pointer": {"returns": ret, "params": params}}
        m = re.fullmatch(r"(.*?[\s*])(%s)(?: ?\[ ?([^\]]+) ?\])?" % IDENT, text)
        if not m or not m.group(1).strip():
            self.fail(line, "cannot read the %s %r (a type and a name are expected)" % (what, text))
        d = self.ctype(m.group(1), line)
        d["name"] = m.group(2)
        if m.group(3):
            try:
                d["array"] = number(m.group(3), self.constants_values())
            except ValueError as e:
                self.fail(line, "array length %r: %s" % (m.group(3), e))
            d["array_text"] = m.group(3).strip()
        return d

    def params(self, text, line):
        text = text.strip()
        if text == "void":
            return []
        if not text:
            self.fail(line, "an empty parameter list (write (void))")
        out = [self.declarator(p, line, "parameter") for p in split_commas(text)]
        for p in out:
            if p.get("array"):
                self.fail(line, "an array parameter (%s) is not expected" % p["name"])
            if p["base"] == "void" and not p["pointers"] and "function_pointer" not in p:
                self.fail(line, "a void parameter %s" % p["name"])
        return out

    def function(self, s, line, tier):
        m = re.fullmatch(r"(.*?[\s*])(ball_[a-z0-9_]+) ?\((.*)\)", s)
        if not m:
            self.fail(line, "cannot parse this BALL_API declaration: %s" % s[:80])
        name = m.group(2)
        if any(f["name"] == name for f in self.functions):
            self.fail(line, "%s declared twice" % name)
        ret = self.ctype(m.group(1), line)
        self.functions.append({"name": name, "returns": ret, "params": self.params(m.group(3), line),
                               "tier": tier, "section": self.section_at(line), "line": line})

    def enum(self, name, body, line, tier):
        members = []
        nxt = 0
        for part in body.split(","):
            part = part.strip()
            if not part:
                continue
            m = re.fullmatch(r"(%s)(?: ?= ?(.+))?" % IDENT, part)
            if not m:
                self.fail(line, "enum %s: cannot read the member %r" % (name, part))
            if m.group(2) is not None:
                try:
                    nxt = number(m.group(2), self.constants_values())
                except ValueError as e:
                    self.fail(line, "enum %s: %s = %r: %s" % (name, m.group(1), m.group(2), e))
            members.append({"name": m.group(1), "value": nxt})
            nxt += 1
        if not members:
            self.fail(line, "enum %s has no members" % name)
        self.enums.append({"name": name, "members": members, "line": line, "tier": tier})

    def struct(self, name, body, line, tier):
        fields = []
        for part in body.split(";"):
            if part.strip():
                fields.append(self.declarator(part, line, "field of %s" % name))
        if not fields:
            self.fail(line, "struct %s has no fields" % name)
        self.types.add(name)
        first = fields[0]
        tagged = first["name"] == "size" and first["type"] == "size_t"
        self.structs.append({"name": name, "fields": fields, "size_tagged": tagged,
                             "line": line, "tier": tier})

    # ---------------------------------------------------- output
    def describe(self, versions):
        for s in self.structs:
            init = "%s_init" % s["name"]
            f = next((f for f in self.functions if f["name"] == init), None)
            # (ball_search_info has none: the library fills it for a callback)
            s["init"] = init if f else None
        for f in self.functions:
            f["version"] = versions.get(f["name"])
        return {
            "header": self.path,
            "version": {k: self.constants[k]["value"] for k in
                        ("BALL_VERSION_MAJOR", "BALL_VERSION_MINOR", "BALL_VERSION_PATCH")
                        if k in self.constants},
            "functions": self.functions,
            "structs": self.structs,
            "opaque": self.opaque,
            "typedefs": self.typedefs,
            "enums": self.enums,
            "constants": self.constants,
            "strings": self.strings,
        }


def read_versions(path, display):
    """{function: node} from a linker version script in exports.map's
    style (nodes of `global:` names and one `local: *;`)."""
    with open(path, encoding="utf-8") as f:
        text, _ = strip_comments(f.read(), display)
    versions = {}
    node = None
    for lineno, line in enumerate(text.split("\n"), 1):
        s = line.strip()
        if not s or s in ("global:", "local: *;"):
            continue
        m = re.fullmatch(r"([A-Z][A-Z0-9_.]*) ?\{", s)
        if m:
            node = m.group(1)
            continue
        if re.fullmatch(r"\}( ?[A-Z][A-Z0-9_.]*)? ?;", s):
            node = None
            continue
        m = re.fullmatch(r"(ball_[a-z0-9_]+);", s)
        if m and node:
            if m.group(1) in versions:
                raise ParseError(display, lineno, "%s listed twice" % m.group(1))
            versions[m.group(1)] = node
            continue
        raise ParseError(display, lineno, "cannot read this line: %s" % s)
    return versions


def describe(header="include/ball.h", exports_map="libball/exports.map", root="."):
    h = Header(os.path.join(root, header), header)
    versions = read_versions(os.path.join(root, exports_map), exports_map) if exports_map else {}
    return h.describe(versions)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--header", default="include/ball.h")
    ap.add_argument("--map", default="libball/exports.map")
    ap.add_argument("-o", "--output", help="the JSON file (default: standard output)")
    args = ap.parse_args(argv)
    try:
        d = describe(args.header, args.map)
    except (ParseError, OSError) as e:
        print("api-describe: %s" % e, file=sys.stderr)
        return 1
    text = json.dumps(d, indent=2, sort_keys=True) + "\n"
    if args.output:
        os.makedirs(os.path.dirname(args.output) or ".", exist_ok=True)
        tmp = args.output + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, args.output)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
