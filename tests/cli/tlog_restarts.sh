# A host that restarts the deals it dislikes, caught by its public log.
# tests/cli/restarting_host.py drives `camelog host --tlog` through 20
# games and restarts every start where its friend, seat p1 ("Mallory"),
# is not evil: it aborts and writes it, or drops it unwritten.  Each game
# it writes is in the log (archive add --tlog takes them all); the
# abandonment report of archive audit --tlog names the host's rate, half
# of its starts, where an honest host driven the same way has none; and
# the deal audit of the finished games flags Mallory.  archive add
# --tlog refuses, naming it, a file whose start or end the log lacks.
camelog keygen --seed 5555555555555555555555555555555555555555555555555555555555555555 -o dealer >/dev/null
camelog keygen --seed 7777777777777777777777777777777777777777777777777777777777777777 -o honest >/dev/null
camelog tlog init --origin bad.example.org/log log
CAMELOG_BIN=camelog python3 "$SRCDIR/tests/cli/restarting_host.py" dealer.key log games 20 \
    --seed 7 | tail -n 1
camelog archive add games.db games/*.camelog --tlog log -q
echo "exit $?"
echo "--- the audit"
camelog archive audit games.db --tlog log
echo "exit $?"
camelog archive audit games.db --tlog log --json | tail -n 1 |
    python3 -c 'import json, sys; h = json.load(sys.stdin)["hosts"][0]; print(h["started"], h["abandoned_by_dealer"], h["never_ended"], h["host_rate"])'
echo "--- an honest host"
camelog tlog init --origin honest.example.org/log hlog
CAMELOG_BIN=camelog python3 "$SRCDIR/tests/cli/restarting_host.py" honest.key hlog hgames 5 \
    --honest --seed 7 | tail -n 1
camelog archive add honest.db hgames/*.camelog --tlog hlog -q
camelog archive audit honest.db --tlog hlog | sed -n '/^public log/,$p'
echo "--- a file the log does not hold, a log without a game's end, a log of another key"
camelog simulate --game avalon --players 5 --seed 01 --key dealer.key -o other.camelog >/dev/null
first=$(ls games/*.camelog | head -n 1)
camelog tlog init --origin bad.example.org/log partial
camelog tlog add --start partial "$first" >/dev/null
camelog tlog checkpoint --key dealer.key partial >/dev/null
camelog archive add refused.db other.camelog --tlog log -q
echo "exit $?"
camelog archive add refused.db "$first" --tlog partial -q 2>&1 | sed 's|games/[0-9a-f]*\.camelog|games/FIRST.camelog|'
cp -r partial otherkey
camelog tlog checkpoint --key honest.key otherkey >/dev/null
camelog archive add refused.db "$first" --tlog otherkey -q 2>&1 | sed 's|games/[0-9a-f]*\.camelog|games/FIRST.camelog|'
echo "--- a host that hides the games it aborted"
camelog archive add some.db $(for f in games/*.camelog; do camelog cat "$f" | grep -q '^reveal ' && echo "$f"; done) --tlog log -q
camelog archive audit some.db --tlog log | sed -n '/^ended games/,$p' | head -n 3
