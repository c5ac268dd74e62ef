# archive add knows an earlier log that a new one extends by where it
# ends and its seal, without inflating it: with the stored text of the
# earlier log damaged, the later log still replaces it; a fork still
# reads the stored text (and so names the damage).
camelog keygen --seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f -o dealer >/dev/null
camelog simulate --game avalon --players 8 --seed 51 \
    --roles merlin,percival,servant,servant,servant,assassin,morgana,minion \
    --key dealer.key -o complete.camelog >/dev/null
zcat complete.camelog | sed '/^reveal /,$d' | gzip -n >finished.camelog
damage() {
    python3 - <<'PY'
import sqlite3
db = sqlite3.connect("games.db")
db.execute("UPDATE log SET gz = x'00'")
db.commit()
PY
}
echo "== the later log replaces a damaged earlier one"
camelog archive add -q games.db finished.camelog 2>/dev/null
damage
camelog archive add games.db complete.camelog 2>/dev/null
echo "exit $?"
camelog archive export games.db -f -o out >/dev/null
cmp complete.camelog out/*.camelog && echo "the complete log is stored"
echo "== an earlier log after a damaged later one reads its text"
rm -f games.db
camelog archive add -q games.db complete.camelog 2>/dev/null
damage
camelog archive add games.db finished.camelog 2>&1 | sed 's/[0-9a-f]\{32\}/ID/'
echo "exit ${PIPESTATUS[0]}"
