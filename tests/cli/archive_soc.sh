# archive with Shadows over Camelot: its games indexed (knights, loyalty,
# quests, swords, accusations, the traitor and how he came out), the
# filters that name its knights and sides, its statistics.
camelog keygen --seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f -o dealer >/dev/null
camelog simulate --game soc --players 7 --count 8 --seed c1 \
    --created 2026-11-24T20:00:00Z --key dealer.key -o seven >/dev/null
camelog simulate --game soc --players 4 --count 4 --seed c2 \
    --rules "players=4 traitor=off brave=off" --key dealer.key \
    -o four >/dev/null
camelog archive add games.db seven/*.camelog four/*.camelog
echo "exit $?"
camelog archive check games.db
echo "== query"
camelog archive query games.db --side traitor | cut -c1-60
camelog archive query games.db --role arthur --side loyal | cut -c34-60
camelog archive query games.db --game soc --reason majority | wc -l
echo "== sql"
camelog archive sql games.db "SELECT g.players, x.white, x.black, x.siege,
    x.won, x.lost, x.traitor, x.revealed, g.winner, g.reason
    FROM soc_game x JOIN game g USING (gid) ORDER BY gid"
camelog archive sql games.db "SELECT count(*) AS accusations,
    sum(shown = 'traitor') AS right FROM soc_accusation"
camelog archive sql games.db "SELECT quest, result, count(*) AS n
    FROM soc_quest GROUP BY quest, result ORDER BY quest, result"
echo "== stats"
camelog archive stats games.db --game soc --json |
    sed 's/.*"soc":/soc: /'
echo "== stats text"
camelog archive stats games.db
echo "== chart"
camelog archive stats games.db --svg - | grep -o 'font-size="15">[^<]*'
echo "== with Avalon: each game its own section"
camelog simulate --game avalon --players 5 --count 3 --seed a1 \
    --key dealer.key -o av >/dev/null
camelog archive add -q games.db av/*.camelog
camelog archive stats games.db | grep -E '^(games|avalon|soc|wins):'
camelog archive stats games.db --json |
    grep -oE '(^[{]|"(avalon|soc)":[{])"games":[0-9]+,"[a-z_]+":[0-9]+|"variants":[0-9]+,"good":[0-9]+'
camelog archive stats games.db --svg - | grep -o 'font-size="15">[^<]*'
camelog archive query games.db --side traitor | wc -l
camelog archive query games.db --side evil | wc -l
