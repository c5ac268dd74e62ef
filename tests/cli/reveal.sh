# reveal: who was who, only from a complete log.
camelog keygen --seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f -o dealer >/dev/null
camelog simulate --game avalon --players 7 --lady --seed 01 \
    --key dealer.key -o game.camelog >/dev/null
camelog reveal game.camelog
echo "exit $?"
camelog reveal --json game.camelog
echo "exit $?"
echo "== finished but not revealed, in progress, invalid, missing"
camelog cat game.camelog | sed '/^reveal /,$d' | gzip -n >finished.camelog
camelog cat game.camelog | head -n 30 | gzip -n >progress.camelog
# The first opened card told the other way: its commitment refuses it.
zcat game.camelog |
    sed '0,/^open card /{s/^\(open card .*\) success$/\1 fail/;t;s/^\(open card .*\) fail$/\1 success/}' |
    gzip -n >lie.camelog
camelog reveal finished.camelog progress.camelog lie.camelog missing.camelog
echo "exit $?"
echo "== two files"
camelog reveal game.camelog game.camelog | grep -c '^Alice (p1)'
echo "== nothing to reveal yet"
camelog reveal finished.camelog
