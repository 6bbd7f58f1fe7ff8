"""A course project's own `constants` (written for gamelab's tests)."""
PROJECT_CONSTANTS = True
DIRECTION_UP = 0
PLAYER_1_NAME = "A"
