#!/bin/sh
# Checks the relative links of the Markdown files.
#
# Usage: tests/docs/links_test.sh [FILE.md ...]
#
# With no argument it checks every *.md file tracked by git (every *.md
# file found under the tree, .git and build excluded, outside a git
# checkout). For each link [text](path), [text](path#anchor), ![alt](path)
# or reference definition "[ref]: path" outside fenced code blocks and
# inline code spans, it checks that path exists (relative to the file's
# directory, or to the repository root when it starts with '/') and, for an
# #anchor into a .md file (the file itself when path is empty), that the
# file has a heading with that GitHub-style slug: text lower-cased,
# punctuation dropped except '-' and '_', each space turned into '-', "-1",
# "-2", ... added to repeated headings. Explicit <a name="..."> and
# id="..." anchors count too. Links with a scheme (http:, https:, mailto:,
# ...) are not checked.
#
# Prints "file:line: broken link TARGET" for each broken link, then
# "links: N passed, M failed"; exits 1 when M > 0.
cd "$(dirname "$0")/../.." || exit 2

list_files() {
    if [ $# -gt 0 ]; then
        for f in "$@"; do printf '%s\n' "$f"; done
    elif git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
        git ls-files -z -- '*.md' | tr '\0' '\n'
    else
        find . \( -name .git -o -name build \) -prune -o -type f -name '*.md' -print |
            sed 's|^\./||' | LC_ALL=C sort
    fi
}

list_files "$@" | LC_ALL=C awk '
# s as one sh word: in single quotes, each single quote closed, escaped, reopened
function shquote(s,   q, out, i) {
    q = sprintf("%c", 39)
    out = q
    while ((i = index(s, q)) > 0) { out = out substr(s, 1, i - 1) q "\\" q q; s = substr(s, i + 1) }
    return out s q
}

# Does path p (relative to the root, normalised) exist?
function exists(p) {
    if (p in readable) return 1
    if (!(p in exist_cache)) exist_cache[p] = (system("test -e " shquote(p)) == 0)
    return exist_cache[p]
}
function is_file(p) {
    if (p in readable) return 1
    if (!(p in file_cache)) file_cache[p] = (system("test -f " shquote(p)) == 0)
    return file_cache[p]
}

# "a/./b/../c" -> "a/c"; "." for the root; "" when it leaves the root.
function normalize(p,   n, i, part, k, out, st) {
    n = split(p, part, "/")
    k = 0
    for (i = 1; i <= n; i++) {
        if (part[i] == "" || part[i] == ".") continue
        if (part[i] == "..") { if (k == 0) return ""; k--; continue }
        st[++k] = part[i]
    }
    out = ""
    for (i = 1; i <= k; i++) out = out (i > 1 ? "/" : "") st[i]
    return out == "" ? "." : out
}
# %XX escapes of a URL decoded.
function url_decode(s,   out, i, v) {
    out = ""
    while (match(s, /%[0-9A-Fa-f][0-9A-Fa-f]/)) {
        v = index("0123456789abcdef", tolower(substr(s, RSTART + 1, 1))) * 16 - 17 \
            + index("0123456789abcdef", tolower(substr(s, RSTART + 2, 1)))
        out = out substr(s, 1, RSTART - 1) sprintf("%c", v)
        s = substr(s, RSTART + 3)
    }
    return out s
}
function dirname(f) { return f ~ /\// ? substr(f, 1, match(f, /[^\/]*$/) - 1) : "" }

# GitHub-style anchor of a heading text.
function slug(s,   inner) {
    while (match(s, /\[[^]]*\]\([^)]*\)/)) {
        inner = substr(s, RSTART + 1, RLENGTH - 1)
        sub(/\]\(.*$/, "", inner)
        s = substr(s, 1, RSTART - 1) inner substr(s, RSTART + RLENGTH)
    }
    gsub(/<[^>]*>/, "", s)
    sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s)
    s = tolower(s)
    gsub(/\342[\200-\237][\200-\277]/, "", s)   # U+2000-U+27FF: punctuation, arrows, symbols
    gsub(/\302[\240-\277]/, "", s)               # U+00A0-U+00BF: Latin-1 punctuation
    gsub(/\303[\227\267]/, "", s)                # multiplication and division signs
    gsub(/[^a-z0-9 _\200-\377-]/, "", s)
    gsub(/ /, "-", s)
    return s
}
function add_anchor(f, a) {
    if ((f SUBSEP a) in seen) { a = a "-" seen[f SUBSEP a]++ }
    else seen[f SUBSEP a] = 1
    anchors[f SUBSEP a] = 1
}

# Text of line s without its inline code spans.
function strip_code(s,   out, tick, rest, k) {
    out = ""
    while (match(s, /`+/)) {
        tick = substr(s, RSTART, RLENGTH)
        out = out substr(s, 1, RSTART - 1)
        rest = substr(s, RSTART + RLENGTH)
        k = index(rest, tick)
        if (k == 0) { out = out tick; s = rest; continue }
        out = out " "
        s = substr(rest, k + length(tick))
    }
    return out s
}
function add_link(f, ln, t) {
    sub(/^[ \t]+/, "", t)
    if (substr(t, 1, 1) == "<") { t = substr(t, 2); sub(/>.*$/, "", t) }
    else sub(/[ \t].*$/, "", t)
    if (t == "" || t ~ /^[A-Za-z][A-Za-z0-9+.-]*:/ || t ~ /^\/\//) return
    nlinks++
    link_file[nlinks] = f; link_line[nlinks] = ln; link_target[nlinks] = t
}

# One pass over file f: its anchors and, if want_links, its links.
function scan(f, want_links,   r, line, ln, t, u, n, c, k, fence_c, fence_n, text, prev, s, target) {
    scanned[f] = 1
    fence_c = ""; prev = ""; ln = 0
    while ((r = (getline line < f)) > 0) {
        ln++
        sub(/\r$/, "", line)
        t = line; n = 0
        while (n < 3 && substr(t, 1, 1) == " ") { t = substr(t, 2); n++ }
        u = line; sub(/^[ \t]+/, "", u)   # fences may be indented (list items)
        c = substr(u, 1, 1)
        if (c == "`" || c == "~") { k = 0; while (substr(u, k + 1, 1) == c) k++ } else k = 0
        if (fence_c != "") {   # inside a fenced block: only its end matters
            if (c == fence_c && k >= fence_n && substr(u, k + 1) ~ /^[ \t]*$/) fence_c = ""
            continue
        }
        if (k >= 3 && !(c == "`" && index(substr(u, k + 1), "`"))) {
            fence_c = c; fence_n = k; prev = ""
            continue
        }
        if (t ~ /^#+([ \t]|$)/ && match(t, /^#+/) && RLENGTH <= 6) {
            text = substr(t, RLENGTH + 1)
            sub(/[ \t]+#+[ \t]*$/, "", text)
            if (text ~ /^[ \t]*#+[ \t]*$/) text = ""
            add_anchor(f, slug(text))
            prev = ""
        } else if (prev != "" && (t ~ /^=+[ \t]*$/ || t ~ /^-+[ \t]*$/)) {
            add_anchor(f, slug(prev))   # setext heading: the line above
            prev = ""
            continue
        } else if (t ~ /^[ \t]*$/ || t ~ /^([-*+>|]|[0-9]+[.)])/ || n > 0) {
            prev = ""
        } else prev = t
        s = line
        while (match(s, /<[A-Za-z][^>]*[ \t](name|id)="[^"]*"/)) {   # HTML anchors
            text = substr(s, RSTART, RLENGTH)
            s = substr(s, RSTART + RLENGTH)
            sub(/"$/, "", text); sub(/^.*"/, "", text)
            anchors[f SUBSEP text] = 1
        }
        if (!want_links) continue
        s = strip_code(line)
        if (match(s, /^ ? ? ?\[[^]^][^]]*\]:[ \t]*[^ \t]/)) {   # reference definition
            target = s; sub(/^[^]]*\]:/, "", target)
            add_link(f, ln, target)
            continue
        }
        while (match(s, /\[[^]]*\]\([^)]*\)/)) {
            target = substr(s, RSTART, RLENGTH)
            s = substr(s, RSTART + RLENGTH)
            sub(/^\[[^]]*\]\(/, "", target); sub(/\)$/, "", target)
            add_link(f, ln, target)
        }
    }
    if (r == 0) readable[f] = 1   # read to its end (maybe empty): it exists
    close(f)
}

$0 != "" { nfiles++; files[nfiles] = normalize($0) }

END {
    for (i = 1; i <= nfiles; i++) scan(files[i], 1)
    passed = failed = 0
    for (j = 1; j <= nlinks; j++) {
        f = link_file[j]; t = link_target[j]
        path = t; anchor = ""
        if ((h = index(t, "#")) > 0) { path = substr(t, 1, h - 1); anchor = substr(t, h + 1) }
        if ((q = index(path, "?")) > 0) path = substr(path, 1, q - 1)
        path = url_decode(path); anchor = url_decode(anchor)
        if (path == "") target = f
        else if (substr(path, 1, 1) == "/") target = normalize(substr(path, 2))
        else target = normalize(dirname(f) path)
        ok = target != "" && exists(target)
        if (ok && anchor != "" && tolower(target) ~ /\.(md|markdown)$/ && is_file(target)) {
            if (!(target in scanned)) scan(target, 0)
            ok = (target SUBSEP anchor) in anchors
        }
        if (ok) passed++
        else { failed++; printf "%s:%d: broken link %s\n", f, link_line[j], t }
    }
    printf "links: %d passed, %d failed\n", passed, failed
    exit (failed > 0 ? 1 : 0)
}'
