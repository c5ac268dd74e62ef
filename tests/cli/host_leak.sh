# host: refusals leak nothing.  Two games that differ only in the dealer
# secret (seeds found so that the first leader and the first team's
# loyalty are the same, while Merlin and the Assassin are other seats)
# get the same requests; every refusal and every public state is the same
# bytes in both, and the refusals that depend on a secret (a loyal seat's
# Fail) are the generic not-allowed.  The dealer's detail goes to stderr.
# Broken JSON too: the requests 27 to 34 differ between the games in
# their secret part (a card, a vote, an assassin's and a Lady's target),
# and each is refused with the same fixed text, never the parser's, which
# would quote the action.
camelog keygen --seed 3333333333333333333333333333333333333333333333333333333333333333 -o dealer >/dev/null
game() {
    card=$3 vote=$4 target=$5
    {
        echo "{\"id\":1,\"op\":\"new\",\"game\":\"avalon\",\"seats\":[\"A\",\"B\",\"C\",\"D\",\"E\"],\"dealer\":\"dealer.key\",\"game_id\":\"00000000000000000000000000000001\",\"secret\":\"$1\"}"
        echo '{"id":2,"op":"start"}'
        echo '{"id":3,"op":"state","viewer":"public"}'
        echo '{"id":4,"op":"act","seat":"p2","action":"propose p2 p1,p2"}'
        echo '{"id":5,"op":"act","seat":"p1","action":"propose p1 p1,p2,p3"}'
        echo '{"id":6,"op":"act","seat":"p1","action":"assassinate p1 p2"}'
        echo '{"id":7,"op":"act","seat":"p1","action":"propose p1 p1,p2"}'
        echo '{"id":8,"op":"act","seat":"p3","action":"vote p4 yes"}'
        echo '{"id":9,"op":"act","seat":"p1","action":"vote p1 yes"}'
        echo '{"id":10,"op":"act","seat":"p1","action":"vote p1 no"}'
        echo '{"id":11,"op":"state","viewer":"public"}'
        for k in 2 3 4 5; do
            echo "{\"id\":1$k,\"op\":\"act\",\"seat\":\"p$k\",\"action\":\"vote p$k yes\"}"
        done
        echo '{"id":16,"op":"act","seat":"p3","action":"card p3 success"}'
        echo '{"id":17,"op":"act","seat":"p1","action":"card p1 fail"}'
        echo '{"id":18,"op":"act","seat":"p2","action":"card p2 fail"}'
        echo '{"id":19,"op":"act","seat":"p1","action":"card p1 maybe"}'
        echo '{"id":20,"op":"act","seat":"p1","action":"card p1 success"}'
        echo '{"id":21,"op":"act","seat":"p1","action":"card p1 success"}'
        echo '{"id":22,"op":"state","viewer":"public"}'
        echo '{"id":23,"op":"act","seat":"p2","action":"card p2 success"}'
        echo '{"id":24,"op":"state","viewer":"public"}'
        echo '{"id":25,"op":"act","seat":"p2","action":"lady p2 p3"}'
        echo "{\"id\":27,\"op\":\"act\",\"seat\":\"p3\",\"action\":\"card p3 $card\\u0000\"}"
        echo "{\"id\":28,\"op\":\"act\",\"seat\":\"p1\",\"action\":\"vote p1 $vote\\q\"}"
        echo "{\"id\":29,\"op\":\"act\",\"seat\":\"p1\",\"action\" \"assassinate p1 $target\"}"
        echo "{\"id\":30,\"op\":\"act\",\"seat\":\"p2\",\"action\":\"lady p2 $target\"]}"
        echo "{\"id\":31,\"op\":\"act\",\"seat\":\"p1\",\"action\":\"vote p1 $vote\",}"
        echo "{\"id\":32,\"op\":\"act\",\"seat\":\"p3\",\"action\":\"card p3 $card\" \"sig\":1}"
        echo "{\"op\":\"act\",\"seat\":\"p1\",\"action\":\"assassinate p1 $target\",\"$target\":1}"
        echo "{\"op\":\"act\",\"seat\":\"$target\",\"action\":\"vote p1 $vote\"}"
        echo '{"id":26,"op":"abort"}'
    } | camelog host 2>"$2.err" | python3 -c '
import json, sys
for line in sys.stdin:
    r = json.loads(line)
    if "hello" in r or (r["ok"] and "state" not in r):
        continue
    if r["ok"]:
        st = r["state"]
        st.pop("lines", None)
        print(r["id"], "public state", json.dumps(st, separators=(",", ":")))
    else:
        print(r["id"], "refused", r["code"] + ":", r["reason"])
' >"$2.out"
}
game 000000000000000000000000000000000000000000000000000000000000000d a fail no p2
game 0000000000000000000000000000000000000000000000000000000000000022 b success yes p4
cmp a.out b.out && echo "refusals and public states: byte-identical in both games"
cut -c1-160 a.out
cmp -s a.err b.err || echo "the dealer's detail (stderr) differs, as it may"
# And in so many words: no refusal quotes a submitted action or its
# secret part, in either game (the actions of requests 16 to 34).
for f in a.out b.out; do
    n=$(grep ' refused ' "$f" | grep -c -E 'card p[0-9] (success|fail|maybe)|vote p[0-9] (yes|no)|assassinate p[0-9] p|lady p[0-9] p|\\u0000|\\q')
    echo "$f: $n refusals quote an action"
done
