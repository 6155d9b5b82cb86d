"""Every xtarot game as an OpenSpiel Python game (``pip install "xtarot[openspiel]"``).

Importing this module registers, for every game of ``xtarot.games()``, a game with
``pyspiel.register_game`` under ``xtarot_<id with _ for ->`` (``xtarot_sono_arcana``,
``xtarot_fairy500``, ...).  Parameters: ``players`` (default: the game's largest count)
and every option of the game; an option whose default is "not set" (``None``) takes
``0`` (whole numbers) or ``""`` (text) for "not set".

>>> import pyspiel
>>> import xtarot.adapters.openspiel
>>> game = pyspiel.load_game("xtarot_matto", {"players": 3})
>>> game.num_distinct_actions(), game.num_players()
(80, 3)

The chance model: a match starts with :data:`SEED_NODES` chance nodes of 256 equally
likely outcomes each (one byte each, big-endian) that draw the match seed; the engine
then plays ``game.new_state(seed=seed)``, which fixes every deal of the match, later
hands included.  So a state is determined by its OpenSpiel history and
``serialize()`` / ``deserialize_state`` replay it exactly.

Returns are terminal only and rank-based: seat ``i`` gets ``(b - a) / (n - 1)`` where
``b`` seats finished strictly below it and ``a`` strictly above (``1`` for a lone
winner, ``-1`` for a lone last), so they lie in ``[-1, 1]``.  The game's own points
are in ``state.engine.scores()``.

Information-state strings hold the seat's view (JSON) and every action so far as that
seat saw it (``engine.action_seen_by``: hidden moves masked); observation strings hold
the view only.  Tensors come from :mod:`xtarot.adapters.tensors`; the information-state
tensor appends, per relative seat, the actions the seat saw in full (multi-hot over the
action ids) and the count of masked moves (/100).

:class:`XtarotBot` makes any xtarot agent an OpenSpiel bot (``pyspiel.Bot``): it
hands the agent ``decision_for(state.engine)`` — the seat's view and a world sampler.

``resample_from_infostate(player, sampler)`` wraps ``engine.sample_world(player, rng)``
(``rng`` seeded from the sampler alone).  A resampled state carries nothing of the true
match beyond the seat's view: not its seed bytes (it has none: ``history()`` is empty),
not its later hands (they come from the world's own seed, drawn from ``rng``).  Its
``serialize()`` writes the world's engine record, which ``deserialize_state`` replays.
Before the seed is drawn, a resampled state draws as many fresh seed bytes from ``rng``
as the true one has drawn (the seats never see them).
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pyspiel

import xtarot
from xtarot.adapters.tensors import encoder_for
from xtarot.agents import Agent, decision_for, make_agent
from xtarot.engine.core import Game, GameInfo, Option, State

__all__ = [
    "SEED_NODES",
    "XtarotBot",
    "XtarotGame",
    "XtarotState",
    "max_game_length",
    "short_name",
]

#: chance nodes (one byte each) that draw the match seed
SEED_NODES = 4

#: per-game bound on the player moves of one hand, as a function of the game
_HAND_BOUND = {
    "sono-arcana": lambda g: 60 * g.players,
    "matto": lambda g: 600,
    "arcana-duel": lambda g: 1500,
    "grail-mahjong": lambda g: 200 * g.players,
    "extendori": lambda g: 400,
    "fairy500": lambda g: 200,
}


def short_name(game_id: str) -> str:
    """The OpenSpiel short name of a game id: ``sono-arcana`` -> ``xtarot_sono_arcana``."""
    return "xtarot_" + game_id.replace("-", "_")


def max_game_length(game: Game) -> int:
    """An upper bound on the player moves of a whole match (without the chance nodes).

    A match without a fixed number of hands (a target score) is capped at 200 hands.
    """
    per_hand = _HAND_BOUND.get(game.id, lambda g: 5000)(game)
    hands = game.options.get("hands", 1 if game.id not in ("extendori", "fairy500") else None)
    if game.id == "extendori" and hands is None and game.options.get("target_score") is None:
        hands = game.players
    if game.id == "grail-mahjong":
        hands = game.options["hands"]
    if not isinstance(hands, int):
        hands = 200
    return per_hand * hands


def _param_default(opt: Option) -> Any:
    if opt.default is None:
        return 0 if opt.kind is int else ("" if opt.kind is str else False)
    return opt.default


def _option_value(opt: Option, value: Any) -> Any:
    if opt.default is None and value in (0, "") and not isinstance(value, bool):
        return None
    return value


def _game_type(info: GameInfo) -> pyspiel.GameType:
    params: dict[str, Any] = {"players": info.max_players}
    for opt in info.options:
        params[opt.name] = _param_default(opt)
    return pyspiel.GameType(
        short_name=short_name(info.id),
        long_name=f"xtarot {info.name_en} ({info.name_ja})",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=info.max_players,
        min_num_players=info.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


class XtarotGame(pyspiel.Game):
    """One xtarot game configuration as an OpenSpiel game (``self.engine`` is the Game)."""

    #: the game's xtarot GameInfo (set on each registered subclass)
    info: GameInfo

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        info = self.info
        params = dict(params or {})
        players = int(params.pop("players", info.max_players))
        options = {
            opt.name: _option_value(opt, params[opt.name])
            for opt in info.options
            if opt.name in params
        }
        self.engine: Game = xtarot.load(info.id, players=players, **options)
        self.encoder = encoder_for(self.engine)
        game_info = pyspiel.GameInfo(
            num_distinct_actions=self.engine.num_actions,
            max_chance_outcomes=256,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=SEED_NODES + max_game_length(self.engine),
        )
        full = {"players": players}
        full.update({opt.name: _param_default(opt) for opt in info.options})
        full.update({k: v for k, v in params.items()})
        super().__init__(_TYPES[info.id], game_info, full)

    def new_initial_state(self) -> XtarotState:
        return XtarotState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> _Observer:
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return _Observer(self, perfect_recall)

    def deserialize_state(self, text: str) -> XtarotState:
        data = json.loads(text)
        state = XtarotState(self)
        if "record" in data:
            # a resampled world; the ``bytes`` an older version wrote beside the record
            # (the true match's seed) are not read back
            state._adopt(xtarot.replay(data["record"], upto=0), data["record"]["actions"])
            return state
        for a in data["history"]:
            state.apply_action(a)
        return state


class XtarotState(pyspiel.State):
    """A match in progress; ``self.engine`` is the xtarot State once the seed is drawn."""

    def __init__(self, game: XtarotGame) -> None:
        super().__init__(game)
        self._xg: Game = game.engine  # (deep copies share it; no pyspiel object here)
        self._enc = game.encoder
        self._n = game.engine.players
        self._bytes: list[int] = []
        self.engine: State | None = None
        # per seat: (actor, action id or -1 when masked, text as seen)
        self._seen: list[list[tuple[int, int, str]]] = [[] for _ in range(self._n)]
        # the same, kept ready for the information-state tensor: per seat the positions
        # ``relative actor * num_actions + id`` of moves seen in full, and per seat and
        # relative actor the number of masked moves
        self._seen_at: list[set[int]] = [set() for _ in range(self._n)]
        self._masked: list[list[int]] = [[0] * self._n for _ in range(self._n)]
        self._resampled = False

    # -- the OpenSpiel state API -----------------------------------------------------
    def current_player(self) -> int:
        if self.engine is None:
            return pyspiel.PlayerId.CHANCE
        seat = self.engine.current_player
        return pyspiel.PlayerId.TERMINAL if seat is None else seat

    def _legal_actions(self, player: int) -> list[int]:
        assert self.engine is not None
        if player != self.engine.current_player:
            return []
        return sorted([a.id for a in self.engine.legal_actions()])

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(i, 1.0 / 256) for i in range(256)]

    def _apply_action(self, action: int) -> None:
        if self.engine is None:
            self._bytes.append(int(action))
            if len(self._bytes) == SEED_NODES:
                seed = int.from_bytes(bytes(self._bytes), "big")
                self.engine = self._xg.new_state(seed=seed)
            return
        self._apply_engine(self.engine, self._xg.actions[int(action)])

    def _apply_engine(self, engine: State, act: Any) -> None:
        actor = engine.current_player
        assert actor is not None
        n = self._n
        width = self._xg.num_actions
        for seat in range(n):
            text = engine.action_seen_by(act, seat)
            rel = (actor - seat) % n
            if text == act.text:
                self._seen[seat].append((actor, act.id, text))
                self._seen_at[seat].add(rel * width + act.id)
            else:
                self._seen[seat].append((actor, -1, text))
                self._masked[seat][rel] += 1
        engine.apply(act)

    def _adopt(self, start: State, actions: list[str]) -> None:
        """Take ``start`` as the engine state and replay ``actions`` on it."""
        self.engine = start
        self._resampled = True
        for text in actions:
            self._apply_engine(start, self._xg.action(text))

    # -- tensors, straight from Python -------------------------------------------------
    def information_state_tensor(self, *args: Any) -> list[float]:
        """The information-state tensor of ``player`` (default: the seat to act).

        Called from Python this builds the list directly: the same floats as
        OpenSpiel's own path (the game's observer filling a float32 buffer), without
        that path's fixed costs (a new initial state per call to learn the shape, a
        copy of every slice, a conversion of the whole buffer).  Chance nodes, bad
        seats and terminal defaults go to OpenSpiel's own path unchanged.
        """
        player = self._tensor_seat(args)
        if player is None:
            return pyspiel.State.information_state_tensor(self, *args)  # type: ignore[no-any-return]
        enc = self._enc
        n = self._n
        width = self._xg.num_actions
        base = enc.size
        out = enc.encode_state_list(self.engine, player, base + n * width + n)  # type: ignore[arg-type]
        for at in self._seen_at[player]:
            out[base + at] = 1.0
        base += n * width
        for rel, count in enumerate(self._masked[player]):
            if count:
                out[base + rel] = _masked_value(count)
        return out

    def observation_tensor(self, *args: Any) -> list[float]:
        """The observation tensor of ``player`` (default: the seat to act), built
        directly as :meth:`information_state_tensor` is (the view part alone)."""
        player = self._tensor_seat(args)
        if player is None:
            return pyspiel.State.observation_tensor(self, *args)  # type: ignore[no-any-return]
        return self._enc.encode_state_list(self.engine, player)  # type: ignore[arg-type]

    def _tensor_seat(self, args: tuple[Any, ...]) -> int | None:
        """The seat a tensor call asks for, or ``None`` when OpenSpiel's own path
        should answer (no engine yet, a chance or terminal player, a bad argument)."""
        engine = self.engine
        if engine is None or len(args) > 1:
            return None
        player = args[0] if args else engine.current_player
        if player.__class__ is not int or not 0 <= player < self._n:
            return None
        return player  # type: ignore[no-any-return]

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed byte {action}"
        return self._xg.actions[action].text

    def is_terminal(self) -> bool:
        return self.engine is not None and self.engine.is_terminal

    def returns(self) -> list[float]:
        n = self._n
        if self.engine is None or not self.engine.is_terminal:
            return [0.0] * n
        ranks = self.engine.scores().ranks
        return [
            (sum(1 for r in ranks if r > mine) - sum(1 for r in ranks if r < mine)) / (n - 1)
            for mine in ranks
        ]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> XtarotState:
        """A state of a world drawn by ``engine.sample_world`` for ``player_id``.

        It is built from the seat's knowledge and ``probability_sampler`` alone: the
        world's deals, hidden moves and seed (hence its later hands) come from a
        generator seeded by the sampler, and it keeps none of this state's seed bytes.
        Before the seed is drawn (a chance node) it draws the same number of bytes
        afresh, as the seats have seen only how many were drawn.
        """
        try:
            rng = random.Random(int(probability_sampler() * 2**53))
        except TypeError:
            rng = random.Random()
        state = XtarotState(self.get_game())
        if self.engine is None:
            for _ in self._bytes:
                state.apply_action(rng.randrange(256))
            return state
        world = self.engine.sample_world(player_id, rng)
        record = world.record()
        state._adopt(xtarot.replay(record, upto=0), record["actions"])
        return state

    def serialize(self) -> str:
        if self._resampled and self.engine is not None:
            return json.dumps({"record": self.engine.record()})
        return json.dumps({"history": [int(a) for a in self.history()]})

    def __str__(self) -> str:
        if self.engine is None:
            return f"{self._xg!r}: drawing the seed, bytes {self._bytes}"
        snap = self.engine.snapshot()
        return f"{self._xg!r}\n{json.dumps(snap, sort_keys=True, default=str)}"


def _masked_value(count: int) -> float:
    """``count`` masked moves as the tensor has always held them: 0.01 added ``count``
    times in float32 (so a table, not ``count * 0.01``)."""
    while len(_MASKED) <= count:
        _MASKED.append(np.float32(_MASKED[-1]) + np.float32(0.01))
    return float(_MASKED[count])


_MASKED: list[np.float32] = [np.float32(0.0)]


class _Observer:
    """Strings and tensors of one seat, from its view (and seen history) only.

    ``tensor`` is one buffer, refilled in place by ``set_from``: the view part by the
    game's encoder straight from the engine state (no JSON copy), the seen-moves part
    from the positions the state keeps up to date as moves are applied.
    """

    def __init__(self, game: XtarotGame, perfect_recall: bool) -> None:
        self._game = game
        self._recall = perfect_recall
        enc = self._encoder = game.encoder
        n = game.engine.players
        a = game.engine.num_actions
        self._obs_size = enc.size
        extra = n * a + n if perfect_recall else 0
        self.tensor = np.zeros(enc.size + extra, np.float32)
        self._obs = self.tensor[: enc.size]
        self._extra = self.tensor[enc.size :]
        self.dict: dict[str, np.ndarray] = {}
        for name, start, size, _kind, _meaning in enc.layout():
            self.dict[name] = self.tensor[start : start + size]
        if perfect_recall:
            base = enc.size
            self._seen_flat = self.tensor[base : base + n * a]
            self._masked_moves = self.tensor[base + n * a :]
            self.dict["seen_actions"] = self._seen_flat.reshape(n, a)
            self.dict["masked_moves"] = self._masked_moves

    def set_from(self, state: XtarotState, player: int) -> None:
        engine = state.engine
        if engine is None:
            self.tensor.fill(0.0)
            return
        self._encoder.encode_state(engine, player, self._obs)
        if self._recall:
            self._extra.fill(0.0)
            at = state._seen_at[player]
            if at:
                self._seen_flat[np.fromiter(at, np.intp, len(at))] = 1.0
            for rel, count in enumerate(state._masked[player]):
                if count:
                    self._masked_moves[rel] = _masked_value(count)

    def string_from(self, state: XtarotState, player: int) -> str:
        engine = state.engine
        if engine is None:
            return f"seat {player}: drawing the seed ({len(state._bytes)}/{SEED_NODES})"
        text = json.dumps(engine.view(player), sort_keys=True, separators=(",", ":"))
        if not self._recall:
            return f"seat {player} {text}"
        moves = "|".join(f"{actor}:{seen}" for actor, _aid, seen in state._seen[player])
        return f"seat {player} {text}\n{moves}"


class XtarotBot(pyspiel.Bot):
    """An xtarot agent playing as an OpenSpiel bot on the registered ``xtarot_*`` games.

    ``agent`` is a bot name for :func:`xtarot.agents.make_agent` (with ``seed`` and
    ``settings``) or an agent instance.  ``step(state)`` takes the ``XtarotState`` of
    the seat to act and asks the agent with ``decision_for(state.engine)``: the seat's
    view, its legal actions and a world sampler, never the hidden cards.  It returns
    the action id.  Works with ``pyspiel.evaluate_bots`` and
    ``open_spiel.python.algorithms.evaluate_bots``.

    ``player_id`` (optional) pins the seat: stepping a state where another seat is to
    act is then an error.  The bot keeps no state between moves, so ``restart_at`` and
    ``inform_action`` do nothing; ``step_with_policy`` returns the chosen action with
    probability 1 (``provides_policy()`` is ``False``: the agents do not expose one).
    """

    def __init__(
        self,
        agent: str | Agent,
        player_id: int | None = None,
        seed: int | None = None,
        **settings: Any,
    ) -> None:
        pyspiel.Bot.__init__(self)
        if isinstance(agent, str):
            self.agent: Agent = make_agent(agent, seed, **settings)
        elif isinstance(agent, Agent):
            if seed is not None or settings:
                raise ValueError(
                    "seed and settings go with a bot name (XtarotBot('ismcts', seed=1, "
                    "iterations=200)); an agent instance is used as it is"
                )
            self.agent = agent
        else:
            raise TypeError(
                f"XtarotBot needs a bot name or an xtarot agent, got {type(agent).__name__}"
            )
        self._player_id = player_id

    def player_id(self) -> int:
        """The pinned seat, or ``-1`` when the bot plays whichever seat is to act."""
        return -1 if self._player_id is None else self._player_id

    def step(self, state: pyspiel.State) -> int:
        engine = _engine_of(state)
        seat = engine.current_player
        if self._player_id is not None and seat != self._player_id:
            raise ValueError(f"this bot plays seat {self._player_id}, but seat {seat} is to act")
        return int(self.agent.act(decision_for(engine)).id)

    def step_with_policy(self, state: pyspiel.State) -> tuple[list[tuple[int, float]], int]:
        action = self.step(state)
        return [(action, 1.0)], action

    def provides_policy(self) -> bool:
        return False

    def restart_at(self, state: pyspiel.State) -> None:
        pass

    def restart(self) -> None:
        pass

    def inform_action(self, state: pyspiel.State, player_id: int, action: int) -> None:
        pass

    def inform_actions(self, state: pyspiel.State, actions: list[int]) -> None:
        pass

    def is_clonable(self) -> bool:
        return False


def _engine_of(state: Any) -> State:
    """The xtarot state inside an OpenSpiel state of an ``xtarot_*`` game."""
    if not isinstance(state, XtarotState):
        name = state.get_game().get_type().short_name if hasattr(state, "get_game") else "?"
        raise TypeError(
            f"an xtarot bot plays the registered xtarot_* games, not {name!r} "
            f"({type(state).__name__})"
        )
    engine = state.engine
    if engine is None:
        raise ValueError("the match seed is still being drawn: a chance node, no seat to act")
    if engine.is_terminal:
        raise ValueError("the match is over: no seat to act")
    return engine


_TYPES: dict[str, pyspiel.GameType] = {}


def _register() -> None:
    registered = set(pyspiel.registered_names())
    for info in xtarot.games():
        name = short_name(info.id)
        _TYPES[info.id] = game_type = _game_type(info)
        if name in registered:
            continue

        cls = type(
            "Xtarot" + info.id.title().replace("-", "") + "Game",
            (XtarotGame,),
            {"info": info, "__module__": __name__},
        )
        globals()[cls.__name__] = cls
        pyspiel.register_game(game_type, cls)


_register()
