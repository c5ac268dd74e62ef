# host_state_pad: a seat's own state has one length whatever its secrets.
# Two games that differ only in the deal (the dealer secrets of
# host_leak, which give the same first leader) get the same requests,
# made in lockstep from the public state: every team approved, every
# card a Success, so that the public log is the same but for its
# commitments, up to the assassination, where the Assassin (another
# seat in each game) alone has actions.  At each step every seat asks
# for its state.  Its reply is as long in both games; without its pad
# it would not be (a seat that may play Fail, the Assassin's targets).
camelog keygen --seed 3333333333333333333333333333333333333333333333333333333333333333 -o dealer >/dev/null
python3 - <<'PY'
import json, subprocess

def host():
    p = subprocess.Popen(["camelog", "host", "--no-fsync"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True)
    p.stdout.readline()
    return p

games = [host(), host()]
secrets = ["00" * 31 + "0d", "00" * 31 + "22"]
rid = 0

def send(req):
    """The same request to both games: the two replies, as text."""
    global rid
    rid += 1
    req = dict(req, id=rid)
    out = []
    for p in games:
        p.stdin.write(json.dumps(req) + "\n")
        p.stdin.flush()
        out.append(p.stdout.readline())
    return out

for g, s in zip(games, secrets):
    g.stdin.write(json.dumps({"id": 0, "op": "new", "game": "avalon",
                              "seats": ["A", "B", "C", "D", "E"],
                              "dealer": "dealer.key",
                              "game_id": "0" * 31 + "1", "secret": s}) + "\n")
    g.stdin.flush()
    g.stdout.readline()
send({"op": "start"})
states = 0
same = 0
unpadded_differ = 0
kinds = {}


def ask_all(step):
    """Every seat's state in both games; the public state of game a."""
    global states, same, unpadded_differ
    pub = [json.loads(r) for r in send({"op": "state", "viewer": "public"})]
    if json.dumps(pub[0]) != json.dumps(pub[1]):
        print("step %d: the public states differ" % step)
    pa = pub[0]["state"]
    for k in range(1, 6):
        a, b = send({"op": "state", "viewer": "p%d" % k})
        ja, jb = json.loads(a), json.loads(b)
        states += 1
        same += len(a) == len(b)
        if len(a) != len(b):
            print("step %d p%d: %d and %d bytes" % (step, k, len(a), len(b)))
        pad_a, pad_b = ja["state"].get("pad"), jb["state"].get("pad")
        if pad_a is None or pad_b is None or set(pad_a + pad_b) - {"."}:
            print("step %d p%d: no pad of full stops" % (step, k))
            continue
        if len(a) - len(pad_a) != len(b) - len(pad_b):
            unpadded_differ += 1
        kinds.setdefault(pa["phase"], set()).add(len(a))
    return pa


for step in range(60):
    pa = ask_all(step)
    if pa["winner"] or pa["phase"] == "assassination":
        break
    if pa["phase"] == "propose":
        leader = pa["leader"]
        size = [q["size"] for q in pa["quests"]][pa["successes"]]
        # Teams that take in turn every seat, loyal or not.
        first = pa["round"] + pa["rejections"]
        team = ",".join("p%d" % t for t in sorted((first + i) % 5 + 1 for i in range(size)))
        send({"op": "act", "seat": "p%d" % leader,
              "action": "propose p%d %s" % (leader, team)})
    elif pa["phase"] == "vote":
        for k in range(1, 6):
            send({"op": "act", "seat": "p%d" % k, "action": "vote p%d yes" % k})
            ask_all(step)
    elif pa["phase"] == "cards":
        for k in pa["proposal"]["team"]:
            send({"op": "act", "seat": "p%d" % k,
                  "action": "card p%d success" % k})
            ask_all(step)
    else:
        print("step %d: phase %s" % (step, pa["phase"]))
        break
print("phases reached:", ", ".join(kinds))
print("%d seat states asked in each game, %d of the same length in both"
      % (states, same))
print("without their pad, %d of them would differ in length" % unpadded_differ)
send({"op": "abort"})
PY
# The rule itself, in both games played on by their seats' own legal
# actions (seeded choices): every seat's state is the public state of
# the moment, plus its deliveries, plus one bound for the game, never
# more (no private part outgrew the bound).
python3 - <<'PY'
import json, random, subprocess


def compact(j):
    return len(json.dumps(j, separators=(",", ":"), ensure_ascii=False))


for game, n, seed in (("avalon", 10, 1), ("soc", 4, 2), ("soc", 7, 3)):
    rnd = random.Random(seed)
    p = subprocess.Popen(["camelog", "host", "--no-fsync"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    p.stdout.readline()

    def send(req):
        p.stdin.write(json.dumps(req) + "\n")
        p.stdin.flush()
        return json.loads(p.stdout.readline())

    send({"op": "new", "game": game, "seats": ["S%d" % k for k in range(1, n + 1)],
          "dealer": "dealer.key", "game_id": "0" * 31 + "2",
          "secret": "%064x" % seed})
    send({"op": "start"})
    bounds, states, steps, over = set(), 0, 0, False
    while steps < 150 and not over:
        steps += 1
        pub = send({"op": "state", "viewer": "public"})["state"]
        base = compact(pub) - compact(pub["deliveries"])
        acts = []
        for k in range(1, n + 1):
            s = send({"op": "state", "viewer": "p%d" % k})["state"]
            bounds.add(compact(s) - base - compact(s["deliveries"]))
            states += 1
            acts += [(k, a) for a in s["actions"]]
        over = bool(pub["winner"]) or not acts
        if not over:
            k, a = rnd.choice(acts)
            words = a.split(" ")
            if " pA" in a:
                # A form: its placeholders filled with distinct seats.
                slots = words[-1].split(",")
                seats = sorted(rnd.sample(range(1, n + 1), len(slots)))
                words[-1] = ",".join("p%d" % t for t in seats)
            send({"op": "act", "seat": "p%d" % k, "action": " ".join(words)})
    print("%s, %d seats: %d seat states in %d steps, beyond the public state "
          "and the deliveries: %s bytes"
          % (game, n, states, steps, " and ".join(str(b) for b in sorted(bounds))))
    p.stdin.close()
    p.wait()
PY
