# pack: text (canonical or hand-written) to a .camelog file, verified
# first; --key re-signs the seals; a log that does not verify is not
# written.
camelog keygen --seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f -o dealer >/dev/null
camelog keygen --seed 1f1e1d1c1b1a191817161514131211100f0e0d0c0b0a09080706050403020100 -o other >/dev/null
camelog simulate --game avalon --players 5 --seed 05 \
    --key dealer.key -o game.camelog >/dev/null
echo "== the canonical text packs to the same text"
camelog cat game.camelog >game.txt
camelog pack game.txt -o packed.camelog
echo "exit $?"
camelog diff game.camelog packed.camelog
echo "exit $?"
gzip -t packed.camelog && echo "gzip -t: ok"
echo "== hand-written: comments, blank lines, CRLF, blanks, uppercase hex"
{
    echo "# a game typed by hand"
    echo
    sed -e 's/^\(commit\|deal p[0-9]*\|card p[0-9]*\) \([0-9a-f]*\)$/\1   \U\2/' \
        -e 's/$/ \r/' game.txt
} >lenient.txt
grep -c $'\r$' lenient.txt
sed -n '13p;15p' lenient.txt | tr -d '\r'
camelog pack lenient.txt -o lenient.camelog
echo "exit $?"
camelog diff game.camelog lenient.camelog
echo "exit $?"
echo "== from standard input, to standard output"
camelog pack - -o - <game.txt | camelog cat - | cmp - game.txt && echo "same text"
echo "== a .camelog input is recompressed"
camelog pack game.camelog -o again.camelog
echo "exit $?"
camelog diff game.camelog again.camelog
echo "exit $?"
echo "== an edited line without the key: the seals no longer verify"
sed 's/^seat p1 "Alice"$/seat p1 "Alicia"/' game.txt >renamed.txt
camelog pack renamed.txt -o renamed.camelog
echo "exit $?"
test -e renamed.camelog || echo "not written"
echo "== with the dealer's key, every seal is signed again"
camelog pack --key dealer.key renamed.txt -o renamed.camelog
echo "exit $?"
camelog verify --pubkey dealer.pub renamed.camelog
camelog replay --to 13 renamed.camelog
echo "== a key that is not the dealer's"
camelog pack --key other.key renamed.txt -o other.camelog
echo "exit $?"
echo "== a move against the rules cannot be sealed into a valid log"
sed 's/^vote p1 no$/vote p1 yes/' game.txt >cheat.txt
camelog pack --key dealer.key cheat.txt -o cheat.camelog
echo "exit $?"
echo "== not a log, an existing output, a missing input"
printf 'hello\n' >hello.txt
camelog pack hello.txt -o hello.camelog
echo "exit $?"
camelog pack game.txt -o packed.camelog
echo "exit $?"
camelog pack --force game.txt -o packed.camelog
echo "exit $?"
camelog pack missing.txt -o missing.camelog
echo "exit $?"
camelog pack --key missing.key game.txt -o x.camelog
echo "exit $?"
