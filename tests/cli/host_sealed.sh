# host: a journal whose records the release before sealed with
# crypto_box_seal still resumes.  The host resumes it, writes a boxed
# record after the sealed ones, dies; another resumes the mixed file,
# ends the game and writes it, and the file verifies.  The records'
# kinds are told by their length past whole 512-byte blocks: 48 sealed,
# 40 boxed (camelog(5) "Host journal").
cp "$TESTDATA"/host-sealed/* .
chmod 600 dealer.key g.journal.secrets
kinds() {
    python3 -c '
import base64, collections, sys
n = collections.Counter()
for line in open("g.journal.secrets"):
    over = len(base64.b64decode(line.split()[1])) % 512
    n[{48: "sealed", 40: "boxed"}.get(over, "other %d" % over)] += 1
print("records: " + ", ".join("%d %s" % (v, k) for k, v in sorted(n.items())))
'
}
summ() {
    python3 "$SRCDIR/tests/cli/host_summ.py"
}
kinds
echo "# this host resumes the sealed records, adds a proposal and dies"
{
    echo '{"id":1,"op":"resume","journal":"g.journal","dealer":"dealer.key"}'
    echo '{"id":2,"op":"act","seat":"p3","action":"propose p3 p3,p4"}'
} | camelog host | summ
kinds
echo "# another resumes both kinds and ends the game"
{
    echo '{"id":1,"op":"resume","journal":"g.journal","dealer":"dealer.key"}'
    echo '{"id":2,"op":"abort"}'
    echo '{"id":3,"op":"reveal"}'
    echo '{"id":4,"op":"write","path":"g.camelog"}'
} | camelog host | summ
kinds
camelog verify --pubkey dealer.pub g.camelog
echo "# a sealed record changed is refused, naming it"
python3 -c '
import base64
lines = open("g.journal.secrets").read().splitlines(True)
f, b64, tag = lines[3].split()
c = bytearray(base64.b64decode(b64))
c[-1] ^= 1
lines[3] = " ".join([f, base64.b64encode(bytes(c)).decode(), tag]) + "\n"
open("g.journal.secrets", "w").writelines(lines[:-1])
'
echo '{"id":1,"op":"resume","journal":"g.journal","dealer":"dealer.key"}' |
    camelog host 2>err | summ
cat err
