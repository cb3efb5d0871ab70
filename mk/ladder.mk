# The ladder of docs/yardsticks.md: fixed pairings of the built-in and
# sparring players with fixed budgets, a match of `selfplay --swap` each,
# written as a Markdown table to $(B)/ladder.md (scripts/ladder.sh; its
# variables GAMES, SEED, OPENING, TURNS, J and PAIRS pass through).
#   make ladder [GAMES=100] [J=1] [PAIRS='alphabeta greedy']
.PHONY: ladder
ladder: $(B)/examples/selfplay
	B=$(B) sh scripts/ladder.sh
