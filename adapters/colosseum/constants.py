"""gamelab's stand-in for the course's `constants` module: the names a COMP 424 agent may import
(board sizes of the course's simulator, the four sides of a cell, the two players), written from
the course's published template. A course project's own `constants.py` is used instead when
the agent ships in one (see gamelab_colosseum.py)."""
MIN_BOARD_SIZE = 5
MAX_BOARD_SIZE = 10
AGENT_NOT_FOUND_MSG = "No agent is registered under that name: register yours with @register_agent(\"name\")."
# A cell's sides, as the barrier array's last index: 0 up, 1 right, 2 down, 3 left.
DIRECTION_UP = 0
DIRECTION_UP_NAME = "Up"
DIRECTION_RIGHT = 1
DIRECTION_RIGHT_NAME = "Right"
DIRECTION_DOWN = 2
DIRECTION_DOWN_NAME = "Down"
DIRECTION_LEFT = 3
DIRECTION_LEFT_NAME = "Left"
PLAYER_1_ID = 0
PLAYER_2_ID = 1
PLAYER_1_NAME = "A"
PLAYER_2_NAME = "B"
