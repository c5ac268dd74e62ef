# camelog --help, help, help COMMAND, --version and every command's --help.
camelog --help
echo "exit $?"
camelog help >help.txt
echo "exit $?"
camelog --help | cmp - help.txt && echo "help = --help"
camelog help verify
echo "exit $?"
camelog verify --help | cmp - <(camelog help verify) && echo "verify --help = help verify"
camelog --version | grep -c '^camelog [0-9][0-9.]* (libreplay [0-9][0-9.]*)$'
for cmd in keygen simulate verify replay step reveal cat pack export diff; do
    camelog "$cmd" --help >out.txt
    status=$?
    echo "$cmd: exit $status, $(head -n 1 out.txt | cut -d' ' -f1-3)"
done
camelog help nosuch
echo "exit $?"
