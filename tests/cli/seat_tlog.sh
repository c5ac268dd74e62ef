# seat logged: a seat finds its game's start in the host's public log
# before it gives entropy, and its end after, each by an inclusion proof
# from the served tiles against the signed checkpoint; it keeps every
# checkpoint it saw and checks each new one extends the last.  A log
# that forks (the same size with another root, or a larger tree whose
# first entries differ) is shown as the two signed checkpoints, exit 1;
# so are a game missing from the log, tiles that do not lead to the
# checkpoint's root, and a checkpoint signed by another key.  seat entropy
# with --tlog pledges entropy only for a start the log holds.
camelog keygen --seed 5555555555555555555555555555555555555555555555555555555555555555 -o dealer >/dev/null
camelog keygen --seed 6666666666666666666666666666666666666666666666666666666666666666 -o other >/dev/null
camelog tlog init --origin example.org/games log
serve2() { rm -rf "$2"; cp -r "$1" "$2"; rm "$2/camelog-tlog"; }
serve() { serve2 log "$1"; }
new='{"op":"new","game":"avalon","seats":["Alice","Bob","Carol","Dave","Erin"],"dealer":"dealer.key","journal":"JOURNAL","game_id":"ID","secret":"5ec2e75ec2e75ec2e75ec2e75ec2e75ec2e75ec2e75ec2e75ec2e75ec2e75ec2"}'
echo "${new/JOURNAL/a.journal}" | sed 's/ID/000000000000000000000000000000a1/' |
    camelog host --tlog log >/dev/null
serve served
echo "--- the start, before the entropy"
camelog seat logged --pubkey dealer.pub --tlog served --seen seen a.journal
echo "exit $?"
ls seen
{ echo '{"op":"resume","journal":"a.journal","dealer":"dealer.key"}'
  echo '{"op":"start"}'; echo '{"op":"abort"}'
  echo '{"op":"write","path":"a.camelog"}'; } | camelog host --tlog log >/dev/null
echo "${new/JOURNAL/b.journal}" | sed 's/ID/000000000000000000000000000000b1/' |
    camelog host --tlog log >/dev/null
serve served
echo "--- the end, after"
camelog seat logged --end --pubkey dealer.pub --tlog served --seen seen a.camelog
echo "exit $?"
camelog seat logged --json --end --pubkey dealer.pub --tlog served --seen seen a.camelog
echo "exit $?"
ls seen
echo "--- a game the log does not hold"
camelog simulate --game avalon --players 5 --seed 01 --key dealer.key -o c.camelog >/dev/null
camelog seat logged --end --pubkey dealer.pub --tlog served --seen seen c.camelog
echo "exit $?"
echo "--- a tile changed"
cp -r served bad
printf '\001' | dd of=bad/tile/0/000.p/3 bs=1 seek=40 conv=notrunc 2>/dev/null
camelog seat logged --pubkey dealer.pub --tlog bad --seen seen a.camelog
echo "exit $?"
echo "--- a checkpoint of another key"
cp -r log o2
camelog tlog checkpoint --key other.key o2 >/dev/null
serve2 o2 otherkey
camelog seat logged --pubkey dealer.pub --tlog otherkey --seen seen a.camelog
echo "exit $?"
echo "--- a fork of the same size: another history signed by the host"
camelog tlog init --origin example.org/games fork
camelog tlog add --start fork a.camelog >/dev/null
camelog tlog add --end fork c.camelog >/dev/null
camelog tlog add --end fork a.camelog >/dev/null
camelog tlog checkpoint --key dealer.key fork >/dev/null
serve2 fork forked
camelog seat logged --end --pubkey dealer.pub --tlog forked --seen seen a.camelog
echo "exit $?"
echo "--- a larger fork: its first entries are not the ones seen"
camelog tlog add --end fork c.camelog >/dev/null
camelog tlog checkpoint --key dealer.key fork >/dev/null
serve2 fork forked
camelog seat logged --end --pubkey dealer.pub --tlog forked --seen seen a.camelog
echo "exit $?"
ls seen
echo "--- the honest log goes on"
camelog seat logged --pubkey dealer.pub --tlog served --seen seen b.journal
echo "exit $?"
echo "--- a pledge only for a start in the log"
camelog keygen --seed 0101010101010101010101010101010101010101010101010101010101010101 -o p1 >/dev/null
key=$(sed -n 2p p1.pub)
keyed='{"op":"new","game":"avalon","seats":[{"name":"Alice","key":"'$key'"},"Bob","Carol","Dave","Erin"],"dealer":"dealer.key","journal":"JOURNAL","game_id":"ID"}'
echo "${keyed/JOURNAL/k.journal}" | sed 's/ID/000000000000000000000000000000c1/' |
    camelog host --tlog log >/dev/null
echo "${keyed/JOURNAL/u.journal}" | sed 's/ID/000000000000000000000000000000c2/' |
    camelog host >/dev/null
serve served
camelog seat commit --key p1.key --state state --pubkey dealer.pub --tlog served --seen seen k.journal |
    sed 's/ [^ ]*$//'
echo "exit ${PIPESTATUS[0]}"
camelog seat commit --key p1.key --state state --pubkey dealer.pub --tlog served --seen seen u.journal
echo "exit $?"
camelog seat commit --key p1.key --state state --pubkey dealer.pub --tlog served u.journal
echo "exit $?"
ls seen
