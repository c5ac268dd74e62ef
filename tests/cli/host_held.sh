# host_held: what the host holds, and which parts of a reply are for one
# seat.  Two games with the same secrets differ only in the votes still
# held (p1, who has a key and so gets a sign request, and p2 vote yes in
# one, no in the other); each host is killed (its input ends) with the
# votes held, and a new host resumes the journal.  The public part of
# every reply (all but "deliveries", "sign", "held" and a seat's
# "state", camelog-host(1)) is the same bytes in both games; the private
# parts hold the votes.  The resume reply and the states say what is
# held and whom the game waits for; a seat whose vote is held is offered
# no vote; a request sent again with its id gets the first reply again.
camelog keygen --seed 6666666666666666666666666666666666666666666666666666666666666666 -o dealer >/dev/null
camelog keygen --seed "$(printf 'a1%.0s' $(seq 32))" -o p1 >/dev/null
key=$(sed -n 2p p1.pub)
game() {
    {
        echo "{\"id\":1,\"op\":\"new\",\"game\":\"avalon\",\"seats\":[{\"name\":\"A\",\"key\":\"$key\"},\"B\",\"C\",\"D\",\"E\"],\"dealer\":\"dealer.key\",\"journal\":\"$1.journal\",\"game_id\":\"00000000000000000000000000000003\",\"secret\":\"$(printf '33%.0s' $(seq 32))\"}"
        echo '{"id":2,"op":"start"}'
        echo '{"id":3,"op":"state","viewer":"public"}'
    } | camelog host --no-fsync 2>/dev/null >"$1.1"
    leader=$(python3 -c 'import json,sys; print([json.loads(l) for l in open(sys.argv[1])][3]["state"]["seats"][0])' "$1.1")
    {
        echo "{\"id\":4,\"op\":\"resume\",\"journal\":\"$1.journal\",\"dealer\":\"dealer.key\"}"
        echo "{\"id\":5,\"op\":\"act\",\"seat\":\"p$leader\",\"action\":\"propose p$leader p1,p2\"}"
        echo "{\"id\":6,\"op\":\"act\",\"seat\":\"p1\",\"action\":\"vote p1 $2\"}"
        echo "{\"id\":7,\"op\":\"act\",\"seat\":\"p2\",\"action\":\"vote p2 $3\"}"
        echo "{\"id\":7,\"op\":\"act\",\"seat\":\"p2\",\"action\":\"vote p2 $3\"}"
        echo '{"id":8,"op":"state","viewer":"public"}'
    } | camelog host --no-fsync 2>/dev/null >"$1.2"
    {
        echo "{\"id\":9,\"op\":\"resume\",\"journal\":\"$1.journal\",\"dealer\":\"dealer.key\"}"
        echo '{"id":10,"op":"state","viewer":"public"}'
        echo '{"id":11,"op":"state","viewer":"p1"}'
        echo '{"id":12,"op":"state","viewer":"p3"}'
    } | camelog host --no-fsync 2>/dev/null >"$1.3"
    cat "$1.1" "$1.2" "$1.3" >"$1.all"
}
game a no yes
game b yes no
python3 - <<'PY'
import json

def public(line):
    r = json.loads(line)
    for k in ("deliveries", "sign", "held"):
        r.pop(k, None)
    if r.get("id") in (11, 12):  # the states of seats p1 and p3
        r.pop("state")
    return json.dumps(r, sort_keys=True)

a = [public(l) for l in open("a.all")]
b = [public(l) for l in open("b.all")]
print("public parts: %d replies, %s" % (len(a), "byte-identical" if a == b else "DIFFER"))
for n, (x, y) in enumerate(zip(a, b)):
    if x != y:
        print("reply %d differs:\n  %s\n  %s" % (n, x[:300], y[:300]))
for g in ("a", "b"):
    rs = [json.loads(l) for l in open(g + ".all")]
    by = {r.get("id"): [] for r in rs}
    for r in rs:
        by.setdefault(r.get("id"), []).append(r)
    print("game", g)
    print("  sign request of p1 (private):", by[6][0]["sign"]["p1"]["text"])
    print("  id 7 sent twice:", "same reply" if by[7][0] == by[7][1] else "other replies", by[7][1]["ok"])
    r = by[9][0]
    print("  resume: waiting", r["waiting"], "held", json.dumps(r["held"]))
    for i in (10, 11, 12):
        st = by[i][0]["state"]
        print("  state %d: waiting %s held %s actions %s" % (i, st["waiting"], st["held"], st["actions"][:2]))
PY
