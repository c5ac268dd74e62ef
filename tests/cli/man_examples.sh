# The EXAMPLES of every man1 page, run as written in a directory that has
# the samples (samples/) and the corpus records (records/) under the
# names the avalongame.online dataset gives them (2020-04-04T03:15:18.034Z_GBN:
# colons, no suffix; tests/data/avalongame/ spells them with dashes and
# .json).  A command
# fails when it exits with 2 or more (usage, environment, a crash); exit
# 1 is an input found invalid, which some examples show on purpose.  A
# command whose program is not installed (127 from a tool other than
# camelog, e.g. jq) is counted as skipped.
cp -r "$SAMPLES" samples
chmod 600 samples/dealer.key
mkdir records
for f in "$TESTDATA"/avalongame/*.json; do
    name=$(basename "$f" .json | sed 's/T\([0-9][0-9]\)-\([0-9][0-9]\)-/T\1:\2:/')
    cp "$f" "records/$name"
done

# The commands of a page's EXAMPLES: lines starting with "$ ", joined with
# their continuation lines (after a trailing backslash or pipe, or inside
# an open double quote), with mdoc's escapes undone; NUL-separated.
commands() {
    sed -n '/^\.Sh EXAMPLES/,/^\.Sh /p' "$1" |
        awk '
            /^\.Bd -literal/ { inblock = 1; next }
            /^\.Ed/ { inblock = 0; next }
            !inblock { next }
            function more(c, line) {
                return line ~ /(\\e|\|)$/ || gsub(/"/, "\"", c) % 2 == 1
            }
            cont { cmd = cmd "\n" $0 }
            !cont && /^\$ / { cmd = substr($0, 3) }
            cont || /^\$ / {
                cont = more(cmd, $0)
                if (!cont)
                    printf "%s%c", cmd, 0
            }
        ' |
        sed -z -e 's/\\e/\\/g' -e 's/\\(dq/"/g' -e 's/\\&//g' -e 's/\\-/-/g'
}

top=$PWD
for page in "$SRCDIR"/man/man1/*.1; do
    name=$(basename "$page")
    ran=0 skipped=0 failed=0
    mkdir "$top/$name" && cd "$top/$name" || exit 2
    ln -s "$top/samples" samples
    ln -s "$top/records" records
    while IFS= read -r -d '' cmd; do
        bash -c "$cmd" </dev/null >/dev/null 2>"stderr.txt"
        st=$?
        if [ "$st" -eq 127 ] && ! grep -q '^camelog' stderr.txt; then
            skipped=$((skipped + 1))
        elif [ "$st" -ge 2 ]; then
            failed=$((failed + 1))
            echo "$name: exit $st: $cmd" >&2
            sed 's/^/    /' stderr.txt >&2
        else
            [ "$st" -eq 0 ] || echo "$name: exit $st (an input found invalid): $cmd" >&2
            ran=$((ran + 1))
        fi
    done < <(commands "$page")
    # Skipped commands are not counted, so the output does not depend on
    # which other programs this machine has.
    if [ "$failed" -eq 0 ] && [ "$ran" -gt 0 ]; then
        echo "$name: ok"
    else
        echo "$name: $ran ran, $failed failed"
    fi
    cd "$top" || exit 2
done
