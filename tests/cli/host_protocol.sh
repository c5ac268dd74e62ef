# host: the protocol's refusals.  Too long, malformed JSON, not an
# object, unknown ops and fields, a bad version, ops before new, a
# second new, bad seats and signatures, ops after write: each is one
# refused response, the process survives and the game is intact (the
# file written at the end verifies against the pinned key).
# The same request sent again with its id is answered as the first was
# (the second "new" with id 3); another id gets game-exists.
camelog keygen --seed 2222222222222222222222222222222222222222222222222222222222222222 -o dealer >/dev/null
summ() {
    python3 -c '
import json, sys
for n, line in enumerate(sys.stdin):
    r = json.loads(line)
    if "hello" in r:
        print("hello", json.dumps(r, separators=(",", ":")))
    elif r["ok"]:
        print("%s ok lines=%d total=%d" % (r["id"] if r["id"] is not None else "-", len(r["lines"]), r["total"]))
    else:
        print("%s refused %s: %s" % (r["id"] if r["id"] is not None else "-", r["code"], r["reason"]))
'
}
long=$(head -c 70000 /dev/zero | tr '\0' x)
new='{"id":3,"op":"new","game":"avalon","seats":["Alice","Bob","Carol","Dave","Erin"],"dealer":"dealer.key","journal":"g.journal","game_id":"00000000000000000000000000000001","secret":"0000000000000000000000000000000000000000000000000000000000000001"}'
{
    echo '{"id":1,"op":"start"}'
    echo "{\"id\":\"x\",\"op\":\"act\",\"pad\":\"$long\"}"
    echo '{"id":2,"op":"new",'
    echo '[1,2]'
    echo ''
    echo '{"id":2,"op":"new","op":"new"}'
    echo '{"id":[2],"op":"new"}'
    echo '{"id":2,"v":2,"op":"new"}'
    echo '{"id":2}'
    echo '{"id":2,"op":"fly"}'
    echo '{"id":2,"op":"new","game":"avalon","seats":[],"dealer":"dealer.key"}'
    echo '{"id":2,"op":"new","game":"avalon","seats":["A","B","C","D","E"],"dealer":"dealer.key","colour":"red"}'
    echo '{"id":2,"op":"new","game":"chess","seats":["A","B","C","D","E"],"dealer":"dealer.key"}'
    echo '{"id":2,"op":"new","game":"avalon","seats":["A","B","C","D","E"],"dealer":"nonesuch.key"}'
    echo '{"id":2,"op":"new","game":"avalon","seats":[{"name":"A","key":"nope"},"B","C","D","E"],"dealer":"dealer.key"}'
    echo '{"id":2,"op":"new","game":"avalon","seats":["A","B","C","D","E"],"rules":"players=5","players":5,"dealer":"dealer.key"}'
    echo "$new"
    echo "$new"
    echo "$new" | sed 's/"id":3/"id":33/'
    echo '{"id":4,"op":"resume","journal":"g.journal","dealer":"dealer.key"}'
    echo '{"id":5,"op":"act","seat":"p1","action":"vote p1 yes"}'
    echo '{"id":6,"op":"entropy","seat":"p9","hex":"00"}'
    echo '{"id":7,"op":"entropy","seat":"p1","hex":"00"}'
    echo '{"id":8,"op":"entropy","seat":"p1","hex":"0101010101010101010101010101010101010101010101010101010101010101","sig":"sig p2 AAAA"}'
    echo '{"id":9,"op":"start"}'
    echo '{"id":10,"op":"start"}'
    echo '{"id":11,"op":"act","seat":"p1","action":"dance"}'
    echo '{"id":12,"op":"act","seat":"p1"}'
    echo '{"id":13,"op":"act","seat":"p1","action":"vote p2 yes"}'
    echo '{"id":14,"op":"sign","seat":"p1","sig":"00"}'
    echo '{"id":15,"op":"state","viewer":"everyone"}'
    echo '{"id":16,"op":"state","viewer":"public"}'
    echo '{"id":"d","op":"state","viewer":"dealer"}'
    echo '{"id":17,"op":"reveal"}'
    echo '{"id":18,"op":"abort"}'
    echo '{"id":19,"op":"abort"}'
    echo '{"id":20,"op":"reveal"}'
    echo '{"id":21,"op":"write","path":"g.camelog","force":"yes"}'
    echo '{"id":22,"op":"write","path":"g.camelog"}'
    echo '{"id":23,"op":"write","path":"g.camelog"}'
    echo '{"id":24,"op":"state","viewer":"public"}'
    echo '{"id":25,"op":"new"}'
    printf '{"id":26,"op":"seal"}'
} | camelog host 2>stderr.txt | summ
echo "exit ${PIPESTATUS[1]}"
echo "--- stderr (the dealer's detail):"
cut -c1-72 stderr.txt | sed "s/^/  /"
camelog verify --pubkey dealer.pub g.camelog
camelog verify --pubkey dealer.pub g.journal
