"""The engine contract: one ``Game`` + ``State`` pair per game, shared by all six.

A :class:`Game` is a rules configuration (game id, player count, options) with a
fixed action space.  A :class:`State` is one match in progress: it owns the deal,
the history of actions (the single source of truth for replay, records and
reconnection) and the game's current position.  Games subclass both and fill in
the hooks whose names start with an underscore; everything callers use is
defined here once.  See ``docs/engine.md``.
"""

from __future__ import annotations

import copy
import json
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from xtarot.engine import rand
from xtarot.engine.errors import ConfigError, DealError, IllegalAction

__all__ = [
    "Action",
    "ActionSpace",
    "Game",
    "GameInfo",
    "Option",
    "Scores",
    "State",
    "competition_ranks",
]

RECORD_FORMAT = "xtarot-record"
RECORD_VERSION = 1
_NO_LIMIT = 1 << 62


@dataclass(frozen=True, slots=True, eq=False)
class Action:
    """One action: a stable integer ``id`` and its canonical ``text``.

    Actions are interned per game: compare them with ``is`` / ``==`` (identity),
    or compare ``id`` / ``text``.
    """

    id: int
    text: str

    def __str__(self) -> str:
        return self.text

    def __int__(self) -> int:
        return self.id

    def __repr__(self) -> str:
        return f"Action({self.id}, {self.text!r})"

    def __copy__(self) -> Action:
        return self

    def __deepcopy__(self, memo: object) -> Action:
        return self

    def __reduce__(self) -> tuple[object, tuple[int, str]]:
        return (Action, (self.id, self.text))


class ActionSpace(Sequence[Action]):
    """A game's fixed action space: ``space[i].id == i``; texts are unique.

    >>> space = ActionSpace(["pass", "play Kc"])
    >>> space.parse("  PLAY   kc ")
    Action(1, 'play Kc')
    >>> space.parse("bid 7c") is None
    True
    """

    def __init__(self, texts: Iterable[str]) -> None:
        self._actions = tuple(Action(i, t) for i, t in enumerate(texts))
        self._by_text = {a.text: a for a in self._actions}
        if len(self._by_text) != len(self._actions):
            raise ValueError("action texts must be unique")
        self._by_folded = {a.text.lower(): a for a in self._actions}

    def __len__(self) -> int:
        return len(self._actions)

    def __getitem__(self, i):  # type: ignore[no-untyped-def, override]
        return self._actions[i]

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self._actions)

    def by_text(self, text: str) -> Action:
        """The action with exactly this canonical text (``KeyError`` if none)."""
        return self._by_text[text]

    def parse(self, text: str) -> Action | None:
        """Find an action by text, forgiving case and spacing; ``None`` if none."""
        found = self._by_text.get(text)
        if found is None:
            folded = " ".join(text.split()).lower()
            found = self._by_folded.get(folded)
        return found


@dataclass(frozen=True)
class Option:
    """A configuration option of a game.

    ``kind`` is ``bool``, ``int`` or ``str``; ``choices`` limits the values (``None``:
    any of the kind, or ``None`` when ``nullable``); ``players`` lists the player
    counts at which a non-default value is allowed (``None``: every count).
    """

    name: str
    default: Any
    kind: type
    help_en: str
    help_ja: str
    choices: tuple[Any, ...] | None = None
    players: tuple[int, ...] | None = None
    nullable: bool = False

    def describe(self) -> str:
        allowed = (
            "|".join(map(str, self.choices)) if self.choices is not None else self.kind.__name__
        )
        where = f", {min(self.players)}-{max(self.players)} players" if self.players else ""
        return f"{self.name}={allowed} (default {self.default!r}{where})"

    def check(self, value: Any, players: int, game_id: str) -> Any:
        """Return the value (converted) or raise :class:`ConfigError`."""
        if value is None and self.nullable:
            return None
        if self.kind is bool:
            if isinstance(value, str) and value.lower() in ("true", "false", "1", "0", "yes", "no"):
                value = value.lower() in ("true", "1", "yes")
            if not isinstance(value, bool):
                raise ConfigError(
                    f"{game_id}: option {self.name} takes true or false, not {value!r}"
                )
        elif self.kind is int:
            if isinstance(value, str) and value.lstrip("-").isdigit():
                value = int(value)
            if isinstance(value, bool) or not isinstance(value, int):
                raise ConfigError(
                    f"{game_id}: option {self.name} takes a whole number, not {value!r}"
                )
        elif not isinstance(value, self.kind):
            raise ConfigError(
                f"{game_id}: option {self.name} takes a {self.kind.__name__}, not {value!r}"
            )
        if self.choices is not None and value not in self.choices:
            raise ConfigError(
                f"{game_id}: option {self.name}={value!r} is not allowed; "
                f"choose one of {', '.join(map(repr, self.choices))}"
            )
        if self.players is not None and value != self.default and players not in self.players:
            counts = ", ".join(map(str, self.players))
            raise ConfigError(
                f"{game_id}: option {self.name}={value!r} needs {counts} players, not {players}"
            )
        return value


@dataclass(frozen=True)
class GameInfo:
    """What ``xtarot.games()`` lists about a game."""

    id: str
    name_ja: str
    name_en: str
    min_players: int
    max_players: int
    options: tuple[Option, ...] = ()
    deck: str = "Xtarot"
    #: options the conformance kit adds for its bulk runs (e.g. a single hand of a
    #: long match), so thousands of games stay fast; full matches are run too.
    bulk_options: tuple[tuple[str, Any], ...] = ()

    @property
    def players(self) -> range:
        return range(self.min_players, self.max_players + 1)

    def name(self, lang: str = "en") -> str:
        return self.name_ja if lang == "ja" else self.name_en

    def option(self, name: str) -> Option:
        for o in self.options:
            if o.name == name:
                return o
        raise KeyError(name)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name_ja": self.name_ja,
            "name_en": self.name_en,
            "players": [self.min_players, self.max_players],
            "deck": self.deck,
            "options": {
                o.name: {
                    "default": o.default,
                    "type": o.kind.__name__,
                    "choices": list(o.choices) if o.choices is not None else None,
                    "players": list(o.players) if o.players is not None else None,
                    "help_en": o.help_en,
                    "help_ja": o.help_ja,
                }
                for o in self.options
            },
        }


def competition_ranks(keys: Sequence[Any]) -> tuple[int, ...]:
    """Rank 1 for the largest key; equal keys share a rank ("1224" ranking).

    >>> competition_ranks([5, 9, 5, 1])
    (2, 1, 2, 4)
    """
    ranks = []
    for k in keys:  # (plain loops: generators cost a search's valuing most of its time)
        rank = 1
        for other in keys:
            if other > k:
                rank += 1
        ranks.append(rank)
    return tuple(ranks)


@dataclass(frozen=True)
class Scores:
    """Per-seat scores, running or final.

    ``totals[seat]`` is the figure seats are ranked by (in a team game, the seat's
    team total); ``ranks[seat]`` is 1 for first place (in a team game, the place of
    the seat's team among the teams), equal ranks share the place;
    ``detail`` holds the game's breakdown (JSON-serialisable).
    """

    totals: tuple[float, ...]
    ranks: tuple[int, ...]
    final: bool
    teams: tuple[tuple[int, ...], ...] | None = None
    detail: dict[str, Any] = field(default_factory=dict)

    @property
    def winners(self) -> list[int]:
        return [s for s, r in enumerate(self.ranks) if r == 1]

    def to_dict(self) -> dict[str, Any]:
        return {
            "totals": list(self.totals),
            "ranks": list(self.ranks),
            "winners": self.winners,
            "final": self.final,
            "teams": [list(t) for t in self.teams] if self.teams is not None else None,
            "detail": self.detail,
        }


class Game(ABC):
    """A game's rules for one player count and one set of options.

    Subclasses set ``info``, ``actions`` and ``state_class`` and implement
    ``_validate_deal``, ``_deal_from_deck`` and ``_random_deal``.
    """

    info: ClassVar[GameInfo]
    actions: ClassVar[ActionSpace]
    state_class: ClassVar[type[State]]
    deck_doc: ClassVar[str] = ""

    def __init__(self, players: int, **options: Any) -> None:
        info = self.info
        if isinstance(players, bool) or not isinstance(players, int):
            raise ConfigError(f"{info.id}: players must be a whole number, not {players!r}")
        if players not in info.players:
            raise ConfigError(
                f"{info.id} is for {info.min_players} to {info.max_players} players, not {players}"
            )
        known = {o.name: o for o in info.options}
        unknown = sorted(set(options) - set(known))
        if unknown:
            listing = "; ".join(o.describe() for o in info.options) or "none"
            raise ConfigError(f"{info.id}: unknown option {', '.join(unknown)}; options: {listing}")
        self.players = players
        self.options: dict[str, Any] = {
            name: opt.check(options.get(name, opt.default), players, info.id)
            for name, opt in known.items()
        }
        self._check_options()

    def _check_options(self) -> None:
        """Cross-option checks; raise :class:`ConfigError`."""

    def __repr__(self) -> str:
        opts = "".join(f", {k}={v!r}" for k, v in self.options.items())
        return f"load({self.info.id!r}, players={self.players}{opts})"

    def __deepcopy__(self, memo: object) -> Game:
        return self

    @property
    def id(self) -> str:
        return self.info.id

    @property
    def num_actions(self) -> int:
        return len(self.actions)

    def action(self, item: Action | str | int) -> Action:
        """Resolve an action given as an :class:`Action`, its text or its id."""
        if isinstance(item, Action):
            known = self.actions[item.id] if 0 <= item.id < len(self.actions) else None
            if known is None or known.text != item.text:
                raise IllegalAction(f"{item!r} is not an action of {self.id}")
            return known
        if isinstance(item, int) and not isinstance(item, bool):
            if 0 <= item < len(self.actions):
                return self.actions[item]
            raise IllegalAction(f"action id {item} is out of range 0..{len(self.actions) - 1}")
        if isinstance(item, str):
            found = self.actions.parse(item)
            if found is None:
                raise IllegalAction(f"{item!r} is not an action of {self.id}")
            return found
        raise IllegalAction(f"an action is an Action, its text or its id, not {item!r}")

    # -- starting a match ------------------------------------------------------------
    def new_state(
        self,
        *,
        seed: int | None = None,
        deck: Sequence[str] | None = None,
        deal: dict[str, Any] | None = None,
    ) -> State:
        """Start a match.

        ``seed`` fixes every random choice (shuffles, first dealer or parent);
        ``deck`` is a full deck order, top first, dealt as the game's docs say;
        ``deal`` names the piles (see ``docs/engine.md``).  Without a seed a random
        one is drawn and kept, so the match can still be recorded and replayed.
        """
        if deck is not None and deal is not None:
            raise DealError("give a deck order or a deal, not both")
        if seed is None:
            seed = random.SystemRandom().getrandbits(48)
        elif isinstance(seed, bool) or not isinstance(seed, int):
            raise DealError(f"seed must be a whole number, not {seed!r}")
        rng = random.Random(seed)
        if deal is not None:
            first = self.validate_deal(deal)
        elif deck is not None:
            first = self.validate_deal(self._deal_from_deck(self._parse_deck(deck), rng))
        else:
            first = self._random_deal(rng)
        return self._start(seed, rng, [first])

    def _start(self, seed: int, rng: random.Random | int, deals: list[dict[str, Any]]) -> State:
        state = self.state_class(self, seed, rng, deals[1:])
        state._new_match()
        state._begin_hand(deals[0])
        return state

    def validate_deal(self, deal: dict[str, Any]) -> dict[str, Any]:
        """Check a deal and return it in canonical JSON form; raise :class:`DealError`."""
        if not isinstance(deal, dict):
            raise DealError(f"a deal is a mapping of named piles, not {type(deal).__name__}")
        return self._validate_deal(deal)

    def _parse_deck(self, deck: Sequence[str]) -> list[str]:
        if isinstance(deck, str) or not isinstance(deck, Sequence):
            raise DealError("a deck order is a list of card codes, top first")
        return list(deck)

    @abstractmethod
    def _validate_deal(self, deal: dict[str, Any]) -> dict[str, Any]: ...

    @abstractmethod
    def _deal_from_deck(self, deck: list[str], rng: random.Random) -> dict[str, Any]: ...

    @abstractmethod
    def _random_deal(self, rng: random.Random) -> dict[str, Any]: ...


class State(ABC):
    """One match in progress.  Games implement the underscore hooks.

    ``current_player`` may be a property or, for speed, a plain attribute the game
    keeps up to date (then it also keeps ``is_terminal``); the engine and callers
    only read them.  ``random_playout``, ``sample_world``, ``clone``, ``_standing``
    and ``_random_standing`` have generic versions a game may replace by faster ones
    with the same results (the tests hold the built-in games to that).
    """

    #: the seed of a generator of later deals not made yet (see :attr:`_rng`)
    _rng_seed: int | None = None

    def __init__(
        self, game: Game, seed: int, rng: random.Random | int, preset: list[dict[str, Any]]
    ) -> None:
        """``rng`` deals the hands after the preset ones; given as a seed (a sampled
        world's), the generator is made when first used (see :attr:`_rng`)."""
        self.game = game
        self.seed = seed
        self._rng_now: random.Random | None
        if isinstance(rng, int):
            self._rng_now, self._rng_seed = None, rng
        else:
            self._rng_now = rng
        self._preset = list(preset)
        self.deals: list[dict[str, Any]] = []
        self.history: list[Action] = []
        self._legal: list[Action] | None = None

    @property
    def _rng(self) -> random.Random:
        """The generator of the hands still to be dealt.  A sampled world's is made
        from its seed when first asked for (the same generator as if made at once):
        seeding one cost a search a twentieth of an iteration, and most worlds never
        deal a hand.  (A copy made through ``__dict__`` copies ``_rng_now``.)"""
        rng = self._rng_now
        if rng is None:
            rng = self._rng_now = random.Random(self._rng_seed)
        return rng

    @_rng.setter
    def _rng(self, rng: random.Random) -> None:
        self._rng_now = rng

    # -- hands -----------------------------------------------------------------------
    def _new_match(self) -> None:
        """Set up match-level state (running totals) once, before the first hand."""

    def _begin_hand(self, deal: dict[str, Any]) -> None:
        """Start a hand from a validated deal.  Multi-hand games call
        ``self._begin_hand(self._next_deal())`` when a hand ends and another follows."""
        self.deals.append(deal)
        self._setup(deal)

    def _next_deal(self) -> dict[str, Any]:
        """The next hand's deal: a preset one (replays) or a shuffle from the seed."""
        if self._preset:
            return self.game.validate_deal(self._preset.pop(0))
        return self.game._random_deal(self._rng)

    def reseed(self, seed: int) -> None:
        """Shuffle the hands still to be dealt from ``seed`` from now on.

        A state rebuilt from a record (:func:`xtarot.replay`) deals its later hands
        from a seed derived from the record's (:func:`xtarot.record.resumed_rng`); a
        server that resumes a match from its record (after a restart, or on another
        process) gives it a secret one instead, so that nobody who learns the stored
        seed can tell the hands to come.
        """
        self._rng = random.Random(seed)

    # -- the contract ----------------------------------------------------------------
    @property
    def players(self) -> int:
        return self.game.players

    @property
    @abstractmethod
    def current_player(self) -> int | None:
        """The seat to act, or ``None`` when the match is over."""

    @property
    def is_terminal(self) -> bool:
        return self.current_player is None

    def legal_actions(self) -> list[Action]:
        """The legal actions of the current player (empty when terminal)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._legal_actions() if self.current_player is not None else []
        return [*legal]  # the caller's own list: the cached one must stay as it is

    def legal_action_mask(self) -> list[bool]:
        mask = [False] * self.game.num_actions
        for a in self.legal_actions():
            mask[a.id] = True
        return mask

    def apply(self, action: Action | str | int) -> Action:
        """Apply a legal action (given as Action, text or id) and return it.

        Raises :class:`IllegalAction`, leaving the state unchanged, when the action
        is unknown or not legal now.
        """
        legal = self._legal
        if legal is None:
            legal = self._legal = self._legal_actions() if self.current_player is not None else []
        if action.__class__ is not Action or action not in legal:
            action = self._check(action, legal)
        self._apply(action)  # type: ignore[arg-type]
        self.history.append(action)  # type: ignore[arg-type]
        self._legal = None
        return action  # type: ignore[return-value]

    def _apply_listed(self, action: Action) -> None:
        """:meth:`apply` for an action taken from this state's own legal list just now
        (a search's step): applied and recorded without checking it again."""
        self._apply(action)
        self.history.append(action)
        self._legal = None

    def _check(self, action: Action | str | int, legal: list[Action]) -> Action:
        if self.current_player is None:
            raise IllegalAction("the match is over: no action is legal")
        try:
            resolved = self.game.action(action)
        except IllegalAction as err:
            texts = [a.text for a in legal]
            raise IllegalAction(f"{err}; legal now: {', '.join(texts)}", texts) from None
        if resolved in legal:  # a legal action given as its text or id (replays, worlds)
            return resolved
        texts = [a.text for a in legal]
        why = self._why_illegal(resolved)
        raise IllegalAction(
            f"{resolved.text!r} is not legal for seat {self.current_player}: {why}; "
            f"legal now: {', '.join(texts)}",
            texts,
        )

    def _why_illegal(self, action: Action) -> str:
        """A short reason for an illegal action, from the acting seat's knowledge."""
        return "not allowed now"

    def action_seen_by(self, action: Action, seat: int | None) -> str:
        """How ``action``, about to be taken by the current player, appears to ``seat``
        (``None``: a spectator).  The actor sees the full text; others see it too unless
        the rules keep the move hidden, where games return a masked text such as
        ``play ?``.  Search agents key their trees by this, never by hidden cards.
        """
        return action.text

    def _may_mask_for(self, seat: int | None) -> bool:
        """Whether :meth:`action_seen_by` might now show ``seat`` some legal action
        as anything but its own text.  Search asks this once per position instead
        of once per move; ``True`` is always a safe answer, and it is the answer
        for any game that overrides :meth:`action_seen_by` without overriding this."""
        return type(self).action_seen_by is not State.action_seen_by

    @abstractmethod
    def scores(self) -> Scores: ...

    def _standing(self) -> tuple[Sequence[float], Sequence[int]]:
        """``scores()``'s ``totals`` and ``ranks`` alone, which is all search needs
        after each play-out; a game may compute them without the breakdown."""
        scores = self.scores()
        return scores.totals, scores.ranks

    def view(self, seat: int) -> dict[str, Any]:
        """What ``seat`` sees at a real table: fresh JSON data, sharing nothing with
        the state (a view kept by a caller never changes as the match goes on)."""
        self._check_seat(seat)
        return _json_copy(self._view(seat))

    def peek_view(self, seat: int) -> dict[str, Any]:
        """:meth:`view` without its copy: the same data, but parts of it may be the
        state's own lists, which change as the match goes on.  For code that reads
        the view at once and never changes it (bots inside a play-out, the tensor
        encoders); anything that keeps or edits a view takes :meth:`view`."""
        self._check_seat(seat)
        return self._view(seat)

    def public_view(self) -> dict[str, Any]:
        """What a spectator sees (fresh JSON data, as :meth:`view`)."""
        return _json_copy(self._view(None))

    def peek_public_view(self) -> dict[str, Any]:
        """:meth:`public_view` without its copy (read at once, never kept: as
        :meth:`peek_view`)."""
        return self._view(None)

    def sample_world(self, seat: int, rng: random.Random | None = None) -> State:
        """A full state consistent with everything ``seat`` has seen.

        Hidden cards are redistributed uniformly among the deals that agree with
        the seat's knowledge (its hand, every public action, forced inferences such
        as voids); the world replays the whole public history legally.  Its own
        future shuffles come from ``rng``, never from the true seed.
        """
        self._check_seat(seat)
        rng = rng if rng is not None else random.Random()
        deals, actions = self._sample_deals(seat, rng)
        world = self.game._start(rng.getrandbits(48), rng.getrandbits(48), deals)
        known = self.game.actions._by_text.get
        for text in actions:
            # each replayed action is checked as ``apply`` checks any; resolving the
            # canonical text here only spares the parsing
            world.apply(known(text) or text)
        return world

    def random_playout(self, rng: random.Random, *, hand_only: bool = False) -> int:
        """Play uniformly random legal actions to the end of the match (or, with
        ``hand_only``, until a new hand begins); return how many were applied.

        The fast path of search play-outs: the same moves ``apply`` would accept,
        without re-validating actions the engine itself just listed.
        """
        limit = len(self.deals) + 1 if hand_only else _NO_LIMIT  # stop when a hand begins
        done = 0
        append = self.history.append
        legal_actions = self._legal_actions
        apply = self._apply
        if not rand.exact(rng):
            while self.current_player is not None and len(self.deals) < limit:
                legal = legal_actions()
                action = legal[rng.randrange(len(legal))]
                self._legal = None
                apply(action)
                append(action)
                done += 1
            self._legal = None
            return done
        # ``rng.randrange(n)`` drawn inline: the same bits, the same moves
        getrandbits = rng.getrandbits
        while self.current_player is not None and len(self.deals) < limit:
            legal = legal_actions()
            n = len(legal)
            k = n.bit_length()
            r = getrandbits(k)
            while r >= n:
                r = getrandbits(k)
            action = legal[r]
            self._legal = None
            apply(action)
            append(action)
            done += 1
        self._legal = None
        return done

    def _random_standing(
        self, rng: random.Random, *, hand_only: bool = False
    ) -> tuple[Sequence[float], Sequence[int]]:
        """:meth:`random_playout` then :meth:`_standing`: the standing after the same
        random moves, drawn the same way.  For a search that throws the state away
        afterwards: a game may reach the standing without keeping the rest of the
        state up to date (no history, no views), so the state is not to be used
        again."""
        self.random_playout(rng, hand_only=hand_only)
        return self._standing()

    def clone(self) -> State:
        """An independent copy (same seed, deal, history and position)."""
        return copy.deepcopy(self)

    def record(self, meta: dict[str, Any] | None = None) -> dict[str, Any]:
        """The JSON game record of this match so far (see ``xtarot.record``)."""
        rec: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "game": self.game.id,
            "players": self.players,
            "options": dict(self.game.options),
            "seed": self.seed,
            "deals": copy.deepcopy(self.deals),
            "actions": [a.text for a in self.history],
            "result": self.scores().to_dict() if self.is_terminal else None,
        }
        if meta:
            rec["meta"] = dict(meta)
        return rec

    def snapshot(self) -> dict[str, Any]:
        """The complete internal position as JSON data (for equality checks)."""
        return {
            "seed": self.seed,
            "deals": self.deals,
            "history": [a.text for a in self.history],
            "current_player": self.current_player,
            "state": self._snapshot(),
        }

    @abstractmethod
    def zones(self) -> dict[str, list[str]]:
        """Where every card of the match is: zone name -> card codes."""

    def check_invariants(self) -> None:
        """Raise ``AssertionError`` if a rule-fixed invariant fails (conformance kit)."""

    def _check_seat(self, seat: int) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise ValueError(f"seat {seat!r} does not exist: seats are 0..{self.players - 1}")

    # -- hooks -------------------------------------------------------------------------
    @abstractmethod
    def _setup(self, deal: dict[str, Any]) -> None: ...

    @abstractmethod
    def _legal_actions(self) -> list[Action]:
        """The legal actions of the seat to act (called only when one is to act).

        The engine never changes the list it gets, so a game may return one it
        keeps (say, a constant list for a fixed choice) instead of a fresh one."""

    @abstractmethod
    def _apply(self, action: Action) -> None: ...

    @abstractmethod
    def _view(self, seat: int | None) -> dict[str, Any]: ...

    @abstractmethod
    def _snapshot(self) -> dict[str, Any]: ...

    @abstractmethod
    def _sample_deals(
        self, seat: int, rng: random.Random
    ) -> tuple[list[dict[str, Any]], list[str]]:
        """Deals of every hand so far and the action texts to replay on them."""


def _json_copy(data: dict[str, Any]) -> dict[str, Any]:
    """A deep copy through JSON: proves the data is JSON and detaches it."""
    return json.loads(json.dumps(data))  # type: ignore[no-any-return]


#: Signature of the functions a game module registers (see ``registry``).
GameFactory = Callable[..., Game]
