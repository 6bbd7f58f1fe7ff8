"""An Othello agent for gamelab's Python interface (adapters/othello/gamelab_othello.py):
take a corner when one is legal, avoid the cells next to an empty corner, otherwise play a
random move. A starting point to edit."""
import random

rng = random.Random(1)


def new_game(me, board, rules):
    rng.seed(1)


def choose_move(board, me, legal, time_ms):
    n = len(board)
    corners = {f"{c}{r}" for c in ("a", chr(ord("a") + n - 1)) for r in (1, n)}
    taken = [m for m in legal if m in corners]
    if taken:
        return taken[0]
    near = set()
    for m in corners:
        col, row = ord(m[0]) - ord("a"), int(m[1:]) - 1
        if board[row][col] == ".":
            for dc in (-1, 0, 1):
                for dr in (-1, 0, 1):
                    c, r = col + dc, row + dr
                    if 0 <= c < n and 0 <= r < n and (dc, dr) != (0, 0):
                        near.add(f"{chr(ord('a') + c)}{r + 1}")
    safe = [m for m in legal if m not in near]
    return rng.choice(safe or legal)
