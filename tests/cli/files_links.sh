# files_links: every file a command writes goes through one writer (a
# temporary file made with mkstemp() beside the target, synced, renamed
# over it), so a symbolic link planted at the temporary names the
# commands used to write (P.tmp, .MANIFEST.tsv.tmp) or at the target
# itself is never followed: the link's target keeps its bytes.  Without
# --force a planted link is an existing file; with it, the link itself
# is replaced by a regular file.
echo precious >victim
plant() { echo precious >victim && rm -f "$1" && ln -s "$PWD/victim" "$1"; }
check() { # $1: the path written
    if [ "$(cat victim)" = precious ]; then v=kept; else v=CHANGED; fi
    if [ -L "$1" ]; then t=link; elif [ -f "$1" ]; then t=file; else t=none; fi
    echo "victim $v, $1 is a $t"
}
cp "$SAMPLES"/avalon-7.camelog .
camelog keygen --seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f -o dealer >/dev/null
echo "== html -o"
plant page.html.tmp
camelog html -o page.html avalon-7.camelog
echo "exit $?"
check page.html
plant page.html
camelog html -o page.html avalon-7.camelog 2>&1 | sed 's/:.*/: refused/'
check page.html
camelog html -f -o page.html avalon-7.camelog
echo "exit $?"
check page.html
ls -a | grep -c '^\.page\.html\.' || true
echo "== simulate --count"
mkdir runs
plant runs/.MANIFEST.tsv.tmp
camelog simulate --game avalon --players 5 --count 2 --seed 03 --key dealer.key -o runs
echo "exit $?"
check runs/MANIFEST.tsv
plant runs/MANIFEST.tsv
camelog simulate --game avalon --players 5 --count 2 --seed 03 --key dealer.key -o runs --force
echo "exit $?"
check runs/MANIFEST.tsv
echo "== simulate --deliveries"
mkdir seats
plant seats/p1.deliveries
camelog simulate --game avalon --players 5 --seed 03 --key dealer.key -o one.camelog \
    --deliveries seats 2>&1 | sed 's/: file exists.*/: file exists/'
check seats/p1.deliveries
camelog simulate --game avalon --players 5 --seed 03 --key dealer.key -o one.camelog \
    --deliveries seats --force
echo "exit $?"
check seats/p1.deliveries
stat -c '%a' seats/p1.deliveries
echo "== corpus -f"
mkdir corp
plant corp/manifest.txt
plant corp/manifest.json
camelog corpus -q -k 1 --max-games 2 -o corp -f
echo "exit $?"
check corp/manifest.txt
check corp/manifest.json
echo "== archive report -o, stats --svg"
camelog archive add games.db runs/*.camelog >/dev/null
plant report.html.tmp
plant report.html
camelog archive report -o report.html -f games.db
echo "exit $?"
check report.html
plant chart.svg
camelog archive stats --svg chart.svg games.db >/dev/null
echo "exit $?"
check chart.svg
echo "== no temporary file is left"
find . -name '.*.??????' | wc -l
