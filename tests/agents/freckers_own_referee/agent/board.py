# The board of the course-style test agent: frogs and lily pads, updated by every action.
from referee.game import PlayerColor, Coord, Direction, MoveAction, GrowAction, BOARD_N

FORWARD = {
    PlayerColor.RED: (Direction.Down, Direction.DownLeft, Direction.DownRight, Direction.Left, Direction.Right),
    PlayerColor.BLUE: (Direction.Up, Direction.UpLeft, Direction.UpRight, Direction.Left, Direction.Right),
}


def inside(r, c):
    return 0 <= r < BOARD_N and 0 <= c < BOARD_N


class Board:
    def __init__(self):
        self.frogs = {PlayerColor.RED: {(0, c) for c in range(1, 7)}, PlayerColor.BLUE: {(7, c) for c in range(1, 7)}}
        self.pads = {(0, 0), (0, 7), (7, 0), (7, 7)} | {(r, c) for r in (1, 6) for c in range(1, 7)} | self.frogs[PlayerColor.RED] | self.frogs[PlayerColor.BLUE]

    def occupied(self, cell):
        return cell in self.frogs[PlayerColor.RED] or cell in self.frogs[PlayerColor.BLUE]

    def destination(self, start, directions):
        r, c = start
        if len(directions) == 1:
            n = (r + directions[0].r, c + directions[0].c)
            if not self.occupied(n):
                return n
        for d in directions:
            r, c = r + 2 * d.r, c + 2 * d.c
        return (r, c)

    def moves(self, color):
        out = []
        for (r, c) in sorted(self.frogs[color]):
            for d in FORWARD[color]:
                n = (r + d.r, c + d.c)
                if not inside(*n):
                    continue
                if self.occupied(n):
                    b = (n[0] + d.r, n[1] + d.c)
                    if inside(*b) and not self.occupied(b) and b in self.pads:
                        out.append(MoveAction(Coord(r, c), d))
                elif n in self.pads:
                    out.append(MoveAction(Coord(r, c), d))
        return out

    def apply(self, color, action):
        if isinstance(action, GrowAction):
            for (r, c) in list(self.frogs[color]):
                for dr in (-1, 0, 1):
                    for dc in (-1, 0, 1):
                        if inside(r + dr, c + dc):
                            self.pads.add((r + dr, c + dc))
            return
        start = (action.coord.r, action.coord.c)
        end = self.destination(start, action.directions)
        self.frogs[color].remove(start)
        self.pads.discard(start)
        self.frogs[color].add(end)
