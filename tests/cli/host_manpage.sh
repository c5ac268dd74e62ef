# host_manpage: what camelog-host(1), camelog-avalon(7) and
# camelog-soc(7) say of the host, tried.  The Shadows over Camelot
# example of the page runs as printed (its variants in "rules"; an
# "options" field is refused); the seats a game takes; pledges signed
# ahead in any order and `seat commit --json` made
# into the request as the page says; a seal inside the votes of a team
# re-asks the seat that had signed, with a new base; the key lists of
# the pages are the keys of the states, whose seats are numbers while
# "waiting" writes pK; a seat not to act is refused not-your-turn before
# phase, in both games; a refusal of Shadows over Camelot names the form
# a seat sends for a secret choice, not the line's commitment; and the
# refusals of resume.
camelog keygen --seed 4400000000000000000000000000000000000000000000000000000000000000 -o dealer >/dev/null
camelog keygen --seed 4500000000000000000000000000000000000000000000000000000000000000 -o other >/dev/null
for k in 1 2; do
    camelog keygen --seed "$(printf "a$k%.0s" $(seq 32))" -o p$k >/dev/null
done
cat >drive.py <<'PY'
"""Sends the request lines of stdin to one host, prints each reply as
'<id or op> ok [...]' or '<id or op> refused CODE: REASON', with the
fields named on the command line (sign: the seats, lines and bases
asked, each base by its number of first appearance; lines: the
keywords of the lines written)."""
import json
import subprocess
import sys

show = sys.argv[1:]
bases = {}
p = subprocess.Popen(["camelog", "host", "--no-fsync"], stdin=subprocess.PIPE,
                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                     text=True)
p.stdout.readline()
for line in sys.stdin:
    req = json.loads(line)
    p.stdin.write(line)
    p.stdin.flush()
    r = json.loads(p.stdout.readline())
    name = req.get("id", req.get("op"))
    if not r["ok"]:
        print(name, "refused", r["code"] + ":", r["reason"])
        continue
    out = [str(name), "ok"]
    if "sign" in show and r["sign"]:
        # The bases by number, in the order first seen: base 2 is not base 1.
        for q in r["sign"].values():
            bases.setdefault(q["base"], len(bases) + 1)
        out.append("sign " + ",".join("%s@line%d base %d" %
                                      (s, q["line"], bases[q["base"]])
                                      for s, q in sorted(r["sign"].items())))
    if "lines" in show:
        out.append(" ".join(l.split()[0] for l in r["lines"]))
    print(" ".join(out))
p.stdin.close()
p.wait()
PY
new() {
    # new GAME SEATS-JSON [more fields]
    echo "{\"op\":\"new\",\"game\":\"$1\",\"seats\":$2,\"dealer\":\"dealer.key\",\"game_id\":\"00000000000000000000000000000002\",\"secret\":\"$(printf '77%.0s' $(seq 32))\",\"created\":\"2026-01-01T00:00:00Z\"$3}"
}
seats() {
    python3 -c 'import json, sys; print(json.dumps(["s%d" % i for i in range(int(sys.argv[1]))]))' "$1"
}

echo "# the Shadows over Camelot example of camelog-host(1)"
example=$(sed -n '/^A Shadows over Camelot game starts the same way:/,/^\.Ed/p' \
    "$SRCDIR/man/man1/camelog-host.1" | grep '^{')
echo "$example" | python3 drive.py lines
echo "$example" | sed 's/"rules":"[^"]*"/"options":"traitor"/' |
    sed 's/"journal":"soc.journal"/"journal":"soc2.journal"/' | python3 drive.py

echo "# the seats a game takes"
for n in 4 5 10 11; do new avalon "$(seats $n)" | python3 drive.py | sed "s/^new/avalon $n seats:/"; done
for n in 2 3 7 8; do new soc "$(seats $n)" | python3 drive.py | sed "s/^new/soc $n seats:/"; done

echo "# pledges signed ahead, in any order, from seat commit --json"
keyed="[{\"name\":\"A\",\"key\":\"$(sed -n 2p p1.pub)\"},{\"name\":\"B\",\"key\":\"$(sed -n 2p p2.pub)\"},\"C\",\"D\",\"E\"]"
new avalon "$keyed" ',"journal":"j"' | python3 drive.py >/dev/null
camelog seat commit --json --key p1.key --state t1 --pubkey dealer.pub j >e1.json
camelog seat commit --json --key p2.key --state t2 --pubkey dealer.pub j >e2.json
rm j j.secrets
request() {
    # The request of camelog-host(1), pledge, made of seat commit --json.
    python3 -c '
import json, sys
e = json.load(open(sys.argv[1]))
print(json.dumps({"id": sys.argv[2], "op": "pledge", "seat": "p%d" % e["seat"],
                  "hex": e["pledge"].split()[2], "sig": e["sig"]}))' "$1" "$2"
}
echo "p1 then p2:"
{ new avalon "$keyed"; request e1.json p1; request e2.json p2; echo '{"id":"pledged","op":"pledged"}'; } |
    python3 drive.py sign
echo "p2 then p1:"
{ new avalon "$keyed"; request e2.json p2; request e1.json p1; echo '{"id":"pledged","op":"pledged"}'; } |
    python3 drive.py sign
echo "start before every pledge is revealed:"
{ new avalon "$keyed"; request e2.json p2; echo '{"id":"pledged","op":"pledged"}'; echo '{"id":"start","op":"start"}'; } |
    python3 drive.py sign

echo "# a seal inside the votes on a team"
# The leader of this game is p5; p1 and p2 have keys.
mkfifo in
python3 drive.py sign <in >seal.out &
exec 3>in
{
    new avalon "$keyed" ',"journal":"v.journal"'
    echo '{"id":"start","op":"start"}'
    echo '{"id":"propose","op":"act","seat":"p5","action":"propose p5 p1,p5"}'
    echo '{"id":"vote p1","op":"act","seat":"p1","action":"vote p1 yes"}'
} >&3
for _ in $(seq 100); do
    [ "$(wc -l <seal.out)" -ge 4 ] && break
    sleep 0.1
done
sig=$(camelog seat sign --key p1.key v.journal "vote p1 yes")
echo "{\"id\":\"sign p1\",\"op\":\"sign\",\"seat\":\"p1\",\"sig\":\"$sig\"}" >&3
echo '{"id":"vote p3","op":"act","seat":"p3","action":"vote p3 yes"}' >&3
echo '{"id":"seal","op":"seal"}' >&3
for k in 4 5; do echo "{\"id\":\"vote p$k\",\"op\":\"act\",\"seat\":\"p$k\",\"action\":\"vote p$k yes\"}" >&3; done
echo '{"id":"vote p2","op":"act","seat":"p2","action":"vote p2 yes"}' >&3
exec 3>&-
wait
cat seal.out

echo "# the state keys of camelog-avalon(7) and camelog-soc(7)"
cat >keys.py <<'PY'
"""The top-level keys the page lists for the state of a live game."""
import re
import subprocess
import sys

t = subprocess.run(["mandoc", "-T", "utf8", "-O", "width=1000", sys.argv[1]],
                   capture_output=True, text=True, check=True).stdout
t = " ".join(re.sub(".\b", "", t).split())
head = "The state of a live game for a viewer is one JSON object with these keys, in this order:"
t = t[t.index(head) + len(head):]
keys, depth, cur = [], 0, None
for i, c in enumerate(t):
    if c == "(":
        depth += 1
    elif c == ")":
        depth -= 1
    elif depth == 0 and c == "\u201c":
        cur = ""
    elif depth == 0 and c == "\u201d" and cur is not None:
        keys.append(cur)
        cur = None
    elif cur is not None:
        cur += c
    elif depth == 0 and c == "." and t[i + 1:i + 2] in (" ", ""):
        break
print(" ".join(keys))
PY
state_keys() {
    python3 -c '
import json, sys
for line in sys.stdin:
    r = json.loads(line)
    if r.get("state"):
        s = r["state"]
        print(" ".join(s))
        print("numbers:", {k: s[k] for k in sys.argv[1].split(",")},
              "waiting:", s["waiting"])' "$1"
}
for g in avalon soc; do
    page=$(python3 keys.py "$SRCDIR/man/man7/camelog-$g.7")
    n=5
    [ $g = soc ] && n=4
    { new $g "$(seats $n)"; echo '{"op":"start"}'; echo '{"op":"state","viewer":"p1"}'; } |
        camelog host --no-fsync 2>/dev/null >state.out
    if [ $g = avalon ]; then fields=leader,seats; else fields=seats; fi
    state_keys $fields <state.out >keys.out
    actual=$(head -n 1 keys.out)
    [ "$page" = "$actual" ] && echo "$g: the page lists the state's keys, in order: $page"
    [ "$page" = "$actual" ] || echo "$g: the page lists '$page', the state has '$actual'"
    tail -n 1 keys.out
done

echo "# not-your-turn before phase"
{
    new avalon "$(seats 5)"
    echo '{"op":"start"}'
    echo '{"id":"p2 votes while p5 proposes","op":"act","seat":"p2","action":"vote p2 yes"}'
    echo '{"id":"p2 sends nonsense","op":"act","seat":"p2","action":"xyzzy p2"}'
    echo '{"id":"p5 votes","op":"act","seat":"p5","action":"vote p5 yes"}'
    echo '{"id":"propose","op":"act","seat":"p5","action":"propose p5 p1,p5"}'
    echo '{"id":"p1 proposes while the team is voted on","op":"act","seat":"p1","action":"propose p1 p1,p2"}'
} | python3 drive.py | grep -v '^new\|^start\|^propose'
{
    new soc "$(seats 4)"
    echo '{"op":"start"}'
    echo '{"id":"p2 pools while p1 is to act","op":"act","seat":"p2","action":"pool p2 grail"}'
    echo '{"id":"p2 sends nonsense","op":"act","seat":"p2","action":"xyzzy p2"}'
    echo '{"id":"p1 sends another step","op":"act","seat":"p1","action":"evil p1 black"}'
} | python3 drive.py | grep -v '^new\|^start'

echo "# a secret choice refused: the form a seat sends"
python3 - "$TESTDATA/host-soc.requests" <<'PY'
import json
import subprocess
import sys

p = subprocess.Popen(["camelog", "host", "--no-fsync"], stdin=subprocess.PIPE,
                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                     text=True)
p.stdout.readline()


def send(o):
    p.stdin.write(json.dumps(o) + "\n")
    p.stdin.flush()
    return json.loads(p.stdout.readline())


shown = set()
for line in open(sys.argv[1]):
    req = json.loads(line)
    if req["op"] == "act":
        seat = req["seat"]
        nxt = send({"op": "state", "viewer": seat})["state"]["next"]
        word = nxt.split()[0]
        if "<commitment>" in nxt and word not in shown:
            shown.add(word)
            r = send({"op": "act", "seat": seat, "action": "pool %s grail" % seat})
            print("next %s; sent %s; refused %s: %s" %
                  (nxt, req["action"].split()[0], r["code"], r["reason"]))
    r = send(req)
    if not r["ok"]:
        sys.exit("refused: %s" % r)
p.stdin.close()
p.wait()
PY
rm -f j j.secrets

echo "# the refusals of resume"
new avalon "$(seats 5)" ',"journal":"r.journal"' | python3 drive.py >/dev/null
{
    echo '{"id":"another dealer","op":"resume","journal":"r.journal","dealer":"other.key"}'
    echo '{"id":"no journal","op":"resume","journal":"none.journal","dealer":"dealer.key"}'
    echo '{"id":"no secrets","op":"resume","journal":"s.journal","dealer":"dealer.key"}'
    echo '{"id":"a field","op":"resume","journal":"r.journal","dealer":"dealer.key","x":1}'
    echo '{"id":"no dealer","op":"resume","journal":"r.journal"}'
    echo '{"id":"resumed","op":"resume","journal":"r.journal","dealer":"dealer.key"}'
    echo '{"id":"again","op":"resume","journal":"r.journal","dealer":"dealer.key"}'
} >resume.req
cp r.journal s.journal
python3 drive.py <resume.req
