"""Replays games of gamelab's Othello in OpenSpiel's `othello` and reports every disagreement.

Input (argument 1): JSON lines, one game each, as tests/openspiel.rs writes them:
  {"plies": [{"legal": ["d3", ...], "move": "d3"}, ...], "scores": [black, white],
   "winner": "first" | "second" | "draw"}
where "legal" is gamelab's legal move list before the move (`pass` when the side to move has no
move) and "move" the move gamelab played. At every ply the legal moves must be OpenSpiel's (by
name), the move legal there; after the last ply both must say the game is over, with the same
disc counts (read from OpenSpiel's board) and the same winner (OpenSpiel's returns).

Prints one summary line, "games G plies P disagreements D", then up to 10 disagreements, one a
line. Exit status 0 when D is 0, 1 otherwise, 2 when the input or pyspiel cannot be read.
"""

import json
import sys

try:
    import pyspiel
except ImportError as e:  # the caller says SKIPPED before it gets here
    print(f"pyspiel is not installed: {e}", file=sys.stderr)
    sys.exit(2)


def discs(state):
    """(black, white) discs on OpenSpiel's board, from its text form ('x' black, 'o' white)."""
    black = white = 0
    for line in str(state).splitlines()[2:-1]:
        cells = line.split()[1:-1]
        black += cells.count("x")
        white += cells.count("o")
    return black, white


def check(game, record, number):
    """The disagreements of one game, as text."""
    state = game.new_initial_state()
    out = []
    for ply, step in enumerate(record["plies"]):
        if state.is_terminal():
            return [f"game {number} ply {ply}: OpenSpiel says the game is over, gamelab moves {step['move']}"]
        player = state.current_player()
        names = {state.action_to_string(player, a): a for a in state.legal_actions()}
        ours = sorted(step["legal"])
        theirs = sorted(names)
        if ours != theirs:
            out.append(f"game {number} ply {ply}: legal moves differ: gamelab {ours}, OpenSpiel {theirs}")
            return out
        state.apply_action(names[step["move"]])
    if not state.is_terminal():
        return [f"game {number}: gamelab's game is over after {len(record['plies'])} plies, OpenSpiel's is not"]
    black, white = discs(state)
    if [black, white] != record["scores"]:
        out.append(f"game {number}: discs differ: gamelab {record['scores']}, OpenSpiel {[black, white]}")
    returns = state.returns()
    winner = "first" if returns[0] > returns[1] else "second" if returns[1] > returns[0] else "draw"
    if winner != record["winner"]:
        out.append(f"game {number}: winner differs: gamelab {record['winner']}, OpenSpiel {winner}")
    return out


def main():
    if len(sys.argv) != 2:
        print("usage: othello_check.py GAMES.jsonl", file=sys.stderr)
        sys.exit(2)
    game = pyspiel.load_game("othello")
    games = plies = 0
    disagreements = []
    try:
        with open(sys.argv[1]) as f:
            for number, line in enumerate(f, 1):
                record = json.loads(line)
                games += 1
                plies += len(record["plies"])
                disagreements.extend(check(game, record, number))
    except (OSError, ValueError, KeyError) as e:
        print(f"{sys.argv[1]}: {e}", file=sys.stderr)
        sys.exit(2)
    print(f"games {games} plies {plies} disagreements {len(disagreements)}")
    for d in disagreements[:10]:
        print(d)
    sys.exit(1 if disagreements else 0)


if __name__ == "__main__":
    main()
