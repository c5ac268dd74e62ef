# step_tty: camelog step on a terminal of 80x24, driven through tmux:
# single keys (arrows, PgDn, End, Home, s, j, /, a quest's digit, ?),
# the screens after them, each checked to hold the header on its first
# row and nothing past its 24th, and the terminal restored after Ctrl-C
# (stty -a before and after, in the pane).  Then a Shadows over Camelot
# game, whose screens are taller than the terminal, in a seat's view.
command -v tmux >/dev/null || { echo "step_tty: tmux is not installed (make deps)" >&2; exit 2; }
camelog keygen --seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f -o dealer >/dev/null
camelog simulate --game avalon --players 5 --seed 05 \
    --key dealer.key -o game.camelog >/dev/null
camelog simulate --game soc --players 5 --seed 05 \
    --key dealer.key -o soc.camelog >/dev/null
sock=camelog-step-$$
t() { tmux -L "$sock" -f /dev/null "$@"; }
trap 't kill-server 2>/dev/null' EXIT
t new-session -d -x 80 -y 24 -s step "env PS1='$ ' sh"
t set-option -t step status off >/dev/null
# The screen without its trailing blank lines.
screen() { t capture-pane -p -t step | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'; }
# Waits (10 s at most) until the screen shows text and is drawn whole:
# the status line comes first, so the screen must also stay the same
# over two captures 0.1 s apart.
wait_for() {
    local last= now
    for _ in $(seq 100); do
        now=$(screen)
        if printf '%s\n' "$now" | grep -qF -- "$1" && [ "$now" = "$last" ]; then
            return 0
        fi
        last=$now
        sleep 0.1
    done
    echo "step_tty: timed out waiting for '$1'" >&2
    screen >&2
    return 1
}
# A screen, and whether it keeps the header: its first row is the
# header line ($2 names the file) and the pane is 24 rows of 80 at most.
show() {
    echo "== $1"
    wait_for "$2" || return
    screen
    t capture-pane -p -t step | awk -v f="$3: line " '
        NR == 1 && index($0, f) != 1 { print "NO HEADER on the first row: " $0 }
        length($0) > 80 { print "row " NR " is wider than 80" }
        END { if (NR > 24) print NR " rows" }'
}
t send-keys -t step 'stty -a >before.txt; camelog step game.camelog' Enter
show "the start" "line 11 of 95" game.camelog
t send-keys -t step Right Right
show "right twice: two events" "line 13 of 95" game.camelog
t send-keys -t step Down
show "down: the next proposal" "line 18 of 95" game.camelog
t send-keys -t step NPage
show "PgDn: the next quest" "line 34 of 95" game.camelog
t send-keys -t step s
show "s: the first seat's view" "viewing as Alice (p1)" game.camelog
t send-keys -t step Left
show "left: back one event" "line 33 of 95" game.camelog
t send-keys -t step Up
show "up: back a proposal" "line 25 of 95" game.camelog
t send-keys -t step End
show "End: the last line that tells something, not the seal" "line 94 of 95" game.camelog
t send-keys -t step Home
show "Home" "line 11 of 95 (complete), viewing as Alice" game.camelog
t send-keys -t step 3
show "3: the third quest" "line 55 of 95" game.camelog
t send-keys -t step / q u e s t Space 2
show "/: the search typed on the key line" "/quest 2" game.camelog
t send-keys -t step Enter
show "Enter: the next line that holds it" "found 'quest 2'" game.camelog
t send-keys -t step / Enter
show "/ Enter: the next one again" "at line 85 (/ Enter" game.camelog
t send-keys -t step '?'
show "?: help" "press any key" game.camelog
t send-keys -t step C-c
# the shell's prompt again, alone on the last line
for _ in $(seq 100); do screen | tail -n 1 | grep -qx '\$' && break; sleep 0.1; done
t send-keys -t step 'echo "status $?" >status.txt; stty -a >after.txt' Enter
for _ in $(seq 100); do [ -s after.txt ] && break; sleep 0.1; done
echo "== Ctrl-C"
cat status.txt
if cmp -s before.txt after.txt; then
    echo "the terminal is restored (stty -a is the same)"
else
    echo "the terminal is not restored:"
    diff before.txt after.txt
fi
t send-keys -t step 'clear; camelog step --as p2 soc.camelog' Enter
show "Shadows over Camelot: the start" "viewing as Bob (p2)" soc.camelog
t send-keys -t step Down Down Down
show "three turns on: taller than the terminal" "j k]" soc.camelog
t send-keys -t step j j j
show "j three times: as far as it goes, the header stays" "[2-23/23" soc.camelog
t send-keys -t step End
n=$(camelog cat soc.camelog | wc -l)
show "End: the line before the seal" "line $((n - 1)) of $n" soc.camelog
t send-keys -t step j j
show "j twice: the rest of the board" "over: " soc.camelog
t send-keys -t step q
