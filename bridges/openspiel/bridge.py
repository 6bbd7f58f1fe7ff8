"""gamelab's OpenSpiel bridge: OpenSpiel's games and bots for gamelab's runner (src/game/openspiel).

gamelab starts one bridge per worker thread and game (`python bridge.py`, the interpreter from
GAMELAB_PYTHON or the repository's .venv) and speaks JSON lines: one request a line on standard
input, one answer a line on standard output. Every request names the game (OpenSpiel's game
string, e.g. "connect_four" or "breakthrough(rows=6,columns=6)") and a state by its history, the
actions from the initial state (chance outcomes included), so a request never depends on the
ones before it: gamelab's rows do not depend on which bridge answered. States are cached, so a
game played move by move costs one `apply_action` a move.

Requests and answers:
  {"op": "load", "game": G}
      -> {"players": 2, "chance": bool}   two-player zero-sum sequential perfect-information
                                           games only, else {"error": ...}
  {"op": "state", "game": G, "history": [a...], "seed": S}
      -> {"history": [a...], "player": p, "legal": [a...], "names": [...],
          "terminal": bool, "returns": [r0, r1]}
         chance nodes after `history` are resolved first, each outcome drawn with a generator
         seeded by (S, its place in the history), and their actions added to "history"
  {"op": "bot", "game": G, "history": [a...] | "names": [n...], "bot": SPEC, "seed": S}
      -> {"action": a, "name": n}   the bot's choice for the player to move (not applied);
         "names": the line as action names from the initial state (gamelab's own Othello)
  {"op": "show", "game": G, "history": [a...]} -> {"text": str(state)}
  {"op": "engine", "game": G, "history": [a...], "dialect": "uci" | "gtp"}
      -> {"start": "startpos" | "fen F", "line": [m...], "legal": [m...], "to_move": c,
          "board_size": n, "komi": k}
         the position as another program's protocol tells it (src/agent/external/engine.rs):
         UCI (chess): the start and the moves since in long algebraic notation (e2e4, e1g1,
         e7e8q); GTP (go): board size, komi, the moves since as "B d4" / "W pass", the colour
         to move ("b" or "w"); "legal": the legal moves in that notation, in the order of the
         state's legal actions
  anything that fails -> {"error": "..."}
SPEC: {"kind": "random"} | {"kind": "mcts", "uct_c": C, "max_simulations": N, "rollouts": R,
       "solve": bool} | {"kind": "alphabeta"} (exact alpha-beta to the end: small games only)
A bot is built afresh for every move, seeded by S, so its choice depends only on (S, state).
"""

import collections
import difflib
import json
import random
import sys

try:
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import minimax
except ImportError as e:
    sys.stdout.write(json.dumps({"error": f"cannot import OpenSpiel ({e}): make openspiel installs it"}) + "\n")
    sys.stdout.flush()
    sys.exit(3)

STATE_CACHE = 512
# The C++ MCTSBot's tree limit: past it the bot prunes its tree (OpenSpiel's own default in
# its examples is 1,000 MB; a move of 100,000 simulations on Othello stays far below).
MCTS_MEMORY_MB = 1000
SEED_MOD = 2**31 - 1
# Chess's standard start, which UCI calls `startpos`.
CHESS_START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def mix(*parts):
    """A 31-bit seed from integers (numpy and OpenSpiel's bots take 32-bit seeds)."""
    h = 1469598103934665603
    for p in parts:
        h = ((h ^ (p & 0xFFFFFFFFFFFFFFFF)) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return h % SEED_MOD


class Bridge:
    def __init__(self):
        self.games = {}
        self.states = collections.OrderedDict()

    def game(self, name):
        g = self.games.get(name)
        if g is None:
            try:
                g = pyspiel.load_game(name)
            except pyspiel.SpielError as e:
                first = str(e).strip().splitlines()[0]
                if first.startswith("Unknown game"):
                    short = name.split("(")[0]
                    close = difflib.get_close_matches(short, pyspiel.registered_names(), n=3)
                    hint = f"did you mean {' or '.join(close)}?" if close else \
                        "pyspiel.registered_names() lists them"
                    raise ValueError(f"OpenSpiel has no game '{short}' ({hint})") from None
                raise
            t = g.get_type()
            if (g.num_players() != 2 or t.utility != pyspiel.GameType.Utility.ZERO_SUM
                    or t.information != pyspiel.GameType.Information.PERFECT_INFORMATION
                    or t.dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL):
                raise ValueError(f"{name}: gamelab plays two-player zero-sum sequential "
                                 "perfect-information games; this one is not")
            self.games[name] = g
        return g

    def state(self, name, history, seed=None):
        """The state after `history`, chance resolved when `seed` is given (then the history
        grows by the outcomes drawn)."""
        key = (name, tuple(history))
        s = self.states.get(key)
        if s is None:
            # From the longest cached prefix (a loop, not recursion: games may be long).
            n = len(history) - 1
            while n >= 0 and (name, tuple(history[:n])) not in self.states:
                n -= 1
            if n >= 0:
                s = self.states[(name, tuple(history[:n]))].clone()
            else:
                s, n = self.game(name).new_initial_state(), 0
            for a in history[n:]:
                s.apply_action(a)
            self.remember(key, s)
        else:
            self.states.move_to_end(key)
        if seed is not None and s.is_chance_node():
            history = list(history)
            while s.is_chance_node():
                actions, probs = zip(*s.chance_outcomes())
                rng = np.random.RandomState(mix(seed, len(history)))
                a = int(actions[rng.choice(len(actions), p=probs)])
                s = s.clone()
                s.apply_action(a)
                history.append(a)
                self.remember((name, tuple(history)), s)
        return s

    def remember(self, key, s):
        self.states[key] = s
        if len(self.states) > STATE_CACHE:
            self.states.popitem(last=False)

    def load(self, req):
        g = self.game(req["game"])
        t = g.get_type()
        return {"players": 2, "chance": t.chance_mode != pyspiel.GameType.ChanceMode.DETERMINISTIC}

    def info(self, req):
        s = self.state(req["game"], req["history"], req["seed"])
        out = {"history": s.history(), "terminal": s.is_terminal()}
        if s.is_terminal():
            out["returns"] = s.returns()
        else:
            p = s.current_player()
            legal = s.legal_actions()
            out.update(player=p, legal=legal, names=[s.action_to_string(p, a) for a in legal])
        return out

    def by_names(self, name, names):
        s = self.game(name).new_initial_state()
        for n in names:
            legal = {s.action_to_string(s.current_player(), a): a for a in s.legal_actions()}
            if n not in legal:
                raise ValueError(f"move {n!r} is not legal in OpenSpiel's {name} there")
            s.apply_action(legal[n])
        return s

    def bot(self, req):
        name = req["game"]
        s = self.by_names(name, req["names"]) if "names" in req else self.state(name, req["history"])
        spec, seed = req["bot"], req["seed"]
        player = s.current_player()
        kind = spec["kind"]
        if kind == "random":
            legal = s.legal_actions()
            a = legal[random.Random(mix(seed)).randrange(len(legal))]
        elif kind == "mcts":
            # OpenSpiel's C++ MCTSBot and random-rollout evaluator (pyspiel), about three times
            # the simulations a second of its Python port (open_spiel.python.algorithms.mcts),
            # with the same parameters; the evaluator and the bot take their own seeds.
            evaluator = pyspiel.RandomRolloutEvaluator(spec["rollouts"], mix(seed, 1))
            bot = pyspiel.MCTSBot(self.game(name), evaluator, spec["uct_c"], spec["max_simulations"],
                                  MCTS_MEMORY_MB, spec["solve"], mix(seed, 2), False)
            a = bot.step(s)
        elif kind == "alphabeta":
            _, a = minimax.alpha_beta_search(self.game(name), state=s.clone(),
                                             maximizing_player_id=player)
        else:
            raise ValueError(f"unknown bot kind {kind!r}")
        return {"action": int(a), "name": s.action_to_string(player, a)}

    def engine(self, req):
        name, dialect = req["game"], req["dialect"]
        g = self.game(name)
        short = g.get_type().short_name
        want = {"uci": "chess", "gtp": "go"}.get(dialect)
        if want is None:
            raise ValueError(f"no engine protocol {dialect!r}")
        if short != want:
            raise ValueError(f"{dialect.upper()} engines play OpenSpiel's {want}; this game is {short}")
        s = g.new_initial_state()
        out = {"line": []}
        if dialect == "uci":
            fen = str(s)
            out["start"] = "startpos" if fen == CHESS_START else f"fen {fen}"
            lan = lambda st, a: pyspiel.chess.action_to_move(a, st.board()).to_lan()
        else:
            params = g.get_parameters()
            out["board_size"] = int(params.get("board_size", 19))
            out["komi"] = float(params.get("komi", 7.5))
            lan = lambda st, a: st.action_to_string(st.current_player(), a)
        for a in req["history"]:
            out["line"].append(lan(s, a))
            s.apply_action(a)
        if not s.is_terminal():
            legal = [lan(s, a) for a in s.legal_actions()]
            if dialect == "gtp":
                # "B d4" -> "d4", "B PASS" -> "pass": a GTP vertex, lower case.
                legal = [m.split(" ", 1)[-1].lower() for m in legal]
                out["to_move"] = "b" if s.current_player() == 0 else "w"
            out["legal"] = legal
        return out

    def parse(self, req):
        """The legal action a move written by a person names at `history`: by its action string
        or, in chess, its UCI (long algebraic) form, either without check and annotation marks
        (`Qh5` for OpenSpiel's `Qh5+`, `e4!`, `0-0` for `O-O`); None when none does."""
        s = self.state(req["game"], req["history"])
        if s.is_terminal():
            return {"action": None}
        bare = lambda m: m.strip().rstrip("+#!?").replace("0-0", "O-O")
        want = bare(req["move"])
        chess = self.game(req["game"]).get_type().short_name == "chess"
        p = s.current_player()
        for a in s.legal_actions():
            if bare(s.action_to_string(p, a)) == want:
                return {"action": int(a)}
            if chess and pyspiel.chess.action_to_move(a, s.board()).to_lan() == want.lower():
                return {"action": int(a)}
        return {"action": None}

    def show(self, req):
        return {"text": str(self.state(req["game"], req["history"]))}


def main():
    b = Bridge()
    ops = {"load": b.load, "state": b.info, "bot": b.bot, "show": b.show, "engine": b.engine,
           "parse": b.parse}
    for line in sys.stdin:
        try:
            req = json.loads(line)
            out = ops[req["op"]](req)
        except Exception as e:  # noqa: BLE001 - gamelab turns it into an error naming the request
            out = {"error": f"{type(e).__name__}: {str(e).strip().splitlines()[0] if str(e).strip() else ''}"}
        sys.stdout.write(json.dumps(out) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
