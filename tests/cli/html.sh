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
echo "== --as pK --deliveries: what the seat knew of a game without its reveal"
camelog keygen --seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f -o dealer >/dev/null
camelog simulate --game avalon --players 5 --seed 05 --key dealer.key \
    -o game.camelog --deliveries seats >/dev/null
camelog cat game.camelog >game.txt
r=$(grep -n '^reveal ' game.txt | cut -d: -f1)
head -n $((r - 1)) game.txt | gzip -n >pre.camelog
camelog reveal game.camelog | sed -n 2p
camelog html --as p2 --deliveries seats/p2.deliveries -o p2.html pre.camelog
echo "exit $?"
grep -o '"role":"[a-z]*","seat":[0-9]*' p2.html | sort -u
grep -o 'is dealt a role: [^"<]*' p2.html | sort -u
grep -o '"committed":[0-9]*' p2.html
echo "-- without them: no role at all"
camelog html --as p2 -o p2-none.html pre.camelog
grep -c '"role":' p2-none.html
echo "-- another seat's deliveries, and --deliveries without --as pK"
camelog html --as p2 --deliveries seats/p3.deliveries -o x.html pre.camelog
echo "exit $?"
camelog html --deliveries seats/p2.deliveries -o x.html pre.camelog
echo "exit $?"
