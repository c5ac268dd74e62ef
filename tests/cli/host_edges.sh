# host_edges: the edges of the protocol and of its files.  A seal before
# the start is refused; a game in progress is not written (its journal
# is its record), nor one to a file that exists, a refusal that adds no
# line (not the seal a write appends first); one that ended is written
# sealed, so that the file verifies with the pinned dealer key, and its
# journal is closed: no other host resumes it.  A journal held by a live host is refused to a
# second one (locked); resume never follows a symbolic link (the link's
# target is left as it was); "-" is no host path.
camelog keygen --seed 4444444444444444444444444444444444444444444444444444444444444444 -o dealer >/dev/null
new() {
    echo "{\"op\":\"new\",\"game\":\"avalon\",\"seats\":[\"A\",\"B\",\"C\",\"D\",\"E\"],\"dealer\":\"dealer.key\",\"game_id\":\"00000000000000000000000000000002\",\"secret\":\"$(printf '77%.0s' $(seq 32))\"$1}"
}
show() {
    python3 -c '
import json, sys
for line in sys.stdin:
    r = json.loads(line)
    if "hello" in r:
        continue
    if r["ok"]:
        print(r["id"], "ok", " ".join(l.split()[0] for l in r["lines"])[:60],
              r.get("progress", ""))
    else:
        print(r["id"], "refused", r["code"] + ":", r["reason"])
'
}
echo "# seal before the start, write in progress, write after the end"
echo "# (7b: to a file that exists: refused, and nothing appended)"
echo taken >taken.camelog
{
    new ',"journal":"g.journal"'
    echo '{"id":1,"op":"seal"}'
    echo '{"id":2,"op":"entropy","seat":"p1","hex":"0101010101010101010101010101010101010101010101010101010101010101"}'
    echo '{"id":3,"op":"seal"}'
    echo '{"id":4,"op":"start"}'
    echo '{"id":5,"op":"write","path":"early.camelog"}'
    echo '{"id":6,"op":"seal"}'
    echo '{"id":7,"op":"abort"}'
    echo '{"id":"7b","op":"write","path":"taken.camelog"}'
    echo '{"id":8,"op":"write","path":"g.camelog"}'
} | camelog host --no-fsync 2>/dev/null | show
test -e early.camelog && echo "early.camelog was made"
camelog verify -q --pubkey dealer.pub g.camelog && echo "g.camelog verifies with the pinned key"
echo "# the written game's journal is closed"
printf '%s\n' '{"id":9,"op":"resume","journal":"g.journal","dealer":"dealer.key"}' |
    camelog host 2>/dev/null | show
echo "# a journal a live host holds"
mkfifo in
camelog host --no-fsync <in >live.out 2>/dev/null &
host=$!
exec 3>in
{
    new ',"journal":"live.journal"'
    echo '{"id":10,"op":"start"}'
} >&3
for _ in $(seq 100); do
    [ "$(wc -l <live.out)" -ge 3 ] && break
    sleep 0.1
done
printf '%s\n' '{"id":11,"op":"resume","journal":"live.journal","dealer":"dealer.key"}' |
    camelog host 2>/dev/null | show
exec 3>&-
wait "$host"
show <live.out
printf '%s\n' '{"id":12,"op":"resume","journal":"live.journal","dealer":"dealer.key"}' \
    '{"id":13,"op":"state","viewer":"public"}' | camelog host 2>/dev/null | show
echo "# resume through a symbolic link"
ln -s live.journal link.journal
ln -s live.journal.secrets link.journal.secrets
printf 'torn' >>live.journal
cp live.journal before
printf '%s\n' '{"id":14,"op":"resume","journal":"link.journal","dealer":"dealer.key"}' |
    camelog host 2>/dev/null | show
cmp before live.journal && echo "the link's target is unchanged"
echo "# \"-\" as a path"
{
    new ',"journal":"-"'
    printf '%s\n' '{"id":15,"op":"new","game":"avalon","seats":["A","B","C","D","E"],"dealer":"-"}'
    printf '%s\n' '{"id":16,"op":"resume","journal":"-","dealer":"dealer.key"}'
    new ''
    echo '{"id":17,"op":"start"}'
    echo '{"id":17,"op":"abort"}'
    echo '{"id":18,"op":"write","path":"-"}'
    echo '{"id":19,"op":"write","path":""}'
} | camelog host --no-fsync 2>/dev/null | show
