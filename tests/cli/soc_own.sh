# soc_own: with own=on (the default of new games) each decision of the
# table is a line of the knight who makes it (S-41): one line of a
# recorded game rewritten for another knight, the file sealed again by
# the dealer, is refused at that very line.  The Merlins offered, an
# answer to Morgan or Convocation, the turn's knight's last word (cancel,
# pass, the volunteer), and Convocation naming knights who did not
# answer.
camelog keygen --seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f -o dealer >/dev/null
camelog simulate --game soc --players 5 --count 6 --seed 5e \
    --key dealer.key -o games >/dev/null
camelog cat games/game-000001.camelog >one.txt
camelog cat games/game-000004.camelog >four.txt
sed -n 's/^rules //p' one.txt
camelog verify -q --pubkey dealer.pub games/game-000001.camelog \
    games/game-000004.camelog
echo "as recorded: exit $?"

# The seat after pK at five seats.
next() { echo $(($1 % 5 + 1)); }

# edit NAME FILE N NEW: line N of FILE becomes NEW; the dealer seals the
# file again; verify must refuse it at line N (its message goes to the
# standard error).
edit() {
    local name=$1 file=$2 n=$3 new=$4 json line
    awk -v n="$n" -v new="$new" 'NR == n { print new; next } { print }' \
        "$file" >"$name.txt"
    camelog pack --unchecked --force --key dealer.key "$name.txt" \
        -o "$name.camelog" 2>/dev/null
    json=$(camelog verify --json --pubkey dealer.pub "$name.camelog")
    echo "exit $?"
    line=$(printf '%s\n' "$json" | sed -n 's/.*"line":\([0-9]*\).*/\1/p')
    echo "$name: line $n \"$(sed -n "${n}p" "$file")\" -> \"$new\":" \
        "refused at line $line$([ "$line" = "$n" ] && echo ", the edited one")"
}

# first FILE REGEX: the number of the first line matching REGEX.
first() { grep -n -m1 -E "$2" "$1" | cut -d: -f1; }

# A knight's Merlins offered by the next knight, before his turn.
n=$(first one.txt '^merlins p[0-9] [1-3]$')
set -- $(sed -n "${n}p" one.txt)
edit merlins one.txt "$n" "merlins p$(next "${2#p}") $3"

# An answer to Morgan given by another knight.
n=$(first one.txt '^offer p[0-9] yes$')
set -- $(sed -n "${n}p" one.txt)
edit offer one.txt "$n" "offer p$(next "${2#p}") yes"

# The last word on three Merlins, said by a knight whose turn it is not:
# the Merlins accepted, then refused.
n=$(first one.txt '^cancel p[0-9] merlin ')
set -- $(sed -n "${n}p" one.txt)
edit cancel one.txt "$n" "cancel p$(next "${2#p}") $3 $4"
n=$(awk '/^merlins / { m = 1; next } m && /^pass p/ { print NR; exit }
         { m = 0 }' one.txt)
set -- $(sed -n "${n}p" one.txt)
edit pass one.txt "$n" "pass p$(next "${2#p}")"

# The volunteer named by another knight than the turn's.
n=$(first one.txt '^volunteer p')
set -- $(sed -n "${n}p" one.txt)
edit volunteer one.txt "$n" "volunteer p$(next "${2#p}") $3"

# Convocation naming the knight it brings back: own=on names nobody,
# each knight away answers for himself (the line's error says so).
n=$(first one.txt '^special p[0-9] convocation$')
set -- $(sed -n "${n}p" one.txt)
edit convocation one.txt "$n" "$1 $2 $3 p$(next "${2#p}")"

# A game of the notation before the key (own=off, one seat writes the
# table's decision) still verifies as recorded.
camelog simulate --game soc --players 5 --seed 5e \
    --rules "players=5 traitor=on brave=off" --key dealer.key \
    -o old.camelog >/dev/null
camelog cat old.camelog | sed -n 's/^rules //p'
camelog verify -q --pubkey dealer.pub old.camelog
echo "own=off: exit $?"
