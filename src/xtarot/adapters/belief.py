"""Card-location (belief) models: where is each card a seat has not seen?

From a seat's view — ``state.view(seat)``, nothing else — a :class:`BeliefModel`
gives, for every card of the game, the probability that
it lies in each *hidden location*: another seat's hand (seat-relative: ``hand:+1`` is
the next seat), the kitty, the stock, a face-down pile… whatever the game hides.
``xtarot train belief`` (``xtarot.cli.train``) makes one; the documentation is in
``docs/agents.md`` (*The belief model*).

Generic over the games: the hidden locations of a game configuration are found by
comparing the true position with worlds drawn by ``state.sample_world`` (a location
is hidden when some card lies there in one and elsewhere in the other); the training
target of a position is ``state.zones()`` — known while training only, never an input.

A card's logit at a place mixes the uniform sampler's own estimate (how many of 16
``sample_world`` worlds put it there, and how many cards the place holds) with a learned
part: a bias per card and place, and one small network shared by every card and place,
on what the place's seat (and the acting seat, and the others) has publicly done with
cards related to that card — led, followed above or below, played off-suit, bid,
discarded, melded (:mod:`xtarot.adapters.belief_events`, read from the view).  Its
probabilities are the softmax over the places that hold hidden cards.  Trained with
Adam on the cross-entropy of the true places, in numpy (no other dependency:
docs/agents.md says why), and run in numpy.

Weighted worlds: :meth:`BeliefModel.log_weight` scores a sampled world by the learned
part of the logits of the hidden cards' places in it, for
``xtarot.engine.sample_world_weighted`` (which only ever returns consistent worlds);
:func:`weighted_decision` hands such worlds to any search bot.
"""

from __future__ import annotations

import io
import itertools
import json
import random
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from xtarot._version import __version__
from xtarot.adapters.belief_events import KINDS, RELATIONS, SEAT_FACTS, SUIT_KINDS, Events
from xtarot.adapters.modelfile import read_model, write_model
from xtarot.adapters.tensors import encoder_for
from xtarot.adapters.training import fit
from xtarot.agents import Decision, decision_for, make_agent
from xtarot.engine import Game, State, sample_world_weighted

__all__ = [
    "FORMAT",
    "BeliefData",
    "BeliefModel",
    "Evaluation",
    "TrainResult",
    "evaluate",
    "events_for",
    "generate",
    "input_width",
    "location_of",
    "shipped_model",
    "train",
    "train_belief",
    "train_on",
    "true_locations",
    "weighted_decision",
]

FORMAT = "xtarot-belief"
FORMAT_VERSION = 2

#: uniform worlds drawn per held-out position to estimate the uniform sampler's
#: probabilities (their first half gives a second estimate, for the bias correction)
UNIFORM_DRAWS = 128
#: uniform worlds the model starts from, while training and at play time
PRIOR_DRAWS = 16
#: a location no prior world put a card in keeps this much of a count
PRIOR_SMOOTH = 0.1
_SMOOTH = 0.5  # add-one-half counts: a location never drawn keeps a little mass


def location_of(zone: str, seat: int, players: int) -> str:
    """A zone name as seen from ``seat``: a seat's zone becomes seat-relative.

    >>> location_of("hand:3", 1, 4), location_of("hand:1", 1, 4), location_of("kitty", 1, 4)
    ('hand:+2', 'hand:+0', 'kitty')
    """
    name, sep, number = zone.partition(":")
    if sep and number.isdigit():
        return f"{name}:+{(int(number) - seat) % players}"
    return zone


def _code(card: str) -> str:
    """grail-mahjong writes its placed wild ``Oc=3c``: the card is ``Oc``."""
    return card.partition("=")[0]


def true_locations(state: State, seat: int) -> dict[str, str]:
    """Card code -> seat-relative location of every card of the match, from the true
    state (``state.zones()``): a training target, never a model input."""
    out: dict[str, str] = {}
    players = state.players
    for zone, cards in state.zones().items():
        where = location_of(zone, seat, players)
        for c in cards:
            out[_code(c)] = where
    return out


# -- data ------------------------------------------------------------------------------

#: locations a position's counts have room for (the games have at most 20 or so)
_MAX_LOCATIONS = 24


@dataclass
class BeliefData:
    """Positions of self-play games: row ``i``'s events (what each seat has publicly
    done, :mod:`xtarot.adapters.belief_events`), sparse — ``event_values[i]`` at the
    flat indices ``event_index[i]`` of ``[kinds, players, slots]`` with the seats
    absolute — its seat facts ``facts[i]`` and acting seat ``seat[i]``; ``truth[i, c]``
    is the index in ``locations`` of card ``c``'s true place (-1: not in any location);
    ``prior[i][c, l]`` how many of ``prior_draws`` uniform worlds put card ``c`` at
    location ``l`` (the model's prior, as at play time)."""

    events: Events
    prior_draws: int
    locations: list[str] = field(default_factory=list)
    event_index: list[np.ndarray] = field(default_factory=list)
    event_values: list[np.ndarray] = field(default_factory=list)
    facts: list[np.ndarray] = field(default_factory=list)
    seat: list[int] = field(default_factory=list)
    truth: list[np.ndarray] = field(default_factory=list)
    prior: list[np.ndarray] = field(default_factory=list)
    game_of_row: list[int] = field(default_factory=list)
    hidden: set[str] = field(default_factory=set)
    #: games from this number on are held out (never trained or validated on)
    first_held: int = 1 << 62
    #: per held-out row: the uniform sampler's location counts [cards, locations] over
    #: ``UNIFORM_DRAWS`` worlds and over the first half of them
    uniform: dict[int, tuple[np.ndarray, np.ndarray]] = field(default_factory=dict)

    @property
    def cards(self) -> tuple[str, ...]:
        return self.events.cards

    def __len__(self) -> int:
        return len(self.truth)

    def loc(self, name: str) -> int:
        try:
            return self.locations.index(name)
        except ValueError:
            if len(self.locations) == _MAX_LOCATIONS:
                raise ValueError(f"more than {_MAX_LOCATIONS} card locations") from None
            self.locations.append(name)
            return len(self.locations) - 1

    def counts(self, worlds: Sequence[State], seat: int, index: dict[str, int]) -> np.ndarray:
        """``[cards, locations]``: how many of the worlds put each card at each place;
        every place where a card differs from one world to the next is noted hidden."""
        out = np.zeros((len(self.cards), _MAX_LOCATIONS), dtype=np.int32)
        first: dict[str, str] | None = None
        for w in worlds:
            where = true_locations(w, seat)
            for code, loc in where.items():
                i = index.get(code)
                if i is not None:
                    out[i, self.loc(loc)] += 1
            if first is None:
                first = where
            else:
                for code, loc in where.items():
                    if first.get(code, loc) != loc:
                        self.hidden.add(loc)
                        self.hidden.add(first[code])
        return out

    def add_view(self, view: dict[str, Any]) -> None:
        """Note a position's events, from the acting seat's view only."""
        counts, facts = self.events.read(view)
        flat = counts.reshape(-1)
        nz = np.flatnonzero(flat)
        self.event_index.append(nz.astype(np.int32))
        self.event_values.append(flat[nz].astype(np.float32))
        self.facts.append(facts)
        self.seat.append(int(view["seat"]))

    def add(self, state: State, seat: int, game_no: int, worlds: Sequence[State]) -> int:
        self.add_view(state.view(seat))
        truth = np.full(len(self.cards), -1, dtype=np.int16)
        index = self.events.index
        for code, where in true_locations(state, seat).items():
            i = index.get(code)
            if i is not None:
                truth[i] = self.loc(where)
        self.truth.append(truth)
        # the true state is compared with the worlds to find the hidden places, and its
        # own count taken out again: the prior is the worlds' alone
        prior = self.counts([state, *worlds], seat, index)
        held = np.flatnonzero(truth >= 0)
        prior[held, truth[held]] -= 1
        self.prior.append(prior.astype(np.uint8))
        self.game_of_row.append(game_no)
        return len(self.truth) - 1

    def event_arrays(self, rows: Sequence[int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The rows' events ``[rows, kinds, players, slots]``, facts ``[rows, players,
        facts]`` and acting seats, dense."""
        ev = self.events
        shape = (len(KINDS), ev.players, ev.slots)
        out = np.zeros((len(rows), int(np.prod(shape))), dtype=np.float32)
        for k, r in enumerate(rows):
            out[k, self.event_index[r]] = self.event_values[r]
        facts = np.stack([self.facts[r] for r in rows]).astype(np.float32)
        seats = np.array([self.seat[r] for r in rows], dtype=np.int64)
        return out.reshape(len(rows), *shape), facts, seats


def _match_seeds(seed: int, count: int) -> list[int]:
    rng = random.Random(f"xtarot-belief:{seed}")
    return [rng.getrandbits(48) for _ in range(count)]


def events_for(game: Game) -> Events:
    """The events of a game configuration, over the adapters' card list."""
    return Events(game.id, game.players, encoder_for(game).cards)


def generate(
    game: Game,
    games: int,
    seed: int,
    *,
    eval_games: int = 0,
    eval_positions: int = 200,
    draws: int = UNIFORM_DRAWS,
    prior_draws: int = PRIOR_DRAWS,
    every: int = 3,
    on_game: Callable[[int], None] | None = None,
) -> BeliefData:
    """Play ``games + eval_games`` matches of heuristic self-play and keep every
    ``every``-th decision's acting seat and position, with ``prior_draws`` uniform
    worlds' counts.  The last ``eval_games`` are held out: at up to ``eval_positions``
    of their positions (evenly spread) the uniform sampler's location counts are
    estimated from ``draws`` more worlds.  Deterministic in ``seed``."""
    data = BeliefData(events=events_for(game), prior_draws=prior_draws)
    index = data.events.index
    seeds = _match_seeds(seed, games + eval_games)
    data.first_held = games
    held: list[tuple[int, State, int]] = []  # (row, state, seat) of held-out positions
    for g_no, s in enumerate(seeds):
        state = game.new_state(seed=s)
        agents = [make_agent("heuristic", s + k) for k in range(game.players)]
        evaluating = g_no >= games
        step = 0
        while not state.is_terminal:
            seat = state.current_player
            assert seat is not None
            if step % every == 0:
                rng = random.Random(f"xtarot-belief-prior:{seed}:{g_no}:{step}")
                worlds = [state.sample_world(seat, rng) for _ in range(prior_draws)]
                row = data.add(state, seat, g_no, worlds)
                if evaluating:
                    held.append((row, state.clone(), seat))
            state.apply(agents[seat].act(decision_for(state, peek=True)))
            step += 1
        if on_game is not None:
            on_game(g_no + 1)
    if held:
        pick = np.linspace(0, len(held) - 1, min(eval_positions, len(held))).round()
        for k in sorted({int(x) for x in pick}):
            row, state, seat = held[k]
            rng = random.Random(f"xtarot-belief-uniform:{seed}:{row}")
            worlds = [state.sample_world(seat, rng) for _ in range(draws)]
            data.uniform[row] = (
                data.counts(worlds, seat, index),
                data.counts(worlds[: draws // 2], seat, index),
            )
    return data


# -- the model -------------------------------------------------------------------------


def _relative(
    counts: np.ndarray, facts: np.ndarray, seats: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Events and facts with the seats made relative to each row's acting seat
    (``[:, :, 0]`` the seat itself, ``1`` the next, ...)."""
    players = counts.shape[2]
    order = (seats[:, None] + np.arange(players)[None, :]) % players  # [rows, players]
    rows = np.arange(len(seats))[:, None]
    return counts[rows, :, order].transpose(0, 2, 1, 3), facts[rows, order]


class BeliefModel:
    """A trained card-location model (numpy weights and what made them).

    A card's logit at a location is ``mix . planes + bias[c, l] + f(φ(c, l))``.  The
    planes come from ``prior_draws`` uniform worlds (``sample_world``), the uniform
    sampler's own estimate, which knows every void and count: ``log(n + PRIOR_SMOOTH)``
    (``n`` the worlds that put the card there), ``log(k + PRIOR_SMOOTH)`` (``k`` the
    cards the place holds, per world) and whether no world put it there; ``mix`` weighs
    them.  ``f`` is one network shared by every card and place (one hidden ReLU layer)
    on φ(c, l): what the place's seat (for another seat's hand), the acting seat and
    all other seats have publicly done with cards related to ``c``
    (:mod:`xtarot.adapters.belief_events`, the counts ``log1p``-scaled), the place's
    seat's facts (bids, declarer...), the card's own features and the place.  The
    softmax over the locations holding hidden cards is the card's distribution."""

    def __init__(self, arrays: dict[str, np.ndarray], meta: dict[str, Any]) -> None:
        self.meta = meta
        self.cards: tuple[str, ...] = tuple(meta["cards"])
        self.locations: tuple[str, ...] = tuple(meta["locations"])
        self.kinds = np.asarray(arrays["kinds"], dtype=np.int64)
        # the relations φ counts (files without the list count them all)
        names = meta.get("relations", list(RELATIONS))
        unknown = [r for r in names if r not in RELATIONS]
        if unknown or not names:
            raise ValueError(f"belief model: unknown relations {unknown or names!r}")
        self.relations = np.array([RELATIONS.index(r) for r in names], dtype=np.int64)
        self.w1 = arrays["w1"].astype(np.float32)
        self.b1 = arrays["b1"].astype(np.float32)
        self.w2 = arrays["w2"].astype(np.float32)
        self.b2 = arrays["b2"].astype(np.float32)
        self.bias = arrays["bias"].astype(np.float32)
        self.mix = np.asarray(arrays["mix"], dtype=np.float32)
        self.prior_draws = int(meta.get("prior_draws", PRIOR_DRAWS))
        self._index = {c: i for i, c in enumerate(self.cards)}
        self._where = {loc: i for i, loc in enumerate(self.locations)}
        self.events = Events(self.game, self.players, self.cards)
        # the relative seat of each location's hand (0 for a place that is no hand)
        self._seat_of = np.array([_hand_seat(x) for x in self.locations], dtype=np.int64)
        # for a world's weight: a card as a zone lists it -> its index (one past the
        # cards for a card the model does not know), and per acting seat a zone -> its
        # location's index (one past the locations for none)
        self._rows = _Lookup(self._row_of)
        self._places = [_Lookup(partial(self._place_of, s)) for s in range(self.players)]
        self._net = _Inference(self)

    def _row_of(self, code: str) -> int:
        """A card's index as a zone lists it (one past the cards: not a card of the
        model's)."""
        return self._index.get(_code(code), len(self.cards))

    def _place_of(self, seat: int, zone: str) -> int:
        """A zone's location index seen from ``seat`` (one past the locations: none)."""
        return self._where.get(location_of(zone, seat, self.players), len(self.locations))

    # configuration ------------------------------------------------------------------
    @property
    def game(self) -> str:
        return str(self.meta["game"])

    @property
    def players(self) -> int:
        return int(self.meta["players"])

    def fits(self, game: Game) -> bool:
        """Made for this game, player count and options (and card list)?"""
        return (
            self.game == game.id
            and self.players == game.players
            and self.meta["options"] == _jsonable(game.options)
            and tuple(encoder_for(game).cards) == self.cards
        )

    @property
    def parameters(self) -> int:
        return int(self.w1.size + self.b1.size + self.w2.size + self.b2.size + self.bias.size + 3)

    # inference ----------------------------------------------------------------------
    def features(self, view: dict[str, Any]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The model's input from a view (and nothing else): its events ``[1, kinds,
        players, slots]``, facts ``[1, players, facts]`` and acting seat ``[1]``."""
        counts, facts = self.events.read(view)
        return counts[None], facts[None], np.array([int(view["seat"])], dtype=np.int64)

    def features_of(self, state: State, seat: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``features(state.view(seat))``."""
        return self.features(state.view(seat))

    def inputs(
        self, x: tuple[np.ndarray, np.ndarray, np.ndarray], rows: np.ndarray, cards: np.ndarray
    ) -> np.ndarray:
        """φ ``[pairs, locations, width]`` of the (row, card) pairs of inputs ``x``."""
        return _phi(self.events, x, rows, cards, self.kinds, self._seat_of, self.relations)

    def correction(self, x: tuple[np.ndarray, np.ndarray, np.ndarray]) -> np.ndarray:
        """``[rows, cards, locations]``: the learned part of the logits (everything but
        the prior's planes) of inputs ``x``."""
        counts, facts, seats = x
        if len(seats) == 1:  # a view's: no copy
            return self._net(counts[0], facts[0], int(seats[0]))[None]
        out = np.empty((len(seats), len(self.cards), len(self.locations)), dtype=np.float32)
        for r, seat in enumerate(seats):
            out[r] = self._net(counts[r], facts[r], int(seat))
        return out

    def prior_counts(self, worlds: Sequence[State], seat: int) -> np.ndarray:
        """``[cards, locations]``: how many of the worlds put each card at each place."""
        out = np.zeros((len(self.cards), len(self.locations)), dtype=np.float32)
        players = self.players
        for w in worlds:
            for zone, cards in w.zones().items():
                j = self._where.get(location_of(zone, seat, players))
                if j is None:
                    continue
                for c in cards:
                    i = self._index.get(_code(c))
                    if i is not None:
                        out[i, j] += 1
        return out

    def log_probs(
        self, x: tuple[np.ndarray, np.ndarray, np.ndarray], counts: np.ndarray, open_: np.ndarray
    ) -> np.ndarray:
        """``[rows, cards, locations]`` log-probabilities from inputs, prior counts
        ``[rows, cards, locations]`` and the open locations ``[rows, locations]``."""
        lg = _planes(counts, self.prior_draws) @ self.mix + self.correction(x)
        return _log_softmax(lg, open_)

    def probabilities(
        self, view: dict[str, Any], worlds: Sequence[State]
    ) -> dict[str, dict[str, float]]:
        """Card -> {location: probability} for every card some world hides, from a
        seat's view and uniform worlds of that seat (``sample_world``; the model was
        trained with ``prior_draws`` of them)."""
        seat = view["seat"]
        counts = self.prior_counts(worlds, seat)
        open_ = counts.sum(axis=0) > 0
        hidden = (counts > 0).sum(axis=1) > 1
        if not worlds:
            raise ValueError("probabilities need at least one sampled world")
        first = true_locations(worlds[0], seat)
        for w in worlds[1:]:
            for code, loc in true_locations(w, seat).items():
                if first.get(code) != loc and code in self._index:
                    hidden[self._index[code]] = True
        logp = self.log_probs(self.features(view), counts[None], open_[None])[0]
        names = [(j, x) for j, x in enumerate(self.locations) if open_[j]]
        return {
            c: {x: float(np.exp(logp[i, j])) for j, x in names}
            for i, c in enumerate(self.cards)
            if hidden[i]
        }

    def log_weight(self, view: dict[str, Any]) -> Callable[[State], float]:
        """``world -> log weight`` for ``sample_world_weighted``: the sum of the
        learned parts of the logits of every card at its place in the world (the
        uniform part is the sampler's own).  Computed once from the view; a world is
        read only for where its cards are."""
        counts, facts = self.events.read(view)
        seat = int(view["seat"])
        # per location, the learned part of each card (Python floats), then 0 for a card
        # the model does not know; None for a zone that is no location
        columns: list[list[float] | None] = [
            [*g, 0.0] for g in self._net.by_place(counts, facts, seat).tolist()
        ]
        columns.append(None)
        rows, places = self._rows, self._places[seat]

        def weight(world: State) -> float:
            total = 0.0
            for zone, cards in world.zones().items():
                column = columns[places[zone]]
                if column is not None:
                    # card by card from the running total: the same sums as one at a time
                    total = sum(map(column.__getitem__, map(rows.__getitem__, cards)), total)
            return total

        return weight

    # files ----------------------------------------------------------------------------
    def save(self, path: str | Path) -> int:
        """Write the model (``.npz``: float16 weights, the metadata as JSON); return
        the file's size in bytes."""
        arrays = {
            "kinds": self.kinds.astype(np.int32),
            "w1": self.w1.astype(np.float16),
            "b1": self.b1.astype(np.float16),
            "w2": self.w2.astype(np.float16),
            "b2": self.b2.astype(np.float16),
            "bias": self.bias.astype(np.float16),
            "mix": self.mix.astype(np.float32),
        }
        return write_model(path, arrays, self.meta)

    @classmethod
    def load(cls, path: str | Path | Any) -> BeliefModel:
        """Read a model written by :meth:`save`; ``ValueError`` when it is not one."""
        return cls(*read_model(path, "belief model", FORMAT, FORMAT_VERSION))


class _Lookup(dict[str, int]):
    """A key's index, found once by ``find`` and kept."""

    def __init__(self, find: Callable[[str], int]) -> None:
        super().__init__()
        self._find = find

    def __missing__(self, key: str) -> int:
        value = self[key] = self._find(key)
        return value


def _hand_seat(location: str) -> int:
    """The relative seat whose hand a location is (``hand:+2`` -> 2), else 0."""
    name, _, number = location.partition(":+")
    return int(number) if name == "hand" and number.isdigit() else 0


def input_width(events: Events, kinds: int, locations: int, relations: int = len(RELATIONS)) -> int:
    """φ's width (see :func:`_phi`) for this many kinds of event, locations and
    relations."""
    related = kinds * relations
    return 3 * related + len(SEAT_FACTS) + events.card_features.shape[1] + locations


def _phi(
    events: Events,
    x: tuple[np.ndarray, np.ndarray, np.ndarray],
    rows: np.ndarray,
    cards: np.ndarray,
    kinds: np.ndarray,
    seat_of: np.ndarray,
    relations: np.ndarray | None = None,
) -> np.ndarray:
    """φ ``[pairs, locations, width]`` for (row, card) pairs: per location, the
    place's seat's related events and facts (zero for a place that is no hand), the
    acting seat's and the other seats' related events, the card's features and the
    place (one-hot).  ``relations``: the indices into :data:`RELATIONS` counted (all
    when ``None``)."""
    counts, facts, seats = x
    counts, facts = _relative(counts[:, kinds], facts, seats)  # [rows, kinds, players, slots]
    rel = events.relations  # [relations, slots, cards]
    if relations is not None:
        rel = rel[relations]
    # related[r, p, c, k, q]: events of kind k by relative seat p related to card c by q
    related = np.log1p(np.einsum("bkps,qsc->bpckq", counts, rel, optimize=True))
    n_rows, players = related.shape[:2]
    related = related.reshape(n_rows, players, len(events.cards), -1)
    mine = related[rows, 0, cards]  # [pairs, width_e]
    others = np.log1p(np.expm1(related[rows, 1:, cards]).sum(axis=1))
    by_seat = related[rows, :, cards]  # [pairs, players, width_e]
    n_loc = len(seat_of)
    is_hand = (seat_of > 0).astype(np.float32)  # [locations]
    place = by_seat[:, seat_of] * is_hand[None, :, None]  # [pairs, locations, width_e]
    place_facts = facts[rows][:, seat_of] * is_hand[None, :, None]
    pairs = len(rows)
    shared = np.concatenate([mine, others, events.card_features[cards]], axis=1)
    return np.concatenate(
        [
            place,
            place_facts,
            np.broadcast_to(shared[:, None, :], (pairs, n_loc, shared.shape[1])),
            np.broadcast_to(np.eye(n_loc, dtype=np.float32)[None], (pairs, n_loc, n_loc)),
        ],
        axis=2,
    ).astype(np.float32)


#: OpenBLAS (numpy's) multiplies matrices in two threads or more from this many
#: multiply-adds (m·n·k) on: on a busy machine a thread that waits for the other costs
#: milliseconds, so the play-time network splits its biggest product below it
_ONE_THREAD = 2 * 65536 * 4


def _one_thread_product(x: np.ndarray, y: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """``x @ y`` (``[rows, k] @ [k, n]``, float32) in as few products below :data:`_ONE_THREAD`
    multiply-adds as can be, on slices of ``x``'s rows as even as can be: one batched
    call when they are equal, else one call each (bigger products run faster than a
    batch of small ones).  Into ``out`` (``[rows, n]``, its rows may lie apart) when
    given."""
    rows, k = x.shape
    per_row = k * y.shape[1]
    parts = 1
    while parts < rows and -(-rows // parts) * per_row >= _ONE_THREAD:
        parts += 1
    if out is None:
        if parts == 1:
            return x @ y  # type: ignore[no-any-return]
        if rows % parts == 0:
            return np.matmul(x.reshape(parts, rows // parts, k), y).reshape(rows, -1)
        out = np.empty((rows, y.shape[1]), dtype=np.float32)
    start = 0
    for i in range(1, parts + 1):
        end = rows * i // parts
        np.matmul(x[start:end], y, out=out[start:end])
        start = end
    return out


def _classes(relation: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A relation ``[slots, cards]`` as ``sums @ spread``: ``sums [slots, classes]``
    adds the slots related to each class of cards, ``spread [classes, cards]`` gives
    each card its class (the cards whose columns are the same form a class)."""
    columns, which = np.unique(relation.T, axis=0, return_inverse=True)
    spread = np.zeros((len(columns), relation.shape[1]), dtype=np.float32)
    spread[np.ravel(which), np.arange(relation.shape[1])] = 1.0
    return np.ascontiguousarray(columns.T, dtype=np.float32), spread


class _Inference:
    """A model's network at play time, one view at a time: ``f(φ(c, l))`` for every
    card and place (:func:`_phi`, what training multiplies) without building φ.

    φ's first layer is split by its parts.  The view's events are summed by seat group
    (the acting seat, each other seat, the other seats together: one product with a
    table of the acting seat) and related to every card by one product (on every slot
    when that product is small, else on the slots some event names).  Two shortcuts
    give the same numbers: the kinds that name suits alone (fairy500's bids and trump)
    are related as "same suit" only, by a product of their own; where the product would
    run on the named slots (extendori), the card itself's relation is a copy of the
    events and "same suit" each suit's sum spread to its cards, and only the rest are
    multiplied (on every slot when that is now small).  After ``log1p`` each group
    meets its block of ``w1`` (the place's seat's block for each other seat; the acting
    seat's and the others' blocks for the card itself) in one batched
    product, and one small product adds, per place, the groups it takes and a fixed
    row of its own: the card's features' term, the place's one-hot's and ``b1``, made
    at load time and kept in a buffer of each thread.  The places' seats' facts meet
    their block of ``w1`` in one product per view that also gives their term's sum
    through ``w2``: ``relu(a + t) = max(a, -t) + t``, so the facts' term ``t`` (one
    number per place and unit) is one ``maximum`` with ``-t`` and, after ``w2``, one
    number per place.  Arrays are ``[..., units, cards]``, float32 throughout."""

    def __init__(self, model: BeliefModel) -> None:
        ev = model.events
        players = model.players
        n_kinds, n_rel = len(model.kinds), len(model.relations)
        width = n_kinds * n_rel  # one seat's related events, (kind, relation)
        n_loc = len(model.locations)
        w1 = model.w1
        ends = np.cumsum([0, width, len(SEAT_FACTS), width, width])
        expected = int(ends[-1]) + ev.card_features.shape[1] + n_loc
        if w1.ndim != 2 or w1.shape[0] != expected:
            raise ValueError(f"belief model: w1 has {w1.shape[0]} rows, its inputs {expected}")
        self.units = units = w1.shape[1]
        self.width = width
        self.n_loc = n_loc
        self.n_cards = len(model.cards)
        w_place, w_facts, w_mine, w_others = (w1[a:b] for a, b in itertools.pairwise(ends))
        # the kinds whose events name a suit, never a card (fairy500's bids and trump):
        # their related events are "same suit" alone, every other relation zero (the
        # relations of the suits' slots are checked), so they skip the relation product
        # and only w1's "same suit" column of each meets them; the others' kinds first
        n = self.n_cards
        relations = ev.relations[model.relations]  # [relations, slots, cards]
        same_suit = [j for j, q in enumerate(model.relations) if RELATIONS[q] == "same suit"]
        suits_alone = bool(same_suit) and not np.delete(relations[:, n:], same_suit, 0).any()
        names = [KINDS[k] for k in model.kinds]
        suit_kinds = [k for k, x in enumerate(names) if x in SUIT_KINDS and suits_alone]
        card_kinds = [k for k in range(n_kinds) if k not in suit_kinds]
        self.card_kinds, self.suit_kinds = len(card_kinds), len(suit_kinds)
        self.kinds = n_kinds
        order = card_kinds + suit_kinds
        # seat groups: 0 the acting seat, 1 .. players - 1 the others in turn, then
        # the others' sum; each group's block of w1, transposed [groups, units, width]
        # (the width (kind, relation) of the others' kinds, then the suits' kinds'
        # "same suit" column)
        self.groups = groups = players + 1
        blocks = np.stack([w_mine, *[w_place] * (players - 1), w_others])
        blocks = blocks.reshape(groups, n_kinds, n_rel, units)
        blocks = np.concatenate(
            [
                blocks[:, card_kinds].reshape(groups, -1, units),
                blocks[:, suit_kinds, same_suit[0] if suit_kinds else 0],
            ],
            axis=1,
        )
        self.width = blocks.shape[1]
        self.w_groups = np.ascontiguousarray(blocks.transpose(0, 2, 1), dtype=np.float32)
        if suit_kinds:  # a suit's slot -> the cards of the suit
            self.suit_rel = np.ascontiguousarray(relations[same_suit[0], n:])
        # per place [locations, units, cards]: the card's features' term, the place's
        # one-hot's and b1 (a buffer's fixed rows, below)
        card_term = (ev.card_features @ w1[int(ends[-1]) : expected - n_loc]).T
        place_term = w1[expected - n_loc :] + model.b1
        self.fixed = (card_term[None] + place_term[:, :, None]).astype(np.float32)
        # per place, the groups it adds (its hand's seat's, the acting seat's, the
        # others') and its fixed row
        seat_of = model._seat_of
        take = np.zeros((n_loc, groups + n_loc), dtype=np.float32)
        take[:, [0, players]] = 1.0
        for j, s in enumerate(seat_of):
            if s > 0:
                take[j, s] = 1.0
        take[:, groups:] = np.eye(n_loc)
        self.take = take
        # the model's relations as [slots, (relation, card)]
        self.rel = np.ascontiguousarray(relations.transpose(1, 0, 2)).reshape(ev.slots, -1)
        # per acting seat, [(group, kind), (every kind, absolute seat)]: sums a view's
        # events of the model's kinds by seat group (the kinds in the order above)
        n_all = len(KINDS)
        by_group = np.zeros((players, groups, n_kinds, n_all, players), dtype=np.float32)
        for a in range(players):
            for g in range(players):
                p = (a + g) % players
                for k, kind in enumerate(model.kinds[order]):
                    by_group[a, g, k, kind, p] = 1.0
                    if g:
                        by_group[a, players, k, kind, p] = 1.0
        # only the rows of the kinds from the model's first to its last are read
        first, last = (int(model.kinds.min()), int(model.kinds.max()) + 1) if n_kinds else (0, 0)
        self.kind_rows = slice(first, last)
        self.by_group = np.ascontiguousarray(
            by_group[..., first:last, :].reshape(
                players, groups * n_kinds, (last - first) * players
            )
        )
        # every slot when relating them all costs fewer multiply-adds than this (three
        # or four numpy calls saved), else only the slots some event names
        self.every_slot = groups * len(card_kinds) * self.rel.size <= 3 * _ONE_THREAD // 2
        # where the product would run on the slots some event names (its relation rows
        # gathered per view: extendori), the relations that need no product leave it:
        # the card itself (a copy of the events) and one whose cards fall in a few
        # classes ("same suit": each class's sum, then spread to its cards), each
        # checked against the table; z's relations are then the product's first.
        # (Where every slot is multiplied already, fairy500 and grail-mahjong, the
        # extra calls cost more than the smaller product saves: measured 1.15x.)
        self.derived = not self.every_slot and not suit_kinds
        if self.derived:
            identity = np.zeros(relations.shape[1:], dtype=np.float32)
            identity[:n] = np.eye(n, dtype=np.float32)
            copied = [q for q in range(n_rel) if np.array_equal(relations[q], identity)][:1]
            spread, sums, spreads = [], [], []
            for q in range(n_rel):
                if q not in copied:
                    total, cards_of = _classes(relations[q])
                    if 4 * len(cards_of) <= n and np.array_equal(total @ cards_of, relations[q]):
                        spread.append(q)
                        sums.append(total)
                        spreads.append(cards_of)
            product = [q for q in range(n_rel) if q not in copied and q not in spread]
            self.derived = bool(copied or spread) and bool(product)
        if self.derived:
            order_q = product + copied + spread
            self.n_product, self.copied = len(product), bool(copied)
            self.rel = np.ascontiguousarray(relations[product].transpose(1, 0, 2))
            self.rel = self.rel.reshape(ev.slots, -1)
            self.sums = np.concatenate([np.zeros((ev.slots, 0), np.float32), *sums], axis=1)
            block = np.zeros((self.sums.shape[1], len(spread), n), dtype=np.float32)
            at = 0
            for k, cards_of in enumerate(spreads):
                block[at : at + len(cards_of), k] = cards_of
                at += len(cards_of)
            self.spread = block.reshape(len(block), -1)
            w = self.w_groups.reshape(groups, units, n_kinds, n_rel)[:, :, :, order_q]
            self.w_groups = np.ascontiguousarray(w.reshape(groups, units, -1))
            # the smaller product may now run on every slot (extendori --relations 4)
            self.every_slot = groups * n_kinds * self.rel.size <= 3 * _ONE_THREAD // 2
        # per acting seat, [(seat, fact), (place, unit) then place]: minus the facts'
        # term of each place (the facts of the seat whose hand it is; none for a place
        # that is no hand), then that term through w2
        n_facts = len(SEAT_FACTS)
        term = np.zeros((players, players, n_facts, n_loc, units), dtype=np.float32)
        for a in range(players):
            for j, s in enumerate(seat_of):
                if s > 0:
                    term[a, (a + s) % players, :, j, :] = w_facts
        w2 = model.w2[:, 0].astype(np.float32)
        rows = (players, players * n_facts, -1)
        self.facts = np.ascontiguousarray(
            np.concatenate([-term.reshape(rows), (term @ w2).reshape(rows)], axis=2)
        )
        self.w2 = w2
        self.bias_t = np.ascontiguousarray((model.bias + model.b2[0]).T, dtype=np.float32)
        self._local = threading.local()

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without the threads' buffers (made again on use)."""
        return {k: v for k, v in self.__dict__.items() if k != "_local"}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._local = threading.local()

    def _buffer(self) -> np.ndarray:
        """This thread's ``[groups + locations, units · cards]``: the groups' terms
        (written by each call), then the places' fixed rows (written once)."""
        y: np.ndarray | None = getattr(self._local, "y", None)
        if y is None:
            y = np.empty((self.groups + self.n_loc, self.units * self.n_cards), np.float32)
            y[self.groups :] = self.fixed.reshape(self.n_loc, -1)
            self._local.y = y
        return y

    def _derived(self, x: np.ndarray) -> np.ndarray:
        """``[(group, kind), (relation, card)]``: the related events of a view's
        ``[(group, kind), slots]``, the product's relations on the slots some event
        names, then the card itself's (a copy) and the classes' (sums spread to the
        cards), in this thread's buffer."""
        z: np.ndarray | None = getattr(self._local, "z", None)
        n_cards = self.n_cards
        if z is None:
            z = self._local.z = np.empty((len(x), self.width // self.kinds * n_cards), np.float32)
        done = self.rel.shape[1]
        if self.every_slot:
            _one_thread_product(x, self.rel, z[:, :done])
        else:
            slots = x.any(axis=0).nonzero()[0]  # the slots some event names: few
            _one_thread_product(x[:, slots], self.rel[slots], z[:, :done])
        if self.copied:
            z[:, done : done + n_cards] = x[:, :n_cards]
            done += n_cards
        if done < z.shape[1]:
            np.matmul(x.dot(self.sums), self.spread, out=z[:, done:])
        return z

    def _related(self, x: np.ndarray) -> np.ndarray:
        """``[groups, width, cards]``: the related events of a view's ``[(group, kind),
        slots]`` where some kinds name suits alone: the others' kinds by one batched
        product, the suits' kinds' "same suit" by another, in this thread's buffer."""
        z: np.ndarray | None = getattr(self._local, "z", None)
        groups, n_cards = self.groups, self.n_cards
        if z is None:
            z = self._local.z = np.empty((groups, self.width, n_cards), np.float32)
        x = x.reshape(groups, -1, x.shape[-1])
        flat = z.reshape(groups, -1)
        cards, done = self.card_kinds, self.card_kinds * self.rel.shape[1]
        by_card = flat[:, :done].reshape(groups, cards, -1)
        if self.every_slot:
            np.matmul(x[:, :cards], self.rel, out=by_card)
        else:
            slots = x[:, :cards].any(axis=(0, 1)).nonzero()[0]
            np.matmul(x[:, :cards, slots], self.rel[slots], out=by_card)
        by_suit = flat[:, done:].reshape(groups, self.suit_kinds, n_cards)
        np.matmul(x[:, cards:, n_cards:], self.suit_rel, out=by_suit)
        return z

    def __call__(self, counts: np.ndarray, facts: np.ndarray, seat: int) -> np.ndarray:
        """``[cards, locations]``: the learned part of the logits of every card for one
        view's events ``[kinds, players, slots]``, facts ``[players, facts]`` and acting
        seat."""
        return self.by_place(counts, facts, seat).T

    def by_place(self, counts: np.ndarray, facts: np.ndarray, seat: int) -> np.ndarray:
        """The same, ``[locations, cards]``."""
        groups, units, n_cards, n_loc = self.groups, self.units, self.n_cards, self.n_loc
        y = self._buffer()
        # ndarray.dot for the 2-d products: the same sgemm as @, called with less work
        events = counts[self.kind_rows].reshape(-1, counts.shape[-1])
        x = self.by_group[seat].dot(events)  # [(group, kind), slots]
        if self.suit_kinds:
            z = self._related(x)
        elif self.derived:
            z = self._derived(x)
        elif self.every_slot:
            z = _one_thread_product(x, self.rel)  # [(group, kind), (relation, card)]
        else:
            slots = x.any(axis=0).nonzero()[0]  # the slots some event names: few
            z = _one_thread_product(x[:, slots], self.rel[slots])
        np.log1p(z, out=z)
        np.matmul(
            self.w_groups,
            z.reshape(groups, self.width, n_cards),
            out=y[:groups].reshape(groups, units, n_cards),
        )
        h = self.take.dot(y).reshape(n_loc, units, n_cards)
        t = facts.reshape(-1).dot(self.facts[seat])  # minus the facts' term, then through w2
        np.maximum(h, t[: n_loc * units].reshape(n_loc, units, 1), out=h)
        out = self.w2 @ h  # [locations, cards]
        out += t[n_loc * units :, None]
        out += self.bias_t
        return out  # type: ignore[no-any-return]


class _DecisionWorlds:
    """A decision's sampler seen as ``sample_world(seat, rng)`` (its own seat only)."""

    def __init__(self, decision: Decision) -> None:
        self.decision = decision

    def sample_world(self, seat: int, rng: random.Random) -> State:
        return self.decision.sample_world(rng)


def weighted_decision(decision: Decision, model: BeliefModel, candidates: int = 8) -> Decision:
    """The same decision whose ``sample_world`` draws worlds weighted by the model
    (``sample_world_weighted``): any search bot (``expert``, ``pimc``, ``ismcts``) plays
    on them unchanged, and every world still agrees with the seat's view.  Each world
    costs ``candidates`` uniform ones."""
    weight = model.log_weight(decision.view)
    worlds = _DecisionWorlds(decision)

    def sampler(rng: random.Random) -> State:
        return sample_world_weighted(
            worlds,  # type: ignore[arg-type]
            decision.seat,
            rng,
            weight,
            candidates=candidates,
        )

    return replace(decision, sample_world=sampler)


def _jsonable(options: dict[str, Any]) -> dict[str, Any]:
    return json.loads(json.dumps(dict(options)))  # type: ignore[no-any-return]


def shipped_name(game: Game) -> str:
    return f"belief-{game.id}-{game.players}p.npz"


def shipped_model(game: Game) -> BeliefModel | None:
    """The model shipped in the package for this configuration, or ``None`` (no model
    for the game, player count or options: every bot works without one)."""
    res = resources.files("xtarot.adapters").joinpath("models", shipped_name(game))
    if not res.is_file():
        return None
    with res.open("rb") as f:
        model = BeliefModel.load(io.BytesIO(f.read()))
    return model if model.fits(game) else None


# -- training --------------------------------------------------------------------------


def _masks(data: BeliefData, rows: Sequence[int], hidden: list[int]) -> tuple[Any, Any, Any]:
    """Per row: the targets (location index into ``hidden``, -1 when the card is not
    hidden), which cards count, and which locations hold a hidden card."""
    remap = np.full(len(data.locations) + 1, -1, dtype=np.int64)
    remap[hidden] = np.arange(len(hidden))
    truth = np.stack([data.truth[r] for r in rows]).astype(np.int64)
    target = remap[truth]  # -1 maps through the spare last slot to -1
    counted = target >= 0
    open_ = np.zeros((len(rows), len(hidden)), dtype=bool)
    for k in range(len(rows)):
        open_[k, np.unique(target[k][counted[k]])] = True
    return target, counted, open_


def _planes(counts: np.ndarray, draws: int) -> np.ndarray:
    """``[..., cards, locations, 3]``: the prior's planes from world counts
    ``[..., cards, locations]`` (see :class:`BeliefModel`)."""
    size = counts.sum(axis=-2, keepdims=True) / max(draws, 1)
    return np.stack(
        [
            np.log(counts + PRIOR_SMOOTH),
            np.broadcast_to(np.log(size + PRIOR_SMOOTH), counts.shape),
            (counts == 0).astype(np.float32),
        ],
        axis=-1,
    ).astype(np.float32)


def _log_softmax(lg: np.ndarray, open_: np.ndarray) -> np.ndarray:
    lg = np.where(open_[:, None, :], lg, -1e9)
    lg = lg - lg.max(axis=2, keepdims=True)
    return lg - np.log(np.exp(lg).sum(axis=2, keepdims=True))  # type: ignore[no-any-return]


def _nll(logp: np.ndarray, target: np.ndarray, counted: np.ndarray) -> float:
    picked = np.take_along_axis(logp, np.maximum(target, 0)[:, :, None], axis=2)[:, :, 0]
    return float(-(picked * counted).sum())


@dataclass
class Evaluation:
    """Log-loss (nats per hidden card) on held-out positions."""

    positions: int
    cards: int
    model: float
    uniform: float  # the uniform sampler, estimated from UNIFORM_DRAWS worlds
    uniform_half: float  # ... from the first half of them
    uniform_corrected: float  # 2 * uniform - uniform_half: the estimate's bias removed
    #: the uniform sampler's 128-world estimate with the learned part added (compare
    #: with ``uniform``: the same estimate without it)
    correction_on_uniform: float = float("nan")

    @property
    def ratio(self) -> float:
        return self.model / self.uniform_corrected if self.uniform_corrected else float("nan")

    @property
    def correction_ratio(self) -> float:
        """``correction_on_uniform / uniform``: the learned part's own gain."""
        return self.correction_on_uniform / self.uniform if self.uniform else float("nan")

    def to_dict(self) -> dict[str, Any]:
        return {
            "positions": self.positions,
            "cards": self.cards,
            "model": round(self.model, 5),
            "uniform": round(self.uniform, 5),
            "uniform_half": round(self.uniform_half, 5),
            "uniform_corrected": round(self.uniform_corrected, 5),
            "ratio": round(self.ratio, 4),
            "correction_on_uniform": round(self.correction_on_uniform, 5),
            "correction_ratio": round(self.correction_ratio, 4),
        }


def evaluate(model: BeliefModel, data: BeliefData) -> Evaluation:
    """The model's and the uniform sampler's log-loss on ``data``'s held-out rows
    (those with uniform counts), each card over the locations that hold hidden cards.
    The model starts from its own ``prior_draws`` worlds, as at play time; the uniform
    sampler gets ``UNIFORM_DRAWS`` others (and the bias of so many is corrected)."""
    rows = sorted(data.uniform)
    hidden = [data.loc(x) for x in model.locations]  # a place the data never saw: empty
    target, counted, open_ = _masks(data, rows, hidden)
    x = data.event_arrays(rows)
    prior = np.stack([data.prior[r][:, hidden] for r in rows]).astype(np.float32)
    logp = model.log_probs(x, prior, open_)
    n = int(counted.sum())
    model_ll = _nll(logp, target, counted) / max(n, 1)
    uniform = []
    logs = []
    for which in (0, 1):
        counts = np.stack([data.uniform[r][which] for r in rows])[:, :, hidden].astype(float)
        p = (counts + _SMOOTH) * open_[:, None, :]
        p /= np.maximum(p.sum(axis=2, keepdims=True), 1e-300)
        logp_u = np.log(np.maximum(p, 1e-300))
        logs.append(logp_u)
        uniform.append(_nll(logp_u, target, counted) / max(n, 1))
    # the learned part on the uniform sampler's own 128-world estimate: what the
    # weighted sampler adds to the uniform one (its proposal)
    on_uniform = _log_softmax(logs[0] + model.correction(x), open_)
    return Evaluation(
        positions=len(rows),
        cards=n,
        model=model_ll,
        uniform=uniform[0],
        uniform_half=uniform[1],
        uniform_corrected=2 * uniform[0] - uniform[1],
        correction_on_uniform=_nll(on_uniform, target, counted) / max(n, 1),
    )


@dataclass
class TrainResult:
    model: BeliefModel
    evaluation: Evaluation
    train_positions: int
    validation_positions: int
    epochs_run: int
    best_epoch: int
    seconds: float
    curve: list[tuple[float, float]]  # per epoch: training and validation log-loss


class _Net:
    """The trainable parameters and their forward and backward passes on (row, card)
    pairs."""

    def __init__(self, params: dict[str, np.ndarray]) -> None:
        self.p = params

    def forward(
        self, phi: np.ndarray, planes: np.ndarray, cards: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        p = self.p
        h = np.maximum(phi @ p["w1"] + p["b1"], 0.0)
        lg = planes @ p["mix"] + (h @ p["w2"])[..., 0] + p["b2"][0] + p["bias"][cards]
        return h, lg

    def backward(
        self, grad: np.ndarray, phi: np.ndarray, planes: np.ndarray, cards: np.ndarray, h: Any
    ) -> dict[str, np.ndarray]:
        p = self.p
        out = {
            "mix": np.einsum("nl,nlk->k", grad, planes),
            "b2": np.array([grad.sum()]),
            "w2": np.einsum("nlh,nl->h", h, grad)[:, None],
        }
        bias = np.zeros_like(p["bias"])
        np.add.at(bias, cards, grad)
        out["bias"] = bias
        dh = grad[..., None] * p["w2"][:, 0] * (h > 0)
        out["w1"] = np.einsum("nld,nlh->dh", phi, dh, optimize=True)
        out["b1"] = dh.sum(axis=(0, 1))
        return {k: v.astype(np.float32) for k, v in out.items()}


def train(
    data: BeliefData,
    meta: dict[str, Any],
    *,
    epochs: int = 12,
    hidden_units: int = 32,
    relations: int = len(RELATIONS),
    batch: int = 128,
    lr: float = 3e-3,
    decay: float = 1e-4,
    seed: int = 0,
    on_epoch: Callable[[int], None] | None = None,
) -> TrainResult:
    """Train on every row that is not held out (the last tenth of those games
    validates, and the epoch of lowest validation loss is kept), then evaluate on the
    held-out rows.  Adam, one hidden ReLU layer shared by every card and place, on
    the first ``relations`` of :data:`RELATIONS`; deterministic in ``seed``."""
    start = time.perf_counter()
    train_games = sorted({g for g in data.game_of_row if g < data.first_held})
    n_val = max(1, len(train_games) // 10) if len(train_games) > 1 else 0
    val_games = set(train_games[len(train_games) - n_val :])
    rows_train = [
        r for r, g in enumerate(data.game_of_row) if g < data.first_held and g not in val_games
    ]
    rows_val = [r for r, g in enumerate(data.game_of_row) if g in val_games]
    hidden_names = sorted(data.hidden - {"hand:+0"})
    hidden = [data.locations.index(x) for x in hidden_names]
    ev = data.events
    # the kinds of event ever seen in training (the others are always zero)
    shape = (len(KINDS), ev.players, ev.slots)
    seen = np.zeros(len(KINDS), dtype=bool)
    for r in rows_train:
        seen[np.unravel_index(data.event_index[r], shape)[0]] = True
    kinds = np.flatnonzero(seen)
    seat_of = np.array([_hand_seat(x) for x in hidden_names], dtype=np.int64)
    n_cards, n_locs = len(data.cards), len(hidden)
    if not 1 <= relations <= len(RELATIONS):
        raise ValueError(f"relations: 1 to {len(RELATIONS)}, not {relations}")
    chosen = np.arange(relations)
    width = input_width(ev, len(kinds), n_locs, relations)
    rng = np.random.default_rng(seed)
    net = _Net(
        {
            "w1": (rng.standard_normal((width, hidden_units)) * np.sqrt(2.0 / width)),
            "b1": np.zeros(hidden_units),
            # the learned part starts at nothing: the model starts as its uniform prior
            "w2": np.zeros((hidden_units, 1)),
            "b2": np.zeros(1),
            "bias": np.zeros((n_cards, n_locs)),
            "mix": np.array([1.0, 0.0, 0.0]),
        }
    )
    net.p = {k: v.astype(np.float32) for k, v in net.p.items()}
    meta = {
        **meta,
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "xtarot": __version__,
        "cards": list(data.cards),
        "locations": hidden_names,
        "kinds": [KINDS[k] for k in kinds],
        "hidden_units": hidden_units,
        "relations": list(RELATIONS[:relations]),
        "prior_draws": data.prior_draws,
        "prior_smooth": PRIOR_SMOOTH,
    }

    def batch_of(rows: Sequence[int]) -> tuple[Any, ...]:
        target, counted, open_ = _masks(data, rows, hidden)
        b, c = np.nonzero(counted)
        x = data.event_arrays(rows)
        phi = _phi(ev, x, b, c, kinds, seat_of, chosen)
        counts = np.stack([data.prior[r][:, hidden] for r in rows]).astype(np.float32)
        planes = _planes(counts, data.prior_draws)[b, c]
        return phi, planes, c, target[b, c], open_[b]

    def loss_of(lg: np.ndarray, target: np.ndarray, open_: np.ndarray) -> np.ndarray:
        """Per pair: log-probabilities over the places (closed ones excluded)."""
        lg = np.where(open_, lg, -1e9)
        lg = lg - lg.max(axis=1, keepdims=True)
        return lg - np.log(np.exp(lg).sum(axis=1, keepdims=True))  # type: ignore[no-any-return]

    val = [batch_of(rows_val[i : i + 256]) for i in range(0, len(rows_val), 256)]

    def val_loss() -> float:
        if not val:
            return float("nan")
        total, count = 0.0, 0
        for phi, planes, cards, target, open_ in val:
            logp = loss_of(net.forward(phi, planes, cards)[1], target, open_)
            total -= float(logp[np.arange(len(target)), target].sum())
            count += len(target)
        return total / max(count, 1)

    def batch_loss(rows: list[int]) -> tuple[float, int, dict[str, np.ndarray]]:
        phi, planes, cards, target, open_ = batch_of(rows)
        h, lg = net.forward(phi, planes, cards)
        logp = loss_of(lg, target, open_)
        n = max(len(target), 1)
        loss = -float(logp[np.arange(len(target)), target].sum())
        grad = np.exp(logp) * open_
        grad[np.arange(len(target)), target] -= 1.0
        grads = net.backward((grad / n).astype(np.float32), phi, planes, cards, h)
        return loss, len(target), grads

    kept, best_epoch, first, curve = fit(
        net.p,
        batch_loss,
        val_loss,
        rows_train,
        rng,
        epochs=epochs,
        batch=batch,
        lr=lr,
        decay=decay,
        decayed=("w1", "w2", "bias"),
        on_epoch=on_epoch,
    )
    weights = {k: v.astype(np.float16) for k, v in kept.items() if k != "mix"}
    weights["mix"] = kept["mix"]
    meta["best_epoch"] = best_epoch
    meta["validation_loss_prior_only"] = round(first, 5)
    model = BeliefModel({"kinds": kinds, **weights}, meta)
    return TrainResult(
        model=model,
        evaluation=evaluate(model, data),
        train_positions=len(rows_train),
        validation_positions=len(rows_val),
        epochs_run=epochs,
        best_epoch=best_epoch,
        seconds=time.perf_counter() - start,
        curve=curve,
    )


def train_on(
    game: Game,
    data: BeliefData,
    *,
    seed: int,
    games: int,
    eval_games: int,
    epochs: int = 12,
    hidden_units: int = 32,
    relations: int = len(RELATIONS),
    command: str = "",
    on_epoch: Callable[[int], None] | None = None,
) -> TrainResult:
    """Train and evaluate on generated data; the model's metadata records the command,
    version, seed, configuration and data sizes (no times: the same command and seed
    write the same bytes)."""
    meta = {
        "command": command,
        "game": game.id,
        "players": game.players,
        "options": _jsonable(game.options),
        "seed": seed,
        "games": games,
        "eval_games": eval_games,
        "positions": len(data),
        "agents": "heuristic",
        "epochs": epochs,
    }
    result = train(
        data,
        meta,
        epochs=epochs,
        hidden_units=hidden_units,
        relations=relations,
        seed=seed,
        on_epoch=on_epoch,
    )
    result.model.meta.update(
        train_positions=result.train_positions,
        validation_positions=result.validation_positions,
        evaluation=result.evaluation.to_dict(),
    )
    return result


def train_belief(
    game: Game,
    *,
    games: int,
    seed: int,
    eval_games: int,
    eval_positions: int = 200,
    epochs: int = 12,
    hidden_units: int = 32,
    relations: int = len(RELATIONS),
    command: str = "",
    on_game: Callable[[int], None] | None = None,
    on_epoch: Callable[[int], None] | None = None,
) -> tuple[TrainResult, float]:
    """Generate, train and evaluate; return the result and the generation's seconds."""
    start = time.perf_counter()
    data = generate(
        game, games, seed, eval_games=eval_games, eval_positions=eval_positions, on_game=on_game
    )
    gen_seconds = time.perf_counter() - start
    result = train_on(
        game,
        data,
        seed=seed,
        games=games,
        eval_games=eval_games,
        epochs=epochs,
        hidden_units=hidden_units,
        relations=relations,
        command=command,
        on_epoch=on_epoch,
    )
    return result, gen_seconds
