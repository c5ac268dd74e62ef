# step_tty: camelog step on a terminal, driven through tmux: single keys
# (arrows, PgDn, Home, s, ?), the screens after them, and the terminal
# restored after Ctrl-C (stty -a before and after, in the pane).
command -v tmux >/dev/null || { echo "step_tty: tmux is not installed (make deps)" >&2; exit 2; }
camelog keygen --seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f -o dealer >/dev/null
camelog simulate --game avalon --players 5 --seed 05 \
    --key dealer.key -o game.camelog >/dev/null
sock=camelog-step-$$
t() { tmux -L "$sock" -f /dev/null "$@"; }
trap 't kill-server 2>/dev/null' EXIT
t new-session -d -x 100 -y 40 -s step "env PS1='$ ' sh"
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
show() { echo "== $1"; wait_for "$2" && screen; }
t send-keys -t step 'stty -a >before.txt; camelog step game.camelog' Enter
show "the start" "line 11 of 95"
t send-keys -t step Right Right
show "right twice: two events" "line 13 of 95"
t send-keys -t step Down
show "down: the next proposal" "line 18 of 95"
t send-keys -t step NPage
show "PgDn: the next quest" "line 34 of 95"
t send-keys -t step s
show "s: the first seat's view" "viewing as Alice (p1)"
t send-keys -t step Left
show "left: back one event" "line 33 of 95"
t send-keys -t step Up
show "up: back a proposal" "line 25 of 95"
t send-keys -t step End
show "End" "line 95 of 95"
t send-keys -t step Home
show "Home" "line 11 of 95 (complete), viewing as Alice"
t send-keys -t step '?'
show "?: help" "press any key"
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
