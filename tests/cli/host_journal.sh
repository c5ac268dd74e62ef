# host: a journal that cannot be written.  Nothing is accepted that is
# not on disk: the refusal is `io`, the game stays as it was, and the
# journal holds exactly the lines acknowledged, from which another host
# resumes.  As root, file modes do not stop writes, so the test uses a
# path under /proc (no file can be made there) and, for a full disk, a
# file size limit (ulimit -f, with SIGXFSZ ignored, so that write(2)
# fails with EFBIG once the journal would pass 3 KiB).
camelog keygen --seed 4444444444444444444444444444444444444444444444444444444444444444 -o dealer >/dev/null
summ() {
    python3 "$SRCDIR/tests/cli/host_summ.py"
}
new() {
    echo "{\"id\":$1,\"op\":\"new\",\"game\":\"avalon\",\"seats\":[\"A\",\"B\",\"C\",\"D\",\"E\"],\"dealer\":\"dealer.key\",\"journal\":\"$2\",\"game_id\":\"00000000000000000000000000000002\",\"secret\":\"0000000000000000000000000000000000000000000000000000000000000002\"}"
}
# Seat k's pledge of its value, 32 bytes 0k, in game ...02
# (camelog(5) "Entropy").
pledge() {
    python3 -c 'import hashlib, sys; k = int(sys.argv[1])
print(hashlib.blake2b(b"camelog pledge" + bytes.fromhex("00" * 15 + "02") +
      bytes([k]) + bytes([k]) * 32, digest_size=32).hexdigest())' "$1"
}
echo "# a journal where no file can be made"
{ new 1 /proc/camelog-host/g.journal; echo '{"id":2,"op":"start"}'; } |
    camelog host 2>/dev/null | summ
echo "# an existing journal"
: >taken.journal
{ new 1 taken.journal; } | camelog host 2>/dev/null | summ
echo "# a full disk: the journal may not pass 3 KiB"
{
    new 1 g.journal
    for k in 1 2 3 4 5; do
        echo "{\"id\":1$k,\"op\":\"pledge\",\"seat\":\"p$k\",\"hex\":\"$(pledge $k)\"}"
    done
    echo '{"id":2,"op":"start"}'
    echo '{"id":3,"op":"start"}'
    echo '{"id":4,"op":"state","viewer":"public"}'
} | (trap '' XFSZ; ulimit -f 3; exec camelog host) 2>/dev/null | summ
echo "journal: $(wc -l <g.journal) lines"
camelog verify g.journal 2>/dev/null
echo "# another host resumes and finishes"
{
    echo '{"id":1,"op":"resume","journal":"g.journal","dealer":"dealer.key"}'
    echo '{"id":10,"op":"pledged"}'
    for k in 1 2; do
        echo "{\"id\":1$k,\"op\":\"entropy\",\"seat\":\"p$k\",\"hex\":\"$(printf "0$k%.0s" $(seq 32))\"}"
    done
    echo '{"id":2,"op":"start"}'
    echo '{"id":3,"op":"abort"}'
    echo '{"id":4,"op":"reveal"}'
    echo '{"id":5,"op":"write","path":"g.camelog"}'
} | camelog host | summ
camelog verify --pubkey dealer.pub g.camelog
