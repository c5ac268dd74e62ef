# host --tlog: the host appends each game's start and end to its public
# log, exactly once whatever the crash.  A 5-seat game (p1 keyed) is
# played once per request N, the host killed with SIGKILL after its
# response to request N and resumed: each run's log holds the game's
# start and end once (host_game.py crash-all checks `tlog games`).  The
# states a kill inside an append leaves (the side file written but not
# the entry; the entry but not its checkpoint) are made by hand and
# resumed.  The responses are those of a host without a log.  An abort
# is an end abandoned by the dealer, a game never
# ended is listed as such, a log signed by another key is refused, a
# second writer waits for the first, and eight hosts appending to one log
# at once each get their two entries in.
camelog keygen --seed 5555555555555555555555555555555555555555555555555555555555555555 -o dealer >/dev/null
camelog keygen --seed 6666666666666666666666666666666666666666666666666666666666666666 -o other >/dev/null
mkdir keys
camelog keygen --seed "$(printf "a1%.0s" $(seq 32))" -o keys/p1 >/dev/null
camelog tlog init --origin example.org/games tl
CAMELOG_BIN=camelog python3 "$SRCDIR/tests/cli/host_game.py" crash-all game.camelog \
    --keys p1 --tlog tl --no-fsync
echo "exit $?"
camelog tlog games tl
camelog tlog verify --pubkey dealer.pub tl
# What the server and its seats are shown is the same with or without
# the log: the responses, byte for byte.
camelog tlog init --origin example.org/games same
CAMELOG_BIN=camelog python3 "$SRCDIR/tests/cli/host_game.py" play g.camelog \
    --keys p1 --transcript plain.txt --no-fsync >/dev/null
mv g.camelog plain.camelog
CAMELOG_BIN=camelog python3 "$SRCDIR/tests/cli/host_game.py" play g.camelog \
    --keys p1 --transcript logged.txt --no-fsync --tlog same >/dev/null
cmp plain.txt logged.txt && cmp plain.camelog g.camelog &&
    echo "responses and file identical with and without --tlog"
camelog tlog games same | tail -n 1

new() { # journal [game_id]
    printf '{"op":"new","game":"avalon","seats":["Alice","Bob","Carol","Dave","Erin"],"dealer":"%s","journal":"%s","game_id":"%s"}\n' \
        "${3:-dealer.key}" "$1" "$2"
}
ok() { sed -n 's/.*"ok":\([a-z]*\).*"code":"\([a-z-]*\)".*/\1 \2/p; s/.*"ok":true.*/true/p'; }

echo "--- killed after the side file, before the append"
camelog tlog init --origin example.org/games a
new a.journal 000000000000000000000000000000a1 | camelog host | tail -n +2 | ok
printf 'start 0\n' >a.journal.tlog
printf '{"op":"resume","journal":"a.journal","dealer":"dealer.key"}\n' |
    camelog host --tlog a | tail -n +2 | ok
camelog tlog games a | tail -n 1
echo "--- killed after the append, before its checkpoint"
camelog tlog init --origin example.org/games b
new b.journal 000000000000000000000000000000b1 | camelog host --tlog b | tail -n +2 | ok
rm b/checkpoint
printf '{"op":"resume","journal":"b.journal","dealer":"dealer.key"}\n' |
    camelog host --tlog b | tail -n +2 | ok
camelog tlog games b | tail -n 1
camelog tlog verify --pubkey dealer.pub b
echo "--- killed before the side file: the resume appends the start"
camelog tlog init --origin example.org/games c
new c.journal 000000000000000000000000000000c1 | camelog host | tail -n +2 | ok
printf '{"op":"resume","journal":"c.journal","dealer":"dealer.key"}\n' |
    camelog host --tlog c | tail -n +2 | ok
camelog tlog games c | tail -n 1

echo "--- an abort, and a game never ended"
{ new d1.journal 000000000000000000000000000000d1; echo '{"op":"start"}';
  echo '{"op":"abort"}'; echo '{"op":"write","path":"d1.camelog"}'; } |
    camelog host --tlog tl | tail -n +2 | ok
new d2.journal 000000000000000000000000000000d2 | camelog host --tlog tl | tail -n +2 | ok
camelog tlog games tl | cut -c 1-90
camelog tlog verify --pubkey dealer.pub tl

echo "--- a log whose checkpoint another key signed"
new e.journal 000000000000000000000000000000e1 other.key | camelog host --tlog tl | tail -n +2 | ok
test -e e.journal && echo "e.journal made"
echo "--- a second writer"
flock tl sleep 1 &
sleep 0.2
printf 'entry\n' >entry
camelog tlog add tl entry
echo "exit $?"
new f.journal 000000000000000000000000000000f1 | camelog host --tlog tl | tail -n +2 | ok
wait
camelog tlog games tl | tail -n 1
echo "--- eight hosts at once, one log"
for k in 1 2 3 4 5 6 7 8; do
    { new g$k.journal 0000000000000000000000000000009$k; echo '{"op":"start"}';
      echo '{"op":"abort"}'; echo '{"op":"write","path":"g'$k'.camelog"}'; } |
        camelog host --tlog tl >g$k.out &
done
wait
cat g?.out | grep -c '"ok":true'
camelog tlog games tl | grep -c ' end 0000000000000000000000000000009[1-8] abandoned by dealer'
camelog tlog games tl | tail -n 1
camelog tlog verify --pubkey dealer.pub tl
