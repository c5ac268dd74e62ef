# archive_escapes: an archive may come from anyone, so text read from it
# (names, reasons, values of archive sql) reaches the terminal with every
# control, format and invisible character escaped (\xHH, \u{XXXX}) and a
# backslash doubled; invalid UTF-8 shows as \xHH (as U+FFFD in stats and
# JSON), and no longer makes stats and report fail ("out of memory").
camelog keygen --seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f -o dealer >/dev/null
camelog simulate --game avalon --players 5 --seed 31 --key dealer.key \
    -o one.camelog >/dev/null
camelog archive add games.db one.camelog >/dev/null
python3 - <<'PY'
import sqlite3
db = sqlite3.connect("games.db")
db.text_factory = bytes
db.execute("update seat set name = cast(? as text) where seat = 1",
           (b"Al\x1b]0;pwned\x07\x1b[31mRED",))
db.execute("update seat set name = cast(? as text) where seat = 2",
           (b"Bo\xffb",))
db.execute("update seat set name = cast(? as text) where seat = 3",
           ("Dave\u200b\u202eevil\u2028".encode(),))
db.execute("update game set reason = cast(? as text)", (b"x\x1b[2J\\",))
db.commit()
PY
esc() { od -An -c | tr -s ' ' | grep -c '033' || true; }
echo "== query"
camelog archive query games.db | cut -d' ' -f4-
camelog archive query games.db | esc
echo "== sql"
camelog archive sql games.db "select seat, name from seat order by seat"
camelog archive sql games.db "select 'a' || char(9) || 'b' || char(10) || 'c'"
camelog archive sql games.db "select name from seat" | esc
echo "== stats and report"
camelog archive stats games.db | grep -E 'x\\x1B|Bo|Dave'
echo "exit $?"
camelog archive stats games.db | esc
camelog archive stats --json games.db | python3 -c '
import json, sys
names = sorted(r["name"] for r in json.load(sys.stdin)["avalon"]["records"])
print(ascii(names))'
camelog archive report -o report.html games.db
echo "exit $?"
