# archive query, stats, export: a filter names a game, role or side the
# games know (the list comes from the games); anything else is a usage
# error that lists what is valid.
camelog archive add games.db "$SAMPLES/avalon-5.camelog" "$SAMPLES/soc-3.camelog" -q
camelog archive query games.db --role merlim
echo "exit $?"
camelog archive stats games.db --side bogus
echo "exit $?"
camelog archive export games.db --game chess -o out
echo "exit $?"
camelog archive query games.db --game avalon --role arthur
echo "exit $?"
camelog archive query games.db --role arthur | cut -c1-32
camelog archive query games.db --side traitor | cut -c1-32
camelog archive query games.db --role merlin --side good | cut -c1-32
