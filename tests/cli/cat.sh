# cat: the canonical text, without verifying; gzip and limit faults are
# refused.
camelog keygen --seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f -o dealer >/dev/null
camelog simulate --game avalon --players 5 --seed 05 \
    --key dealer.key -o game.camelog >/dev/null
camelog cat game.camelog | cmp - <(zcat game.camelog) && echo "cat = zcat"
camelog cat game.camelog | sed -n '1,4p;11,12p'
camelog cat - <game.camelog | wc -l
# A text that breaks the rules is printed all the same.
zcat game.camelog | sed 's/^vote p1 no$/vote p1 maybe/' | gzip -n >bad.camelog
camelog cat bad.camelog | grep -n maybe
echo "exit $?"
camelog verify bad.camelog
echo "exit $?"
echo "== not gzip, missing; the worst status"
echo hello >text.camelog
camelog cat text.camelog
echo "exit $?"
camelog cat missing.camelog game.camelog text.camelog | wc -l
echo "exit ${PIPESTATUS[0]}"
