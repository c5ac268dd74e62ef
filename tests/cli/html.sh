# html: a game as one self-contained HTML page; its errors, and the same
# input giving the same bytes.
cp "$SAMPLES"/avalon-5.camelog "$SAMPLES"/avalon-6.camelog "$SAMPLES"/avalon-7.camelog \
    "$SAMPLES"/avalon-in-progress.camelog "$SAMPLES"/soc-3.camelog .
camelog html --help | head -n 2
echo "== determinism: the same log, the same page"
camelog html -o a.html avalon-7.camelog
echo "exit $?"
camelog html -o - avalon-7.camelog | cmp - a.html && echo "same bytes"
camelog html --as all -o b.html soc-3.camelog &&
    camelog html --as all -o - soc-3.camelog | cmp - b.html &&
    echo "same bytes (all)"
echo "== self-contained: a CSP, the data in one script element, no URL"
grep -c "default-src 'none'" a.html
grep -c '<script type="application/json" id="camelog-data">' a.html
grep -ciE 'https?:|src=|href=' a.html
echo "== an existing output is kept"
camelog html -o a.html avalon-5.camelog
echo "exit $?"
camelog html -f -o a.html avalon-5.camelog
echo "exit $?"
echo "== usage"
camelog html avalon-5.camelog
echo "exit $?"
camelog html -o x.html
echo "exit $?"
camelog html -o x.html avalon-5.camelog avalon-6.camelog
echo "exit $?"
camelog html --as p0 -o x.html avalon-5.camelog
echo "exit $?"
camelog html --as p6 -o x.html avalon-5.camelog
echo "exit $?"
camelog html --as everyone -o x.html avalon-5.camelog
echo "exit $?"
camelog html --bogus -o x.html avalon-5.camelog
echo "exit $?"
echo "== inputs"
camelog html -o x.html missing.camelog
echo "exit $?"
camelog html --as all -o x.html avalon-in-progress.camelog
echo "exit $?"
zcat avalon-5.camelog | sed 's/^vote p1 no$/vote p1 yes/' |
    gzip -n >bad.camelog
camelog html -o x.html bad.camelog
echo "exit $?"
camelog html --pubkey "$TESTDATA/keys/minisign-nopw.pub" -o x.html \
    avalon-5.camelog 2>&1 | head -n 1
ls x.html 2>&1
echo "== a directory that cannot hold the page"
camelog html -o nodir/x.html avalon-5.camelog
echo "exit $?"
