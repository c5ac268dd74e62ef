# archive_sql_bounds: a typed statement ends within seconds and bounded
# memory, with an error and a non-zero exit, however its values amplify:
# printf()'s %c repeated 2^31 times (once half a minute in one step and
# NULL with exit 0), an aggregate of long strings over a join (once 2 GB),
# a recursion that copies long strings (once without end in time); and
# printf() still formats as SQLite's does within the limits.
camelog keygen --seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f -o dealer >/dev/null
camelog simulate --game avalon --players 5 --count 2 --seed 31 \
    --key dealer.key -o five >/dev/null
camelog archive add games.db five/*.camelog >/dev/null
# The peak memory allowed: 250 MB, and the 256 MB that AddressSanitizer
# keeps of freed memory when it runs (make sanitize); either is far
# under the 2 GB the join once took.
cap=250000
[ -n "${ASAN_OPTIONS:-}" ] && cap=520000
run() { # the status, and the peak memory under the cap or not
    /usr/bin/time -f '%M' -o mem camelog archive sql games.db "$1"
    echo "exit $?"
    if [ "$(tail -n 1 mem)" -lt "$cap" ]; then echo "memory bounded"; else echo "memory $(tail -n 1 mem) kB"; fi
}
echo "== printf('%.*c', 2147483647, 'x')"
run "select printf('%.*c', 2147483647, 'x')"
run "select format('%2147483647d', 1)"
run "select printf('%.*d', 4294967296 + 2147483647, 1)"
echo "== json_group_array(printf('%.*c', 1000000, 'x')) over a join"
run "with r(i) as (select 1 union all select i + 1 from r where i < 3000)
     select length(json_group_array(printf('%.*c', 1000000, 'x'))) from r, game"
run "with r(i) as (select 1 union all select i + 1 from r where i < 300)
     select length(json_group_array(printf('%.*c', 1000000, 'x'))),
            length(json_group_array(printf('%.*c', 1000000, 'y'))) from r, game"
echo "== a recursion copying long strings"
run "with r(i, s) as (select 1, printf('%.*c', 1000000, 'x')
                      union all select i + 1, s from r where i < 1000000)
     select count(length(s || s || s)) from r"
echo "== printf() within the limits"
camelog archive sql games.db "select length(printf('%.*c', 4000000, 'x')),
    printf('%5d|%-4s|%c|%.3f|%q|%,d|%%|%x', 42, 'ab', 'xyz', 3.14159, 'it''s',
           1234567, 255), format('%*d|%s', -4, 7, null)"
echo "exit $?"
