#!/usr/bin/env python3
"""The exported functions of libball that can reach an allocation.

    python3 scripts/alloc-entry-points.py build/libball.a     one name a line
    python3 scripts/alloc-entry-points.py --why build/libball.a   with a call path

Reads the static library's objects with `objdump -d -r -l` (the library is
built with -g, so that every instruction carries its source line) and
walks a call graph from each exported function (a global `ball_*` symbol
that is not hidden) to an allocation. The graph is conservative:

  - an edge for every direct call or jump, and for every reference to a
    function's address (a callback, a table of functions, an allocator
    default), resolved through the relocations, section-relative ones
    included; a reference to a data section links to every function
    that section's relocations name;
  - an allocation is a call of the C library's malloc, calloc, realloc,
    strdup, strndup, reallocarray, aligned_alloc, posix_memalign or
    memalign, or code whose source line calls an allocator hook
    (`malloc_fn(` or `realloc_fn(` of a ball_allocator), which is an
    indirect call that no call graph resolves.

What the C library allocates inside its own functions (fopen, qsort) is
not counted: tests/malloc_fail.c's wrappers cannot fail those either.
Exits 1 when objdump fails.
"""
import collections
import os
import re
import subprocess
import sys

ALLOC = {"malloc", "calloc", "realloc", "strdup", "strndup", "reallocarray",
         "aligned_alloc", "posix_memalign", "memalign"}
HOOK = re.compile(r"\b(malloc_fn|realloc_fn)\s*\(")

FUNC = re.compile(r"^([0-9a-f]+) <([^>]+)>:$")
INSN = re.compile(r"^\s+([0-9a-f]+):\s+(\S+)\s*(.*)$")
RELOC = re.compile(r"^\s+([0-9a-f]+):\s+(R_X86_64_\w+|R_AARCH64_\w+|R_\w+)\s+(\S+)$")
LINE = re.compile(r"^(/\S+|\S+\.[ch]):(\d+)(?: \(discriminator \d+\))?$")
TARGET = re.compile(r"<([^>+]+)(\+0x[0-9a-f]+)?>")
SYMTAB = re.compile(r"^([0-9a-f]+)\s+([lgw! ])\s*([dDFfOo ]*)\s+(\S+)\s+([0-9a-f]+)\s+(.*)$")


def run(args):
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout


def split_members(text):
    """objdump output of an archive: {member: lines}."""
    members, cur = {}, None
    for line in text.splitlines():
        m2 = re.match(r"^(\S+\.o):\s+file format", line)
        if m2:
            cur = m2.group(1)
            members[cur] = []
        elif cur is not None:
            members[cur].append(line)
    return members


def main(argv):
    why = "--why" in argv
    paths = [a for a in argv if not a.startswith("--")]
    if len(paths) != 1:
        sys.exit("usage: alloc-entry-points.py [--why] build/libball.a")
    lib = paths[0]
    try:
        dis = split_members(run(["objdump", "-d", "-r", "-l", "--no-show-raw-insn", lib]))
        syms = split_members(run(["objdump", "-t", lib]))
        rels = split_members(run(["objdump", "-r", lib]))
    except (OSError, subprocess.CalledProcessError) as e:
        sys.exit("alloc-entry-points: objdump failed: %s" % e)

    graph = collections.defaultdict(set)  # node -> nodes
    roots = {}                            # node -> why it allocates
    exported = set()
    srcs = {}

    def source_line(path, n):
        if path not in srcs:
            try:
                with open(path, encoding="utf-8", errors="replace") as f:
                    srcs[path] = f.read().split("\n")
            except OSError:
                srcs[path] = []
        lines = srcs[path]
        return lines[n - 1] if 0 < n <= len(lines) else ""

    for obj in dis:
        # symbols: name -> node; local ones qualified by their object
        local, funcs_by_sec = set(), collections.defaultdict(list)
        for line in syms.get(obj, []):
            m = SYMTAB.match(line)
            if not m:
                continue
            addr, bind, flags, sec, size, name = m.groups()
            hidden = name.startswith(".hidden ")
            name = name.split()[-1]
            if "F" in flags:
                if bind == "l":
                    local.add(name)
                elif bind in "gw" and not hidden and name.startswith("ball_"):
                    exported.add(name)
                funcs_by_sec[sec].append((int(addr, 16), int(size, 16), name))

        def node(name):
            return obj + ":" + name if name in local else name

        def resolve(sym):
            """A relocation's symbol (sym, sym+0x10, .text+0x40) -> node."""
            m = re.match(r"^([^+-]+)([+-]0x[0-9a-f]+)?$", sym)
            if not m:
                return None
            base, off = m.group(1), int(m.group(2) or "0", 16)
            if base in funcs_by_sec.get(base, []) or not base.startswith("."):
                return node(base)
            # section-relative: the function that holds the address (PC-
            # relative references carry -4; try both)
            for o in (off, off + 4):
                for a, s, n in funcs_by_sec.get(base, []):
                    if a <= o < a + max(s, 1):
                        return node(n)
            return "section:" + obj + ":" + base

        # data sections: which functions their relocations name
        sec = None
        for line in rels.get(obj, []):
            m = re.match(r"^RELOCATION RECORDS FOR \[(.*)\]:$", line)
            if m:
                sec = m.group(1)
                continue
            parts = line.split()
            if sec and len(parts) == 3 and re.match(r"^[0-9a-f]+$", parts[0]) and not sec.startswith((".text", ".debug", ".eh_frame", ".rela.debug")):
                t = resolve(parts[2])
                if t:
                    graph["section:" + obj + ":" + sec].add(t)

        cur, cur_src = None, None
        for line in dis[obj]:
            m = FUNC.match(line)
            if m:
                cur = node(m.group(2))
                continue
            if cur is None:
                continue
            m = LINE.match(line)
            if m:
                path, n = m.group(1), int(m.group(2))
                if HOOK.search(source_line(path, n)):
                    roots.setdefault(cur, "calls an allocator hook at %s:%d" % (os.path.relpath(path), n))
                continue
            m = RELOC.match(line)
            if m:
                t = resolve(m.group(3))
                if t and t != cur:
                    if t in ALLOC:
                        roots.setdefault(cur, "calls %s" % t)
                    graph[cur].add(t)
                continue
            m = INSN.match(line)
            if m:
                # a direct call or jump, or an address taken within the
                # object (`lea -0x318(%rip),%rcx  # 20 <std_malloc>`)
                for t in TARGET.finditer(m.group(3)):
                    tn = node(t.group(1))
                    if tn != cur:
                        graph[cur].add(tn)

    # a node allocates when it reaches a root
    out = []
    for f in sorted(exported):
        seen, queue, parent, hit = {f}, collections.deque([f]), {f: None}, None
        while queue:
            n = queue.popleft()
            if n in roots:
                hit = n
                break
            for t in graph.get(n, ()):
                if t not in seen:
                    seen.add(t)
                    parent[t] = n
                    queue.append(t)
        if hit:
            path, n = [], hit
            while n:
                path.append(n.split(":")[-1])
                n = parent[n]
            out.append((f, " -> ".join(reversed(path)) + " (" + roots[hit] + ")"))
    for f, p in out:
        print("%s\t%s" % (f, p) if why else f)


if __name__ == "__main__":
    main(sys.argv[1:])
