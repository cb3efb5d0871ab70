#!/bin/sh
# The generated HTML documentation (make docs, docs/Doxyfile) has no
# broken image or local link: every href and src of build/docs/html/*.html
# that is a relative path names a file that exists (http(s):, mailto:,
# other schemes and pure #anchors are not checked; a ?query or #anchor
# after a path is dropped), and an #anchor into another generated page
# exists there. Also: the main page (docs/api-conventions.md)
# links every other guide of docs/, shows no literal ** (Markdown bold that
# Doxygen did not render), and make docs writes no warning.
# Runs make docs itself when build/docs/html is absent or older than a
# guide, the header or the Doxyfile (CI installs doxygen, scripts/deps.sh). Run from the repository root.
# Prints each failure; exits 1 if any.
. tests/lib/shell-test.sh
MAKE=${MAKE:-make}
html=build/docs/html

if [ ! -f "$html/index.html" ] ||
    [ -n "$(find docs include -newer "$html/index.html" -type f -print 2>/dev/null | head -n 1)" ]; then
    if ! command -v doxygen >/dev/null 2>&1; then
        echo "SKIP: doxygen not installed (Debian: doxygen); make docs not run"
        exit 77
    fi
    # Not through the outer make's jobserver (make -j2 check): its
    # "jobserver unavailable" warning is not a documentation warning.
    if ! env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL $MAKE --no-print-directory docs >"$tmp/docs.log" 2>&1; then
        cat "$tmp/docs.log"
        echo "FAIL: make docs"
        exit 1
    fi
    if grep -i 'warning' "$tmp/docs.log"; then
        fail "make docs wrote warnings"
    fi
fi

# Every href="..." and src="..." of every page, one per line as PAGE<TAB>URL.
for page in "$html"/*.html; do
    grep -o -E '(href|src)="[^"]*"' "$page" |
        sed -e 's/^[a-z]*="//' -e 's/"$//' |
        while IFS= read -r url; do printf '%s\t%s\n' "$page" "$url"; done
done >"$tmp/urls"
n=0
while IFS="$(printf '\t')" read -r page url; do
    case $url in
        ''|'#'*|http:*|https:*|mailto:*|javascript:*|data:*|ftp:*|file:*) continue ;;
        *:*) case ${url%%/*} in *:*) continue ;; esac ;; # another scheme
    esac
    path=${url%%#*}
    path=${path%%\?*}
    [ -n "$path" ] || continue
    # HTML escapes Doxygen may write in a path
    case $path in *'&'*|*%*) path=$(printf '%s' "$path" | sed -e 's/&amp;/\&/g' -e 's/%20/ /g') ;; esac
    n=$((n + 1))
    case $path in
        /*) target=$path ;;
        *) target=${page%/*}/$path ;;
    esac
    if [ ! -e "$target" ]; then
        fail "$page: broken link or image: $url"
        continue
    fi
    # An anchor into another generated page must exist there.
    case $url in
        *.html#*)
            anchor=${url#*#}
            grep -q -e "id=\"$anchor\"" -e "name=\"$anchor\"" "$target" ||
                fail "$page: link to a missing anchor: $url"
            ;;
    esac
done <"$tmp/urls"
[ "$n" -gt 100 ] || fail "only $n local links and images found in $html/*.html"
imgs=$(grep -o 'src="diagrams/' "$html/md_docs_rules.html" 2>/dev/null | wc -l)
[ "${imgs:-0}" -gt 0 ] || fail "$html/md_docs_rules.html: no diagrams/ image (the rules page's pictures)"

# The main page: every other guide listed, no literal ** left.
main=$(sed -n 's/^USE_MDFILE_AS_MAINPAGE *= *//p' docs/Doxyfile)
[ -n "$main" ] || fail "docs/Doxyfile: no USE_MDFILE_AS_MAINPAGE"
for guide in docs/*.md; do
    [ "$guide" = "$main" ] && continue
    name=$(basename "$guide")
    grep -q "]($name)" "$main" || fail "$main (the main page) does not list $name"
    page=md_docs_$(basename "$name" .md | tr '-' '_').html
    grep -q "href=\"$page\"" "$html/index.html" ||
        fail "$html/index.html does not link $page ($name)"
done
# (the tooltips of code, class="tt...", and code spans may hold C's **)
grep -v 'class="tt' "$html/index.html" | sed -e 's/<code>[^<]*<\/code>//g' | grep -n '\*\*' &&
    fail "$html/index.html: a literal ** (Markdown bold not rendered)"

if [ "$failures" -ne 0 ]; then
    echo "docs_html_test: $failures failure(s)"
    exit 1
fi
echo "docs_html_test: $n local links and images in $html/*.html resolve ($imgs diagrams on the rules page): ok"
finish
