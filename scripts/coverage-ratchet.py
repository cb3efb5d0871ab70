#!/usr/bin/env python3
"""The coverage ratchet: every line and branch outcome of libball/ that no
test reaches must be listed, with a reason, in tests/coverage-baseline.txt.

    coverage-ratchet.py check  INFO BASELINE [OBJDIR]   (make coverage)
    coverage-ratchet.py update INFO BASELINE [OBJDIR]   (make coverage-baseline)

INFO is the lcov tracefile of `make coverage` (an --initial capture added
to the test run's, so that a file no test loads is all uncovered rather
than absent). An entry is keyed by what it is, not by its line number, so
that an edit elsewhere in the file does not move it:

    line        FILE  FUNCTION  CODE                       REASON
    branch K/N  FILE  FUNCTION  CODE                       REASON

CODE is the text of the source line with its white space collapsed (and
" @2", " @3" for the second, third identical line of the same function);
FUNCTION the function the line is in ("-" outside any); branch K/N the
K-th of the N branch outcomes gcov counts on that line. Columns are
separated by tabs; lines starting with '#' are comments.

check fails (exit 1), naming FILE:LINE and the entry to add, when
  - a line or branch outcome is uncovered and not in the list;
  - an entry has no reason, or one starting with TODO;
  - a library source file (libball/**.c) is missing from INFO, unless
    OBJDIR (the coverage build's objects) has its .gcno: a file of
    tables only, without a line of code;
  - an entry is now covered, or its code is gone (the list must shrink:
    `make coverage-baseline` rewrites it); with COVERAGE_STALE=warn these
    are only reported. An entry whose reason starts with
    "nondeterministic:" (a line that timing decides, such as a search
    that ran out of time before its first iteration) may be covered.
update rewrites BASELINE with the uncovered set of INFO, keeping the
reason of every entry whose key is unchanged (or only its directory:
a moved file keeps its reasons); new entries get the reason in
COVERAGE_BASELINE_REASON, "TODO: why no test reaches this" by default,
which check refuses until it is replaced.
"""
import collections
import glob
import os
import re
import sys

TODO = "TODO: why no test reaches this"
NONDET = "nondeterministic:"
HEADER = """\
# The lines and branch outcomes of libball/ that no test reaches, each with
# the reason why (docs/gates.md, "Coverage ratchet"). `make coverage` fails
# on an uncovered line or branch that is not here, and on an entry here
# that a test now reaches or whose code is gone. Rewrite it with
# `make coverage-baseline` (reasons are kept where the key matches; new
# entries get "TODO: ...", which `make coverage` refuses until replaced).
# Columns (tab-separated): kind, file, function, code of the line, reason.
"""


def short(path):
    # the last libball/ of the path: the repository may be a libball/ too
    m = re.match(r"^(?:.*/)?(libball/.*)$", path)
    return m.group(1) if m else path


def norm(text):
    return " ".join(text.replace("\t", " ").split())


def read_info(path):
    """{file: (fns [(line, name)], da {line: count}, br {line: [taken...]}, sf)}"""
    files = {}
    cur = None
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("SF:"):
                name = short(line[3:])
                cur = files.setdefault(name, {"fns": set(), "da": {}, "br": collections.defaultdict(dict), "sf": line[3:]})
            elif cur is None:
                continue
            elif line.startswith("FN:"):
                ln, name = line[3:].split(",", 1)
                cur["fns"].add((int(ln), name))
            elif line.startswith("DA:"):
                parts = line[3:].split(",")
                ln, cnt = int(parts[0]), int(parts[1])
                cur["da"][ln] = cur["da"].get(ln, 0) + cnt
            elif line.startswith("BRDA:"):
                ln, block, branch, taken = line[5:].split(",")
                t = 0 if taken == "-" else int(taken)
                key = (int(block), int(branch))
                cur["br"][int(ln)][key] = cur["br"][int(ln)].get(key, 0) + t
            elif line == "end_of_record":
                cur = None
    return files


def source_lines(name, sf):
    for p in (name, sf):
        if os.path.exists(p):
            with open(p, encoding="utf-8", errors="replace") as f:
                return f.read().split("\n")
    return None


def entries(files):
    """every instrumented line and branch outcome: {key: (file, line, covered)}"""
    out = {}
    for name, d in sorted(files.items()):
        src = source_lines(name, d["sf"])
        if src is None:
            sys.exit("coverage-ratchet: cannot read %s" % name)
        fns = sorted(d["fns"])
        starts = [ln for ln, _ in fns]

        def func(ln):
            best = "-"
            for s, n in fns:
                if s <= ln:
                    best = n
                else:
                    break
            return best

        lines = sorted(set(d["da"]) | set(d["br"]))
        seen = collections.Counter()
        code_of = {}
        for ln in lines:
            text = norm(src[ln - 1]) if 0 < ln <= len(src) else "?"
            fn = func(ln)
            seen[(fn, text)] += 1
            k = seen[(fn, text)]
            code_of[ln] = (fn, text if k == 1 else "%s @%d" % (text, k))
        for ln in lines:
            fn, code = code_of[ln]
            if ln in d["da"]:
                out[("line", name, fn, code)] = (name, ln, d["da"][ln] > 0)
            outcomes = [d["br"][ln][k] for k in sorted(d["br"].get(ln, {}))]
            for i, t in enumerate(outcomes):
                out[("branch %d/%d" % (i + 1, len(outcomes)), name, fn, code)] = (name, ln, t > 0)
    return out


def read_baseline(path):
    base = collections.OrderedDict()
    if not os.path.exists(path):
        return base
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            cols = line.split("\t")
            if len(cols) != 5:
                sys.exit("coverage-ratchet: %s:%d: expected 5 tab-separated columns, found %d" % (path, n, len(cols)))
            base[tuple(cols[:4])] = (cols[4].strip(), n)
    return base


def fmt(key, reason):
    return "\t".join(list(key) + [reason])


def main(argv):
    if len(argv) not in (3, 4) or argv[0] not in ("check", "update"):
        sys.exit(__doc__)
    mode, info, bpath = argv[:3]
    objdir = argv[3] if len(argv) == 4 else None
    files = read_info(info)
    allk = entries(files)
    unc = {k: v for k, v in allk.items() if not v[2]}
    base = read_baseline(bpath)
    status = 0

    # Every library source is in the data, unless it has no code at all
    # (tables only: its object's .gcno is there but lcov lists nothing).
    sources = sorted(glob.glob("libball/**/*.c", recursive=True))
    for src in sources:
        if src in files:
            continue
        gcno = os.path.join(objdir, os.path.splitext(os.path.relpath(src, "libball"))[0] + ".gcno") if objdir else None
        if gcno and os.path.exists(gcno):
            continue
        print("coverage-ratchet: FAILED: %s is not in the coverage data (%s)" % (
            src, "no %s: not built into the coverage build?" % gcno if gcno else "no object directory given"))
        status = 1

    if mode == "update":
        by_base = {}
        for k, (r, _) in base.items():
            by_base[(k[0], os.path.basename(k[1]), k[2], k[3])] = r
        default = os.environ.get("COVERAGE_BASELINE_REASON", TODO).strip() or TODO
        kept = new = 0
        rows = []
        # a nondeterministic entry stays while its code is there, covered
        # in this run or not
        keep = dict(unc)
        for k, (r, _) in base.items():
            if r.startswith(NONDET) and k in allk:
                keep[k] = allk[k]
        for k, (name, ln, _) in sorted(keep.items(), key=lambda kv: (kv[1][0], kv[1][1], kv[0][0])):
            r = base.get(k, (None,))[0] or by_base.get((k[0], os.path.basename(k[1]), k[2], k[3]))
            if r:
                kept += 1
            else:
                r, new = default, new + 1
            rows.append(fmt(k, r))
        dropped = len([k for k in base if k not in keep])
        with open(bpath, "w", encoding="utf-8") as f:
            f.write(HEADER)
            for r in rows:
                f.write(r + "\n")
        print("coverage-ratchet: wrote %s: %d entries (%d with their reason kept, %d new, %d dropped)"
              % (bpath, len(rows), kept, new, dropped))
        todo = sum(1 for r in rows if r.split("\t")[-1].startswith("TODO"))
        if todo:
            print("coverage-ratchet: %d entries say TODO: give each its reason before committing" % todo)
        return status

    missing = [k for k in unc if k not in base]
    for k in sorted(missing, key=lambda k: (unc[k][0], unc[k][1])):
        name, ln, _ = unc[k]
        print("coverage-ratchet: FAILED: %s:%d: new uncovered %s (in %s): %s" % (name, ln, k[0], k[2], k[3]))
    if missing:
        print("coverage-ratchet: %d uncovered line(s)/branch(es) not in %s: add a test, or add each as"
              % (len(missing), bpath))
        print("coverage-ratchet: a tab-separated line of %s with its reason (make coverage-baseline writes them with TODO):" % bpath)
        for k in sorted(missing, key=lambda k: (unc[k][0], unc[k][1]))[:20]:
            print("    " + fmt(k, "REASON").replace("\t", " | "))
        status = 1
    noreason = [(k, n) for k, (r, n) in base.items() if not r or r.startswith("TODO")]
    for k, n in noreason:
        print("coverage-ratchet: FAILED: %s:%d: entry without a reason: %s" % (bpath, n, " | ".join(k)))
        status = 1
    # an entry whose reason starts with "nondeterministic:" (reached or
    # not depending on timing, a time budget on a loaded machine) may be
    # covered in one run and not in the next: not stale when covered
    covered = [(k, n) for k, (r, n) in base.items() if k in allk and allk[k][2] and not r.startswith(NONDET)]
    gone = [(k, n) for k, (r, n) in base.items() if k not in allk]
    stale_fails = os.environ.get("COVERAGE_STALE", "fail") != "warn"
    for what, lst in (("is now covered", covered), ("is gone (its code changed or moved)", gone)):
        for k, n in lst:
            where = "%s:%d" % (allk[k][0], allk[k][1]) if k in allk else k[1]
            print("coverage-ratchet: %s: %s:%d: %s %s: %s" % ("FAILED" if stale_fails else "note", bpath, n,
                                                           " | ".join(k), what, where))
    if covered or gone:
        print("coverage-ratchet: %d entr%s of %s %s no longer uncovered: shrink the list (make coverage-baseline)%s"
              % (len(covered) + len(gone), "y" if len(covered) + len(gone) == 1 else "ies", bpath,
                 "is" if len(covered) + len(gone) == 1 else "are",
                 "" if stale_fails else " (COVERAGE_STALE=warn: not a failure)"))
        if stale_fails:
            status = 1
    nl = sum(1 for k in unc if k[0] == "line")
    print("coverage-ratchet: %d uncovered lines and %d uncovered branch outcomes in %d files, %d listed in %s: %s"
          % (nl, len(unc) - nl, len(files), len(base), bpath, "FAILED" if status else "ok"))
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
