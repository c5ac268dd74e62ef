# Every sample verifies with the demo dealer key, ends as MANIFEST.tsv
# says, replays to that end, and exports exactly its committed JSON.
cd "$SAMPLES"
awk -F'\t' 'NR > 1 { print $1 "|" $3 "|" $4 "|" $5 }' MANIFEST.tsv |
while IFS='|' read -r file winner reason progress; do
    json=$(camelog verify --json --pubkey dealer.pub "$file" 2>/dev/null)
    case $json in
    *'"valid":true'*'"progress":"'"$progress"'"'*) ;;
    *) echo "$file: does not verify as $progress"; continue ;;
    esac
    if [ -n "$reason" ]; then
        case $json in
        *'"winner":"'"$winner"'"'*) ;;
        *) echo "$file: the winner is not $winner"; continue ;;
        esac
        case $json in
        *'"reason":"'"$reason"'"'*) ;;
        *) echo "$file: the reason is not $reason"; continue ;;
        esac
        camelog replay "$file" | grep -Eq "^ *[0-9]+  $winner wins?[ :(]" ||
            echo "$file: the replay does not tell that $winner wins"
    fi
    camelog export --json "$file" | cmp -s - "${file%.camelog}.jsonl" ||
        echo "$file: export differs from ${file%.camelog}.jsonl"
    echo "$file: ok"
done

# Each soc-QUEST-won|lost sample ends that quest so.
for file in soc-*-won.camelog soc-*-lost.camelog; do
    name=${file#soc-}
    name=${name%.camelog}
    result=${name##*-}
    quest=${name%-*}
    camelog cat "$file" | grep -q "^quest ${quest//-/_} $result " ||
        echo "$file: no line quest ${quest//-/_} $result"
done
