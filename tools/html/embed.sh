#!/bin/sh
# embed.sh - writes C source to stdout that holds each file named on the
# command line as an array of string literals, one per line of the file,
# ended by NULL: tools/html/page.js becomes html_page_js[].  The build
# embeds the page's HTML, CSS and JS this way (like build/archive_sql.h),
# so that they stay files that can be read and linted.  Of the CSS and
# the JS, it leaves out the leading blanks and the comments that begin a
# line (every comment of those files does), to keep the pages small.
# ISO C bounds the length of one literal, not of an array; '?' is
# escaped against trigraphs.
set -eu

echo '/* Generated from tools/html/ by make; do not edit. */'
echo '#include <stddef.h>'
for f in "$@"; do
    name=html_$(basename "$f" | tr '.-' '__')
    echo
    echo "extern const char *const $name[];"
    echo "const char *const $name[] = {"
    case $f in
    *.js | *.css) sed -e '/^ *\/\*.*\*\/ *$/d' -e '/^ *\/\*/,/\*\//d' -e 's/^ *//' -e '/^$/d' "$f" ;;
    *) cat "$f" ;;
    esac | sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/?/\\?/g' \
        -e 's/^/    "/' -e 's/$/\\n",/'
    echo '    NULL,'
    echo '};'
done
