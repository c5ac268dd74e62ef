# import: imported games go through the rest of camelog: archive add,
# stats (win rates and end reasons of the site's games), export byte
# for byte, verify; replay, step and reveal one of them.
ln -s "$TESTDATA/avalongame" corpus
camelog keygen --seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f -o importer >/dev/null
camelog import --from avalongame -q --seed 01 --key importer.key -o games \
    corpus/*.json >/dev/null 2>&1
echo "import exit $?"
echo "== archive add, stats"
camelog archive add -q --pubkey importer.pub games.db games/*.camelog
echo "exit $?"
camelog archive sql games.db "SELECT count(*) AS games, sum(imported) AS
    imported, sum(progress = 'complete') AS complete FROM game"
camelog archive stats games.db | sed -e '/^by role set/,$d'
echo "exit ${PIPESTATUS[0]}"
echo "== export: the same bytes, and they verify"
camelog archive export games.db -o out
echo "exit $?"
for f in games/*.camelog; do
    id=$(camelog cat "$f" | sed -n 's/^id //p')
    cmp "$f" "out/$id.camelog" || echo "$f differs"
done
camelog verify -q --pubkey importer.pub out/*.camelog
echo "exit $?"
game=games/2020-04-04T03-15-18.034Z_GBN.camelog
echo "== replay"
camelog replay "$game" |
    sed -n -e '1,2p' -e '/quest 4/p' -e '/the assassin, names/p' -e '/ wins: /p'
echo "exit ${PIPESTATUS[0]}"
echo "== step"
printf 'j 35\nv p3\nq\n' | camelog step "$game"
echo "exit $?"
echo "== reveal"
camelog reveal "$game"
echo "exit $?"
