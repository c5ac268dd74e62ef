# tlog: a host's public log of games: start and end entries (finished,
# revealed, abandoned and by whom), the list of games, a seat's check
# that its game's start and end are in the log, and the refusals.
camelog keygen --seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f -o host >/dev/null
for s in 05 06 07; do
    camelog simulate --game avalon --players 5 --seed $s \
        --key host.key -o g$s.camelog >/dev/null
done
# g05 ends sealed without its reveal; g07 is given up after 30 lines.
zcat g05.camelog | sed '/^reveal /,$d' | gzip -n >finished.camelog
zcat g07.camelog | head -n 30 | gzip -n >abandoned.camelog
camelog tlog init --origin games.example.org/log log
camelog tlog add --start log g05.camelog g06.camelog g07.camelog
camelog tlog add --end log finished.camelog g06.camelog
camelog tlog add --end --abandoned-by p2 log abandoned.camelog
camelog tlog checkpoint --key host.key log
camelog tlog games log | sed 's/dealer [A-Za-z0-9+/]*/dealer KEY/'
camelog tlog verify --pubkey host.pub log
echo "== entries carry only lines of the public log"
camelog tlog entry --start g06.camelog >start06
head -n 1 start06
tail -n +2 start06 | cmp - <(zcat g06.camelog | sed '/^commit /q') &&
    echo "start = the header through commit"
camelog tlog entry --end g06.camelog | sed 's/^\(head [0-9]*\) .*/\1 HEX/;s/^seal .*/seal SIG/'
camelog tlog entry --end --abandoned-by dealer abandoned.camelog |
    sed 's/^\(head [0-9]*\) .*/\1 HEX/'
echo "== a seat checks its game's start and end"
camelog tlog prove log 1 >p1
camelog tlog verify --pubkey host.pub --checkpoint log/checkpoint \
    --entry start06 p1
camelog tlog entry --end g06.camelog >end06
camelog tlog prove log 4 >p4
camelog tlog verify --pubkey host.pub --checkpoint log/checkpoint \
    --entry end06 p4
camelog tlog verify --pubkey host.pub --checkpoint log/checkpoint \
    --entry start06 p4
echo "exit $?"
echo "== refusals"
camelog tlog add --end log abandoned.camelog
echo "exit $?"
camelog tlog add --end --abandoned-by p6 log abandoned.camelog
echo "exit $?"
camelog tlog add --start --end log g05.camelog
echo "exit $?"
echo 'not a game' >text
camelog tlog add --start log text
echo "exit $?"
camelog tlog add log text >/dev/null
camelog tlog games log | tail -n 2
echo "exit ${PIPESTATUS[0]}"
camelog tlog init --origin games.example.org/log log
echo "exit $?"
camelog tlog init --origin 'a b' other
echo "exit $?"
camelog tlog prove log 99
echo "exit $?"
camelog tlog frobnicate log
echo "exit $?"
camelog tlog
echo "exit $?"
