"""The game's constants, under the names a COMP30024 agent imports (`referee.game.constants`),
written for gamelab from the course's published interface and gamelab's rules
(docs/rules/freckers.md)."""
BOARD_N = 8
MAX_TURNS = 150
FROGS_PER_PLAYER = 6
