"""Calibration aid for the Colosseum reports' budgets (see experiments/colosseum-sims-per-node.toml).

The reports' agents ran in Python under the course's 2 s per move. This script measures how many
random playouts per second a plain Python implementation in the style of the course's starter
code plays: numpy wall array chess_board[r, c, side], the random agent's walk (random_agent.py)
for both sides, and check_endgame's union-find over all cells after every move (world.py).
Run: python3 tools/colosseum-py-playouts.py [seconds]
"""
import random
import sys
import time

import numpy as np

MOVES = ((-1, 0), (0, 1), (1, 0), (0, -1))
OPPOSITES = {0: 2, 1: 3, 2: 0, 3: 1}


def setup(m):
    while True:
        board = np.zeros((m, m, 4), dtype=bool)
        board[0, :, 0] = True
        board[:, 0, 3] = True
        board[-1, :, 2] = True
        board[:, -1, 1] = True
        k = (m + 1) // 2
        for _ in range(k):
            r, c, d = np.random.randint(0, m), np.random.randint(0, m), np.random.randint(0, 4)
            while board[r, c, d]:
                r, c, d = np.random.randint(0, m), np.random.randint(0, m), np.random.randint(0, 4)
            place(board, r, c, d)
            place(board, m - 1 - r, m - 1 - c, OPPOSITES[d])
        a = (np.random.randint(0, m), np.random.randint(0, m))
        b = (m - 1 - a[0], m - 1 - a[1])
        if a != b and not check_endgame(board, a, b)[0]:
            return board, a, b, k


def place(board, r, c, d):
    board[r, c, d] = True
    mr, mc = MOVES[d]
    if 0 <= r + mr < board.shape[0] and 0 <= c + mc < board.shape[0]:
        board[r + mr, c + mc, OPPOSITES[d]] = True


def check_endgame(board, p0, p1):
    m = board.shape[0]
    father = {(r, c): (r, c) for r in range(m) for c in range(m)}

    def find(pos):
        if father[pos] != pos:
            father[pos] = find(father[pos])
        return father[pos]

    for r in range(m):
        for c in range(m):
            for d, (mr, mc) in enumerate(MOVES[1:3]):
                if board[r, c, d + 1]:
                    continue
                pa, pb = find((r, c)), find((r + mr, c + mc))
                if pa != pb:
                    father[pa] = pb
    for r in range(m):
        for c in range(m):
            find((r, c))
    r0, r1 = find(tuple(p0)), find(tuple(p1))
    s0 = list(father.values()).count(r0)
    s1 = list(father.values()).count(r1)
    return r0 != r1, s0, s1


def random_step(board, my_pos, adv_pos, k):
    ori = my_pos
    steps = np.random.randint(0, k + 1)
    for _ in range(steps):
        r, c = my_pos
        d = np.random.randint(0, 4)
        mr, mc = MOVES[d]
        my_pos = (r + mr, c + mc)
        tries = 0
        while board[r, c, d] or my_pos == adv_pos:
            tries += 1
            if tries > 300:
                break
            d = np.random.randint(0, 4)
            mr, mc = MOVES[d]
            my_pos = (r + mr, c + mc)
        if tries > 300:
            my_pos = ori
            break
    d = np.random.randint(0, 4)
    r, c = my_pos
    while board[r, c, d]:
        d = np.random.randint(0, 4)
    return my_pos, d


def playout(board, a, b, k):
    board = board.copy()
    pos = [a, b]
    turn = 0
    while True:
        p, d = random_step(board, pos[turn], pos[1 - turn], k)
        pos[turn] = p
        place(board, p[0], p[1], d)
        over, _, _ = check_endgame(board, pos[0], pos[1])
        if over:
            return
        turn = 1 - turn


if __name__ == "__main__":
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    np.random.seed(1)
    random.seed(1)
    for m in (6, 8, 10, 12):
        starts = [setup(m) for _ in range(16)]
        t0 = time.time()
        n = 0
        while time.time() - t0 < seconds:
            playout(*starts[n % len(starts)])
            n += 1
        rate = n / (time.time() - t0)
        print(f"python {sys.version.split()[0]}, {m}x{m}: {rate:.0f} playouts/s, {2 * rate:.0f} in 2 s")
