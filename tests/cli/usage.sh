# Usage errors exit 2 and point at the command's --help.
camelog
echo "exit $?"
camelog frobnicate
echo "exit $?"
camelog --frobnicate
echo "exit $?"
camelog verify --frobnicate x.camelog
echo "exit $?"
camelog verify -x x.camelog
echo "exit $?"
camelog verify --pubkey
echo "exit $?"
camelog verify --json=yes x.camelog
echo "exit $?"
camelog verify
echo "exit $?"
camelog keygen
echo "exit $?"
camelog keygen -o
echo "exit $?"
camelog step a.camelog b.camelog
echo "exit $?"
camelog step - </dev/null
echo "exit $?"
camelog replay --as seven x.camelog
echo "exit $?"
camelog replay --as p1 --omniscient x.camelog
echo "exit $?"
camelog replay --to -1 x.camelog
echo "exit $?"
camelog diff only-one.camelog
echo "exit $?"
camelog diff - -
echo "exit $?"
camelog simulate --game chess --players 5 --key k -o x
echo "exit $?"
camelog simulate --game avalon --players 11 --key k -o x
echo "exit $?"
camelog simulate --game avalon --players 5 --bot clever --key k -o x
echo "exit $?"
camelog simulate --game avalon --players 5 --seed xyz --key k -o x
echo "exit $?"
camelog simulate --game avalon --players 5 --created yesterday --key k -o x
echo "exit $?"
camelog pack text.txt
echo "exit $?"
# -- ends the options: -x is a file name here.
camelog cat -- -x
