# deps/install.sh, the one reader of the package lists of deps/: lists
# strip comments and repeats; a missing package, as another user, gets
# the exact apt-get line naming only what is missing; nothing is printed
# when everything is installed.  Run on copies of the script with lists
# of our own, so the answer does not depend on this machine.
mkdir d
cp "$SRCDIR/deps/install.sh" d/
printf '# a comment\nbase-files  # always installed\ndpkg\n' >d/have
printf 'camelog-no-such-package\ndpkg\n# end\nanother-missing-one\n' >d/lack
sh d/install.sh --list have lack have
echo "exit $?"
sh d/install.sh have
echo "exit $?"
sh d/install.sh nothing-here
echo "exit $?"
sh d/install.sh
echo "exit $?"
# Not root: nothing is installed, one line is printed.
if command -v setpriv >/dev/null && [ "$(id -u)" -eq 0 ]; then
    chmod -R a+rX d
    setpriv --reuid=65534 --regid=65534 --clear-groups sh d/install.sh have lack
    echo "exit $?"
elif [ "$(id -u)" -ne 0 ]; then
    sh d/install.sh have lack
    echo "exit $?"
fi
# Every list of the repository is read without error.
for l in "$SRCDIR"/deps/*; do
    case $l in *.sh) continue ;; esac
    sh "$SRCDIR/deps/install.sh" --list "${l##*/}" >/dev/null ||
        echo "list ${l##*/} unreadable"
done
echo "lists read"
