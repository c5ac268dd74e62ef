#!/usr/bin/env bash
# generate.sh - remakes every file of samples/ from fixed seeds with the
# built tool: the demo dealer key, the Avalon games, each game's export
# and MANIFEST.tsv.  Run from the top of the tree after `make`:
#     bash samples/generate.sh
# The same code gives the same files; a change of the engine or of the
# seeded players shows up as a diff of the samples (make check compares).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

camelog=$(realpath "${CAMELOG:-build/camelog}")
out=samples
created=2026-11-29T12:00:00Z
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The demo dealer key: derived from a published seed, so it is NOT secret.
"$camelog" keygen --force --seed \
    d3d3d3d3d3d3d3d3d3d3d3d3d3d3d3d3d3d3d3d3d3d3d3d3d3d3d3d3d3d3d3d3 \
    -o "$out/dealer" >/dev/null
chmod 600 "$out/dealer.key"
key=$out/dealer.key

printf 'file\trules\twinner\treason\tprogress\tshows\n' >"$tmp/manifest"

# sample NAME SHOWS SIMULATE-OPTIONS...: one game from its seed.
sample() {
    local name=$1 shows=$2
    shift 2
    "$camelog" simulate "$@" --created "$created" \
        --key "$key" --force -q -o "$out/$name.camelog" >/dev/null
    record "$name" "$shows"
}

# pick NAME SHOWS WANT SIMULATE-OPTIONS...: the first game of a seeded
# run of 60 that ends for WANT: a reason ("siege"), a winner and reason
# ("knights majority"), or "line REGEX" for a game with such a line.
pick() {
    local name=$1 shows=$2 want=$3 file f
    shift 3
    rm -rf "$tmp/run"
    "$camelog" simulate "$@" --count 60 --created "$created" \
        --key "$key" -q -o "$tmp/run" >/dev/null 2>&1
    file=
    case $want in
    "line "*)
        for f in "$tmp"/run/game-*.camelog; do
            if zcat "$f" | grep -q "${want#line }"; then
                file=$(basename "$f")
                break
            fi
        done
        ;;
    *" "*)
        file=$(awk -F'\t' -v w="${want% *}" -v r="${want#* }" \
            'NR > 1 && $3 == w && $4 == r { print $1; exit }' \
            "$tmp/run/MANIFEST.tsv")
        ;;
    *)
        file=$(awk -F'\t' -v r="$want" 'NR > 1 && $4 == r { print $1; exit }' \
            "$tmp/run/MANIFEST.tsv")
        ;;
    esac
    if [ -z "$file" ]; then
        echo "generate: no game shows $want for $name" >&2
        exit 1
    fi
    cp "$tmp/run/$file" "$out/$name.camelog"
    record "$name" "$shows"
}

# record NAME SHOWS: the manifest row and the export of a sample.
record() {
    local name=$1 shows=$2 f=$out/$1.camelog json
    json=$("$camelog" verify --json --pubkey "$out/dealer.pub" "$f")
    printf '%s.camelog\t%s\t%s\t%s\t%s\t%s\n' "$name" \
        "$(zcat "$f" | sed -n 's/^rules //p')" \
        "$(jq_field winner "$json")" "$(jq_field reason "$json")" \
        "$(jq_field progress "$json")" "$shows" >>"$tmp/manifest"
    (cd "$out" && "$camelog" export --json "$name.camelog") >"$out/$name.jsonl"
}

# The value of a string key of a one-line JSON object ("" for null).
jq_field() {
    printf '%s\n' "$2" |
        sed -n "s/.*\"$1\":\\(\"\\([^\"]*\\)\"\\|null\\).*/\\2/p"
}

sample avalon-5 "5 players, the basic game" \
    --game avalon --players 5 --seed 05
sample avalon-6 "6 players, Percival and Morgana, Targeting" \
    --game avalon --players 6 --roles merlin,percival,servant,servant,assassin,morgana \
    --targeting --seed 06
sample avalon-7 "7 players, Percival, Morgana, Mordred, Lady of the Lake" \
    --game avalon --players 7 \
    --roles merlin,percival,servant,servant,assassin,morgana,mordred \
    --lady --seed 07
sample avalon-8 "8 players, Oberon, Lady of the Lake" \
    --game avalon --players 8 \
    --roles merlin,percival,servant,servant,servant,assassin,morgana,oberon \
    --lady --seed 08
sample avalon-9 "9 players, Lady of the Lake and Targeting" \
    --game avalon --players 9 \
    --roles merlin,percival,servant,servant,servant,servant,assassin,morgana,mordred \
    --lady --targeting --seed 09
sample avalon-10 "10 players, every special role, Lady of the Lake" \
    --game avalon --players 10 \
    --roles merlin,percival,servant,servant,servant,servant,assassin,morgana,mordred,oberon \
    --lady --seed 10
sample avalon-signed "every seat adds entropy and signs its lines" \
    --game avalon --players 7 \
    --roles merlin,percival,servant,servant,assassin,morgana,mordred \
    --lady --entropy --sigs --seed 11

pick avalon-quests "good wins on quests (no Merlin)" quests \
    --game avalon --players 6 --roles servant,servant,servant,servant,minion,minion \
    --seed 20
pick avalon-failures "evil wins on three failed quests" failures \
    --game avalon --players 7 --lady --seed 21
pick avalon-rejections "evil wins on five rejected teams" rejections \
    --game avalon --players 5 --bot random --seed 22
pick avalon-assassination "the Assassin names Merlin" assassination \
    --game avalon --players 8 --lady --seed 23
pick avalon-missed "the Assassin misses Merlin" missed \
    --game avalon --players 5 --bot random --seed 24

sample soc-3 "Shadows over Camelot, 3 players, the Three Brave Knights variant" \
    --game soc --players 3 --seed 31
sample soc-4 "Shadows over Camelot, 4 players" --game soc --players 4 --seed 32
sample soc-5 "Shadows over Camelot, 5 players" --game soc --players 5 --seed 33
sample soc-6 "Shadows over Camelot, 6 players" --game soc --players 6 --seed 34
sample soc-7 "Shadows over Camelot, 7 players, seats sign their lines" \
    --game soc --players 7 --entropy --sigs --seed 35
sample soc-no-traitor "Shadows over Camelot, the first-game option: no traitor" \
    --game soc --players 5 --rules "players=5 traitor=off brave=off" --seed 36
pick soc-siege "evil wins with twelve siege engines" siege \
    --game soc --players 5 --seed 37
pick soc-black "evil wins with seven black swords" black \
    --game soc --players 4 --seed 38
pick soc-deaths "evil wins: every loyal knight is dead" deaths \
    --game soc --players 4 --bot random --seed 39
pick soc-knights "the knights win with a majority of white swords" \
    "knights majority" --game soc --players 7 --seed 40
pick soc-accused "the traitor is unmasked by an accusation" \
    "line ^shows p[0-9]* traitor" --game soc --players 5 --seed 41
pick soc-flip "the traitor is revealed at the end-of-game flip" \
    "line ^flip p" --game soc --players 7 --seed 42

# A game for each quest won and lost by the knights: the first game of
# a seeded run of 60 with that quest line (seeds found by search).
pick soc-black-knight-won "the knights win the Black Knight" \
    "line ^quest black_knight won" --game soc --players 5 --seed 44
pick soc-black-knight-lost "the knights lose the Black Knight" \
    "line ^quest black_knight lost" --game soc --players 5 --seed 48
pick soc-lancelot-won "the knights win Lancelot" \
    "line ^quest lancelot won" --game soc --players 5 --seed 52
pick soc-lancelot-lost "the knights lose Lancelot" \
    "line ^quest lancelot lost" --game soc --players 5 --seed 56
pick soc-dragon-won "the knights win the Dragon" \
    "line ^quest dragon won" --game soc --players 5 --seed 60
pick soc-dragon-lost "the knights lose the Dragon" \
    "line ^quest dragon lost" --game soc --players 5 --seed 64
pick soc-excalibur-won "the knights win Excalibur" \
    "line ^quest excalibur won" --game soc --players 5 --seed 68
pick soc-excalibur-lost "the knights lose Excalibur" \
    "line ^quest excalibur lost" --game soc --players 5 --seed 75
pick soc-grail-won "the knights win the Holy Grail" \
    "line ^quest grail won" --game soc --players 5 --seed 76
pick soc-grail-lost "the knights lose the Holy Grail" \
    "line ^quest grail lost" --game soc --players 5 --seed 80
pick soc-picts-won "the knights win the Picts" \
    "line ^quest picts won" --game soc --players 5 --seed 84
pick soc-picts-lost "the knights lose the Picts" \
    "line ^quest picts lost" --game soc --players 5 --seed 88
pick soc-saxons-won "the knights win the Saxons" \
    "line ^quest saxons won" --game soc --players 5 --seed 92
pick soc-saxons-lost "the knights lose the Saxons" \
    "line ^quest saxons lost" --game soc --players 5 --seed 96

# A game in progress: the first two quests of a game, sealed there.  A
# game of its own (seed 17), not a cut of avalon-7: two logs of one game
# that part where one stops are a fork, and an archive refuses the second
# (camelog-archive(1)).
"$camelog" simulate --game avalon --players 7 \
    --roles merlin,percival,servant,servant,assassin,morgana,mordred \
    --lady --seed 17 --created "$created" --key "$key" --force -q \
    -o "$tmp/progress.camelog" >/dev/null
"$camelog" cat "$tmp/progress.camelog" |
    awk '{ print } /^quest / && ++n == 2 { exit }' >"$tmp/progress.txt"
echo seal >>"$tmp/progress.txt"
"$camelog" pack --force --key "$key" "$tmp/progress.txt" \
    -o "$out/avalon-in-progress.camelog"
record avalon-in-progress "a game in progress: two quests played, sealed"

mv "$tmp/manifest" "$out/MANIFEST.tsv"
echo "generate: $(($(wc -l <"$out/MANIFEST.tsv") - 1)) samples in $out/"
