"""The course's game constants (as this test package gives them)."""
BOARD_N = 8
MAX_TURNS = 150
