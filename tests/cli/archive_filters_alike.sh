# archive_filters_alike: query, stats, audit, export and report take the
# filters alike (one parser, one check before the archive is opened):
# a filter one of them takes, each takes and selects the same games with;
# a filter one refuses, each refuses with the same message.  report once
# refused a role or a variant of one game unless --game named it, since
# it asked every game's statistics with the filter.
camelog keygen --seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f -o importer >/dev/null
camelog import --from avalongame -q --seed 01 --key importer.key -o imported \
    "$TESTDATA"/import/house-*.json "$TESTDATA"/import/good-5.json
camelog archive add -q games.db "$SAMPLES"/avalon-5.camelog "$SAMPLES"/avalon-7.camelog \
    "$SAMPLES"/soc-3.camelog
camelog archive add -q --pubkey importer.pub games.db imported/*.camelog
subs="query stats audit export report"
run() { # $1: the subcommand; the filters follow
    sub=$1
    shift
    case $sub in
    export) rm -rf out && camelog archive export games.db "$@" -o out >/dev/null ;;
    report) rm -f r.html && camelog archive report games.db "$@" -o r.html ;;
    *) camelog archive "$sub" games.db "$@" >"$sub.txt" ;;
    esac
}
# The games a taken filter selected, by each subcommand that lists them.
selected() {
    q=$(camelog archive query games.db "$@" | wc -l)
    e=$(ls out | wc -l)
    s=$(camelog archive stats --json games.db "$@" | python3 -c 'import json,sys; print(json.load(sys.stdin)["games"])')
    echo "  games: query $q, export $e, stats $s"
}
try() {
    line="$*:"
    msgs=
    for sub in $subs; do
        run "$sub" "$@" 2>err.txt
        line="$line $sub=$?"
        msgs="$msgs$(head -n 1 err.txt)
"
    done
    echo "$line"
    if [ -n "$(printf '%s' "$msgs" | tr -d '\n')" ]; then
        printf '%s' "$msgs" | sort -u | sed 's/^/  /'
    else
        selected "$@"
        [ -s r.html ] && echo "  report written"
    fi
}
echo "== taken by each"
try --role merlin
try --role arthur
try --side evil
try --side traitor
try --variant assassin-morgana
try --variant assassin-names-evil --role assassin
try --official
try --game avalon --role merlin
try --game soc --side traitor
try --players 5 --winner good
try --since 2000-01-01 --until 2100-01-01
echo "== refused by each, with one message"
try --role merlim
try --game soc --role merlin
try --game soc --variant assassin-morgana
try --variant assassin-names-good
try --official --variant percival-alone
try --since 2020
try --id XYZ
try --game chess
