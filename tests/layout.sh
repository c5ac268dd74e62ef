#!/usr/bin/env bash
# layout.sh - the layout rules of CONTRIBUTING.md that a formatter cannot
# check, checked cheaply (make check runs it as `layout`):
#   (a) tools/ include no library header but replay.h;
#   (b) no circle of files among the library's objects (nm);
#   (c) no .c file over MAX_LINES lines, but the tables named below;
#   (d) the dialect: sizeof(x), and no comparison with NULL;
#   (e) nothing under libreplay/ outside games/, and nothing in tools/,
#       names a game.
#   (f) every line and message of the format is spelled in one file,
#       SPELL_FILE, and nowhere else in the library, tools/ or lib/.
# Run from the top of the tree after make; B names the build directory.
#
# The lists below are the known exceptions.  The LEAD empties the
# temporary ones as the work that removes them is merged.
set -u

B=${B:-build}
MAX_LINES=1500

# (b) Circles known today, one a line: the objects (under $B/libreplay)
# of one circle.  A circle found passes when all its files are on one
# line.  None is left.
KNOWN_CIRCLES='
'

# (c) Files allowed over MAX_LINES.  Tables (cards, rules) are data and
# may stay long; none is today:
LONG_TABLES='
'
# Test files not yet split by subject (each holds one suite).
LONG_KNOWN='
tests/test_log.c
tests/test_archive.c
tests/test_avalon.c
tests/test_soc.c
'

# (d) and (e) Files not held to the dialect or the game-name rule while
# other work moves them: none is today.
MOVING='
'

# (e) Files that may name games: the public header documents the games
# (their man pages, example values).
GAME_NAMING_FILES='
libreplay/replay.h
'
# (e) Single lines that may, as FILE|TEXT (fixed text within the line):
# the help of simulate's --roles and of the archive's filters, which
# name the games' tokens a user types.
GAME_NAMING_LINES='
tools/cmd_simulate.c|Avalon roles, comma-separated (default: the
tools/cmd_simulate.c|basic game, Merlin and the Assassin)
tools/cmd_archive.c|--game NAME        avalon or soc
tools/cmd_archive.c|revealed role (merlin, assassin, ...)
tools/cmd_archive.c|assassination, missed, aborted)
tools/cmd_archive.c|one), as camelog-avalon(7) names it
'

# (f) The spellings of camelog(5) that SPELL_FILE alone holds, as
# fixed text, one a line: the domains of the messages a seal, a sig and
# a delivery sign, the lines of a value, the delivery's JSON keys, the
# names of a game's progress.  Comments may name them.
SPELL_FILE=libreplay/spell.c
SPELLINGS='
"camelog sig v1"
"camelog seal v1"
"camelog delivery v1"
"entropy p%zu %s
"pledge p%zu %s
"abandoned p%zu"
"sig p%zu %s
"seal %s
"reveal %s
{\"seat\":
,\"label\":
,\"nonce\":
"in_progress"
"in progress"
"finished, not revealed"
'
# Files not held to (f) while other work rebuilds them: none is today.
SPELL_MOVING='
'

# "avalongame" is the name of another system's record format (import
# --from avalongame), not of a game: it is taken out before the match.
GAME_WORDS='avalon|(^|[^a-z0-9_])soc([^a-z0-9]|$)|merlin|percival|morgana|mordred|oberon|assassin|camelot|excalibur'

failed=0
fail() {
    echo "layout: $*" >&2
    failed=1
}

listed() { # listed FILE LIST: FILE is on LIST, or under a dir/ on it
    local f=$1 e
    while IFS= read -r e; do
        [ -z "$e" ] && continue
        case $e in
        */) case $f in "$e"*) return 0 ;; esac ;;
        *) [ "$f" = "$e" ] && return 0 ;;
        esac
    done <<<"$2"
    return 1
}

# ----------------------------------------------------------------- (a)
for f in tools/*.[ch]; do
    while IFS= read -r inc; do
        h=${inc#*\"}
        h=${h%%\"*}
        [ "$h" = replay.h ] && continue
        [ -f "tools/$h" ] && continue
        fail "$f: includes \"$h\"; tools include replay.h only"
    done < <(grep -E '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f")
done

# ----------------------------------------------------------------- (b)
# Only the objects of today's sources: a file moved away leaves its old
# object behind in the build tree.
objs=$(find "$B/libreplay" -name '*.o' 2>/dev/null | sort |
    while IFS= read -r o; do
        src=libreplay/${o#"$B/libreplay/"}
        [ -f "${src%.o}.c" ] && printf '%s\n' "$o"
    done)
if [ -z "$objs" ]; then
    fail "(b) no objects under $B/libreplay: run make first"
else
    circles=$(for o in $objs; do
        rel=${o#"$B/libreplay/"}
        nm "$o" | awk -v f="$rel" '
            $1 == "U" { print "U", f, $2; next }
            NF == 3 && $2 ~ /^[BDGRSTV]$/ { print "D", f, $3 }'
    done | awk '
        $1 == "D" { def[$3] = $2; files[$2] = 1; next }
        { use[++n] = $2 " " $3; files[$2] = 1 }
        END {
            for (i = 1; i <= n; i++) {
                split(use[i], u, " ")
                if ((u[2] in def) && def[u[2]] != u[1])
                    reach[u[1], def[u[2]]] = 1
            }
            # Transitive closure (a few dozen files).
            for (k in files) for (i in files) if ((i, k) in reach)
                for (j in files) if ((k, j) in reach) reach[i, j] = 1
            for (i in files) {
                if (i in done) continue
                line = i; m = 1
                for (j in files)
                    if (j != i && ((i, j) in reach) && ((j, i) in reach)) {
                        line = line " " j; done[j] = 1; m++
                    }
                if (m > 1) print line
            }
        }' | while read -r line; do
        printf '%s\n' $line | sort | tr '\n' ' ' | sed 's/ $//'
        echo
    done | sort)
    while IFS= read -r c; do
        [ -z "$c" ] && continue
        known=
        while IFS= read -r k; do
            [ -z "$k" ] && continue
            ok=1
            for f in $c; do
                case " $k " in *" $f "*) ;; *) ok= ;; esac
            done
            [ -n "$ok" ] && known=1 && break
        done <<<"$KNOWN_CIRCLES"
        if [ -z "$known" ]; then
            fail "(b) a circle of files in $B/libreplay: $c"
        fi
    done <<<"$circles"
fi

# ----------------------------------------------------------------- (c)
for f in $(find libreplay tools tests bench -name '*.c' | sort); do
    n=$(wc -l <"$f")
    [ "$n" -le "$MAX_LINES" ] && continue
    listed "$f" "$LONG_TABLES" && continue
    listed "$f" "$LONG_KNOWN" && continue
    fail "(c) $f: $n lines, over $MAX_LINES (split it, or name it as a table)"
done

# ----------------------------------------------------------------- (d)
for f in $(find libreplay tools tests bench -name '*.[ch]' | sort); do
    listed "$f" "$MOVING" && continue
    while IFS= read -r hit; do
        [ -n "$hit" ] && fail "(d) $f:$hit (write sizeof(x))"
    done < <(grep -nE '\bsizeof[[:space:]]+[^([:space:]]' "$f")
    while IFS= read -r hit; do
        [ -n "$hit" ] && fail "(d) $f:$hit (test the pointer: !p or p)"
    done < <(grep -nE '[!=]=[[:space:]]*NULL\b|\bNULL[[:space:]]*[!=]=' "$f")
done

# ----------------------------------------------------------------- (e)
for f in $(find libreplay tools -name '*.[ch]' -not -path 'libreplay/games/*' |
    sort); do
    listed "$f" "$MOVING" && continue
    listed "$f" "$GAME_NAMING_FILES" && continue
    while IFS= read -r hit; do
        text=${hit#*:}
        allowed=
        while IFS='|' read -r lf lt; do
            [ -z "$lf" ] && continue
            if [ "$lf" = "$f" ] && [[ $text == *"$lt"* ]]; then
                allowed=1
                break
            fi
        done <<<"$GAME_NAMING_LINES"
        [ -n "$allowed" ] && continue
        fail "(e) $f:$hit (only libreplay/games/ names a game)"
    done < <(sed 's/avalongame//g' "$f" | grep -niE "$GAME_WORDS")
done

# ----------------------------------------------------------------- (f)
# Comments are taken out first: a line that opens with /* or *, and
# /* ... */ within a line.
for f in $(find libreplay tools lib -name '*.[ch]' | sort); do
    [ "$f" = "$SPELL_FILE" ] && continue
    listed "$f" "$SPELL_MOVING" && continue
    code=$(sed -e 's|/\*.*\*/||g' -e 's|^[[:space:]]*/\*.*||' \
        -e 's|^[[:space:]]*\*.*||' "$f")
    while IFS= read -r sp; do
        [ -z "$sp" ] && continue
        while IFS= read -r hit; do
            [ -n "$hit" ] &&
                fail "(f) $f:$hit (spelled in $SPELL_FILE only: call it)"
        done < <(grep -nF -- "$sp" <<<"$code")
    done <<<"$SPELLINGS"
done

if [ "$failed" -ne 0 ]; then
    echo "layout: FAILED (the rules: CONTRIBUTING.md)" >&2
    exit 1
fi
echo "layout: tools include replay.h only, no circle of files," \
    "no .c over $MAX_LINES lines, one dialect, games named in games/ only," \
    "the format spelled in $SPELL_FILE only"
