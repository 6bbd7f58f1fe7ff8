"""A small Othello engine speaking GTP as Edax's -gtp mode does (boardsize 8, clear_board,
play b d3 / play w pass, genmove b|w answered by a vertex or pass): it plays the legal move that
flips the most discs, ties to the first in row-major order (a1, b1, ..., h8). For gamelab's tests
of kind = "gtp" on Othello (tests/engines.rs); `--illegal` answers genmove with a taken square."""
import sys

DIRS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def start():
    b = [["."] * 8 for _ in range(8)]
    b[3][3], b[4][4], b[3][4], b[4][3] = "w", "w", "b", "b"
    return b


def flips(b, r, c, me):
    if b[r][c] != ".":
        return []
    them = "w" if me == "b" else "b"
    out = []
    for dr, dc in DIRS:
        line, rr, cc = [], r + dr, c + dc
        while 0 <= rr < 8 and 0 <= cc < 8 and b[rr][cc] == them:
            line.append((rr, cc))
            rr, cc = rr + dr, cc + dc
        if line and 0 <= rr < 8 and 0 <= cc < 8 and b[rr][cc] == me:
            out += line
    return out


def vertex(r, c):
    return "abcdefgh"[c] + str(r + 1)


def main():
    illegal = "--illegal" in sys.argv
    board = start()
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        cmd, args = words[0], words[1:]
        answer = ""
        if cmd == "protocol_version":
            answer = "2"
        elif cmd == "name":
            answer = "gtp_othello"
        elif cmd == "version":
            answer = "1"
        elif cmd == "boardsize":
            if args != ["8"]:
                print("? unacceptable size\n", flush=True)
                continue
        elif cmd == "clear_board":
            board = start()
        elif cmd == "play":
            me, v = args[0].lower(), args[1].lower()
            if v != "pass":
                r, c = int(v[1:]) - 1, "abcdefgh".index(v[0])
                taken = flips(board, r, c, me)
                if not taken:
                    print("? illegal move\n", flush=True)
                    continue
                board[r][c] = me
                for rr, cc in taken:
                    board[rr][cc] = me
        elif cmd == "genmove":
            me = args[0].lower()
            best = None
            for r in range(8):
                for c in range(8):
                    n = len(flips(board, r, c, me))
                    if n and (best is None or n > best[0]):
                        best = (n, r, c)
            if illegal:
                answer = "d4"
            elif best is None:
                answer = "pass"
            else:
                _, r, c = best
                for rr, cc in flips(board, r, c, me):
                    board[rr][cc] = me
                board[r][c] = me
                answer = vertex(r, c).upper()
        elif cmd == "quit":
            print("=\n", flush=True)
            return
        elif cmd in ("komi", "time_settings", "time_left"):
            pass
        else:
            print("? unknown command\n", flush=True)
            continue
        print("= " + answer + "\n", flush=True)


main()
