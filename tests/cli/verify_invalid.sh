# verify: a game in progress is valid, but with --pubkey only when its last
# line is a seal; --require asks for a finished or complete game, or a
# revealed one once it is finished; a
# tampered, truncated or foreign file is invalid (exit 1) and named with
# its line; an unreadable one is an environment error (exit 2); many
# files give the worst status.
camelog keygen --seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f -o dealer >/dev/null
camelog keygen --seed 1f1e1d1c1b1a191817161514131211100f0e0d0c0b0a09080706050403020100 -o other >/dev/null
camelog simulate --game avalon --players 7 --lady --seed 01 \
    --key dealer.key -o game.camelog >/dev/null

echo "== in progress: the first 40 lines"
camelog cat game.camelog | head -n 40 | gzip -n >progress.camelog
camelog verify --pubkey dealer.pub progress.camelog
echo "exit $?"
camelog verify --json --pubkey dealer.pub progress.camelog
echo "== in progress, unpinned: valid, with W-tail"
camelog verify progress.camelog
echo "exit $?"
echo "== pinned, lines after the last seal: invalid, the lines named"
camelog cat game.camelog | sed -n '1,/^reveal /p' | gzip -n >tail.camelog
camelog verify --pubkey dealer.pub tail.camelog
echo "exit $?"
camelog verify --json --pubkey dealer.pub tail.camelog
echo "== finished, not revealed: up to the seal after end"
camelog cat game.camelog | sed '/^reveal /,$d' | gzip -n >finished.camelog
camelog verify --pubkey dealer.pub finished.camelog
echo "exit $?"
echo "== --require: finished and complete"
camelog verify --require finished finished.camelog
echo "exit $?"
camelog verify --require complete finished.camelog
echo "exit $?"
camelog verify --json --require complete finished.camelog
camelog verify --require finished progress.camelog
echo "exit $?"
camelog verify -q --require complete game.camelog
echo "exit $?"
camelog verify --require started game.camelog
echo "exit $?"
echo "== --require reveal: a finished game never revealed fails; a game"
echo "== in progress (not due yet) and a complete one pass; a comma list"
camelog verify -q --require reveal finished.camelog
echo "exit $?"
camelog verify -q --json --require reveal finished.camelog
camelog verify -q --require reveal progress.camelog game.camelog
echo "exit $?"
camelog verify -q --require finished,reveal progress.camelog
echo "exit $?"
camelog verify -q --require complete,reveal game.camelog
echo "exit $?"
camelog verify -q --require reveal,nonesuch game.camelog
echo "exit $?"

echo "== one vote changed in the text, gzipped again"
zcat game.camelog | sed 's/^vote p2 no$/vote p2 yes/' | gzip -n >tampered.camelog
camelog verify --pubkey dealer.pub tampered.camelog
echo "exit $?"
echo "== one commitment changed"
zcat game.camelog |
    awk '/^deal p3 / { c = substr($3, 1, 1); $3 = (c == "0" ? "1" : "0") substr($3, 2) } { print }' |
    gzip -n >deal.camelog
camelog verify --pubkey dealer.pub deal.camelog
echo "exit $?"
echo "== one byte of the compressed file flipped (in the gzip CRC)"
cp game.camelog flipped.camelog
at=$(($(stat -c %s game.camelog) - 8))
byte=$(od -An -tu1 -j "$at" -N1 game.camelog)
printf "\\$(printf %03o $(((byte + 1) % 256)))" |
    dd of=flipped.camelog bs=1 seek="$at" conv=notrunc 2>/dev/null
cmp -s game.camelog flipped.camelog || echo "one byte differs"
camelog verify --pubkey dealer.pub flipped.camelog
echo "exit $?"
echo "== cut short inside the gzip stream"
head -c 300 game.camelog >truncated.camelog
camelog verify --pubkey dealer.pub truncated.camelog
echo "exit $?"
echo "== not gzip at all"
echo "camelog 1" >text.camelog
camelog verify --json text.camelog
echo "exit $?"

echo "== sealed by another dealer"
camelog verify --pubkey other.pub game.camelog
echo "exit $?"
camelog verify --json --pubkey other.pub game.camelog
echo "== re-sealed by another dealer, who also rewrote the dealer line"
camelog cat game.camelog |
    sed "s|^dealer .*|dealer $(sed -n 2p other.pub)|" >resealed.txt
camelog pack --key other.key resealed.txt -o resealed.camelog
echo "exit $?"
camelog verify resealed.camelog
echo "exit $?"
camelog verify --pubkey dealer.pub resealed.camelog
echo "exit $?"

echo "== unreadable"
camelog verify missing.camelog
echo "exit $?"
mkdir dir.camelog
camelog verify dir.camelog
echo "exit $?"
echo "== many files: carry on, worst status"
camelog verify --pubkey dealer.pub game.camelog tampered.camelog progress.camelog
echo "exit $?"
camelog verify --pubkey dealer.pub tampered.camelog missing.camelog game.camelog
