# names_spoof: camelog(5) refuses a seat name holding a control, format
# or invisible character (a direction override, a zero-width space, a
# line separator, a byte order mark): a reader at its seat line, naming
# the kind; letters and marks of any script stay.  Every sample still
# verifies.
zcat "$SAMPLES"/avalon-5.camelog >plain.txt
try() { # $1: the name of p2, as printf(1) reads it
    name=$(printf "$1")
    sed "s/^seat p2 \"Bob\"/seat p2 \"$name\"/" plain.txt | gzip -n >t.camelog
    camelog verify t.camelog 2>&1 | head -n 1
}
try 'Bob\342\200\213'      # U+200B zero width space
try '\342\200\256boB'      # U+202E right-to-left override
try 'B\342\201\246ob'      # U+2066 left-to-right isolate
try 'Bob\342\200\250'      # U+2028 line separator
try '\357\273\277Bob'      # U+FEFF
try 'Bo\302\255b'          # U+00AD soft hyphen
try 'Bob\357\270\217'      # U+FE0F variation selector
try 'Bob\302\205'          # U+0085, a C1 control
echo "== letters and marks stay (the signature then fails, not the name)"
try 'Zo\303\253 \316\251'
try 'Bo\314\201b'          # b + U+0301, a combining mark
echo "== pack refuses it too"
sed 's/^seat p2 "Bob"/seat p2 "Bob\xe2\x80\x8b"/' plain.txt >edited.txt
cp "$SAMPLES"/dealer.key . && chmod 600 dealer.key
camelog pack --key dealer.key -o packed.camelog edited.txt 2>&1 | sed 's/ (.*//'
echo "exit ${PIPESTATUS[0]}"
[ -e packed.camelog ] && echo "packed.camelog written"
echo "== every sample and test log still verifies as before"
bad=0
for f in "$SAMPLES"/*.camelog; do
    [ -e "$f" ] || continue
    camelog verify "$f" >/dev/null 2>&1 || { echo "$(basename "$f") fails"; bad=1; }
done
echo "failures: $bad"
