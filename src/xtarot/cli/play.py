"""``xtarot play``: one human seat in the terminal against bots.

The human only ever sees ``state.view(seat)``: before each of their decisions the
board, with what happened since their last move, and as play goes on what they saw
happen (each action as ``state.action_seen_by`` shows it to them, so a face-down bid
stays ``bid down ?``).  Bots choose through :func:`xtarot.agents.decision_for`,
which hands them only their own view; so does the hint (``?``) for the human's seat.

Every bot decision is made by a bot created afresh from ``(match seed, seat, move
number, undo count)``: a bot's choice depends only on the position, so ``--resume``
continues exactly the match that would have been played.  ``undo`` raises the undo
count: after it the bots choose afresh, so taking a move back cannot be used to try
the bots' replies and peek.

At the prompt: a move's number, its canonical text or just its last words (a card
code); several cards at once for ``place``, ``discard`` and ``pay`` (``discard 2c 5d
7s Kw``); ``?`` a hint with the bot's reason and its win estimate; ``rules`` the rules
summary (the board is drawn again after it); ``help`` the moves again; ``undo`` takes
back the human's own last decision (with the bots' moves after it); ``save`` writes
the record so far (the match goes on); ``q`` quits and offers to save the record,
which ``xtarot play --resume FILE`` continues.  What is shown and asked goes through
a front end (:mod:`xtarot.cli.front`): printed lines, or the full-screen app.

Exit codes: 0 when the match was played to its end, 3 when it was abandoned (``q``
or the input closed), 130 after Ctrl-C.
"""

from __future__ import annotations

import copy
import difflib
import errno
import os
import random
import re
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

import xtarot
from xtarot.agents import Agent, ISMCTSAgent, decision_for, make_agent
from xtarot.agents.heuristic import STRATEGIES
from xtarot.cards import UNIVERSE
from xtarot.cli.front import Front, PlainFront
from xtarot.cli.i18n import comma, os_reason, rules_text, say_error, seat_label, t
from xtarot.cli.render import (
    SINCE_LINES,
    GameUI,
    SafeUI,
    action_text,
    as_card,
    gained_lines,
    seat_table,
    ui_for,
)
from xtarot.engine import Action, Game, IllegalAction, RecordError, State
from xtarot.record import save_record

__all__ = [
    "EXIT_ABANDONED",
    "EXIT_INTERRUPTED",
    "PlaySession",
    "RecordError",
    "bot_seed",
    "example",
    "load_for_resume",
    "make_bot",
    "move_seed",
    "rebuild",
    "unwritable",
    "win_estimate",
]

#: Exit code of a match abandoned with ``q`` or by closing the input.
EXIT_ABANDONED = 3
#: Exit code after Ctrl-C (the shell's convention: 128 + SIGINT).
EXIT_INTERRUPTED = 130

_QUIT = {"q", "quit", "exit", ":q", "終了", "中断"}
_YES = {"y", "yes", "はい", "h"}
_HINT = {"?", "？", "hint", "ヒント"}
_RULES = {"rules", "rule", "ルール"}
_UNDO = {"undo", "u", "取り消し", "待った"}
_HELP = {"help", "h", "ヘルプ", "moves", "一覧"}
_SAVE = {"save", "保存"}
#: Verbs that take several cards in one input: ``discard 2c 5d 7s Kw``.
MULTI_VERBS = ("place", "discard", "pay")
#: Thinking time of the hint (its search bot, and its win estimate); the
#: environment variable ``XTAROT_HINT_SECONDS`` changes it.
HINT_SECONDS = 0.5


def hint_seconds() -> float:
    try:
        return max(0.01, float(os.environ.get("XTAROT_HINT_SECONDS", HINT_SECONDS)))
    except ValueError:
        return HINT_SECONDS


def bot_seed(seed: int, seat: int) -> int:
    """The seed of the bot at ``seat`` in a match with ``seed`` (reproducible).

    >>> bot_seed(7, 0) != bot_seed(7, 1)
    True
    """
    return (seed * 1_000_003 + 7919 * (seat + 1)) % (1 << 48)


def move_seed(seed: int, seat: int, ply: int, undos: int = 0) -> int:
    """The seed of the bot making move number ``ply`` (0-based) for ``seat``, after
    ``undos`` undos in the session (an undo makes the bots choose afresh).

    >>> move_seed(7, 1, 0) == move_seed(7, 1, 0) != move_seed(7, 1, 1)
    True
    >>> move_seed(7, 1, 0, undos=1) != move_seed(7, 1, 0)
    True
    """
    base = (bot_seed(seed, seat) * 6_364_136_223 + 1_442_695_041 * (ply + 1)) % (1 << 48)
    return (base + 0x9E3779B97F4A7C15 * undos) % (1 << 48) if undos else base


#: bots that take a budget in ``name:N`` and the setting it fills
_BUDGETS = {"ismcts": "iterations", "pimc": "worlds", "expert": "iterations", "hard": "iterations"}


def make_bot(spec: str, seed: int | None) -> Agent:
    """A bot from its name, optionally with a budget: ``ismcts:200`` (iterations per
    move), ``pimc:20`` (worlds per move), ``expert:100`` / ``hard:100`` (play-outs per
    move); the levels ``easy``, ``normal`` and ``hard`` are bot names too.  Raises
    ``ValueError`` for a bad spec.

    >>> make_bot("ismcts:50", 1).iterations, make_bot("random", 1).name
    (50, 'random')
    """
    name, sep, budget = spec.partition(":")
    if not sep:
        return make_agent(name, seed)
    if name not in _BUDGETS or not budget.isdigit() or int(budget) < 1:
        raise ValueError(
            f"bad bot {spec!r}: a budget is ismcts:N, pimc:N, expert:N or hard:N, N >= 1"
        )
    key = _BUDGETS[name]
    return make_agent(name, seed, **{key: int(budget)})


def example(legal: Sequence[Action]) -> str:
    """The three ways to name one of these moves: ``2, play Kc, Kc``.

    >>> import xtarot
    >>> example(xtarot.load("matto", players=3).actions[1:4])
    '3, buy T1, T1'
    """
    for i, a in enumerate(legal, 1):
        words = a.text.split()
        if len(words) > 1 and as_card(words[-1].split("=")[0]) is not None:
            return f"{i}, {a.text}, {words[-1]}"
    return f"1, {legal[0].text}" if legal else "1"


_CODES = {c.code.lower(): c.code for c in UNIVERSE}


def canonical(text: str) -> str:
    """A typed move with its words lower-cased and its card codes spelt canonically.

    >>> canonical("ATTACK kc 10S at t3")
    'attack Kc 10s at T3'
    """
    return " ".join(_CODES.get(w.lower(), w.lower()) for w in text.split())


def rebuild(record: dict[str, Any], upto: int | None = None) -> State:
    """The state of a record after ``upto`` actions (all by default).

    A match started from its seed is rebuilt from the seed, so the hands that
    follow are shuffled exactly as they would have been; any other record (a
    hand-built deal) is replayed with :func:`xtarot.replay`.
    """
    actions = list(record.get("actions", []))
    limit = len(actions) if upto is None else min(upto, len(actions))
    full = xtarot.replay(record, upto=limit)  # validates the record (RecordError)
    game = full.game
    fresh = game.new_state(seed=record["seed"])
    try:
        for text in actions[:limit]:
            fresh.apply(text)
    except IllegalAction:
        return full
    if fresh.deals != full.deals:
        return full
    return fresh


_WHY = re.compile(r"is not legal for seat \d+: (.*?); legal now:", re.S)


def why_illegal(state: State, action: Action) -> str | None:
    """The engine's reason why ``action`` is not legal now (English), or ``None``."""
    try:
        state.clone().apply(action)
    except IllegalAction as err:
        m = _WHY.search(str(err))
        return m.group(1) if m else str(err).split("; legal now:")[0]
    return None


def win_estimate(
    state: State, choice: Action, seconds: float, seed: int, *, most: int = 200
) -> tuple[float, int, bool]:
    """How often the seat to act wins after ``choice``: worlds consistent with its
    view (never the true hidden cards) are played on by the game's heuristic bots (or
    random ones) to the end of the current hand, for about ``seconds``.

    Returns (win share, worlds played, whether every world reached the end of the
    match); a shared win counts as its share.
    """
    decision = decision_for(state)
    seat = decision.seat
    rng = random.Random(seed)
    bot = make_agent("heuristic" if state.game.id in STRATEGIES else "random", seed)
    deadline = time.perf_counter() + seconds
    total, n, whole = 0.0, 0, True
    while n < most and (n < 3 or time.perf_counter() < deadline):
        world = decision.sample_world(rng)
        world.apply(choice.text)
        hands = len(world.deals)
        while not world.is_terminal and len(world.deals) == hands:
            world.apply(bot.act(decision_for(world)))
        whole = whole and world.is_terminal
        winners = world.scores().winners
        total += 1 / len(winners) if seat in winners else 0.0
        n += 1
    return total / n, n, whole


def _one(key: str, legal: Sequence[Action]) -> str:
    """The message ``key``, or its form for a single legal move (no "1-1")."""
    return f"{key}_one" if len(legal) == 1 else key


class _Quit(Exception):
    """The human asked to stop (or closed the input)."""

    def __init__(self, ask: bool) -> None:
        super().__init__("quit")
        self.ask = ask


class _Undo(Exception):
    """The human asked to take back their last decision."""


#: What the human chose: one action, a text the game plays as several steps of the
#: same seat (``attack Kc 5s at T3``), or several actions (``discard 2c 5d 7s Kw``).
Choice = Action | str | list[Action]


class PlaySession:
    """One interactive match: ``run()`` plays it and returns the exit code.

    ``bots`` maps every other seat to a bot name (see :func:`xtarot.agents.make_agent`).
    ``state`` continues a match in progress (``--resume``); ``delay`` is the pause
    after each bot move in seconds (``fast`` or a non-terminal output: none); ``auto``
    plays the human's forced moves (a single legal move) without asking.  ``front`` is
    how the match is shown and asked (:mod:`xtarot.cli.front`; by default the
    line-by-line terminal on ``console``).
    """

    def __init__(
        self,
        console: Console,
        game: Game,
        seat: int,
        bots: Mapping[int, str],
        seed: int,
        lang: str,
        *,
        save: Path | None = None,
        fast: bool = False,
        delay: float = 0.6,
        meta: dict[str, Any] | None = None,
        command: str | None = None,
        state: State | None = None,
        resumed_from: Path | None = None,
        auto: bool = False,
        front: Front | None = None,
    ) -> None:
        self.console = console
        self.front: Front = front if front is not None else PlainFront(console)
        self.game = game
        self.seat = seat
        self.bots = dict(bots)
        self.seed = seed
        self.lang = lang
        self.save = save
        #: Bot moves told with the next board (not as they happen); no pause then.
        self.fast = self.front.summarise(fast)
        self.delay = 0.0 if self.fast or fast else max(0.0, delay)
        self.meta = meta or {}
        self.command = command
        self.state = state
        self.resumed_from = resumed_from
        self.auto = auto
        self.ui: GameUI = SafeUI(ui_for(game.id, game.options))
        self.title = game.info.name(lang)  # the table marks "(you)"
        self.actors: list[int] = []
        undos = self.meta.get("undos", 0)
        self.undos = undos if isinstance(undos, int) and undos >= 0 else 0
        #: Event lines since the human's last decision (the board's summary), and
        #: which of them were not printed yet (fast mode prints them with the board).
        self.events: list[Text] = []
        self._unshown: list[bool] = []
        #: Indices in the history of the moves ``--auto`` played for the human.
        self.forced_plies: set[int] = set()
        #: Indices in the history of the human's moves that continued the move before
        #: them on the same typed line (``attack T20 at down``, ``discard 2c 5d``):
        #: ``undo`` takes the whole line back.
        self.joined: set[int] = set()
        self._helped = False
        self._boards = 0
        #: Where the record was last saved (``save`` during the match).
        self.saved_to: Path | None = None
        self.front.attach(self)

    # -- output helpers ------------------------------------------------------------
    def say(self, *items: Any, style: str | None = None) -> None:
        self.front.say(*items, style=style)

    def say_command(self, head: str, command: str) -> None:
        """A command on a line of its own, never wrapped (copy-paste works)."""
        self.front.say_command(head, command)

    def pause(self) -> None:
        if self.delay > 0:
            time.sleep(self.delay)

    def ask(self, prompt: str) -> str:
        """Read one line; ``EOFError`` / ``KeyboardInterrupt`` propagate."""
        return self.front.ask(Text(prompt + " ", style="bold"))

    def confirm(self, prompt: str) -> bool:
        dialog = self.front.confirm(prompt)
        if dialog is not None:
            return dialog
        try:
            answer = self.ask(f"{prompt} {t('yes_no', self.lang)}")
        except (EOFError, KeyboardInterrupt):
            self.say("")
            return False
        return answer.strip().lower() in _YES

    def event(self, lines: Sequence[Text], *, shown: bool = False) -> None:
        """Record what the human saw happen (for the next board's summary); print it
        at once unless in fast mode (or ``shown`` already)."""
        for line in lines:
            if not (shown or self.fast):
                self.say(line)
            self.events.append(line)
            self._unshown.append(not (shown or not self.fast))

    def flush_events(self) -> None:
        """Print the events no board will show (at a hand's or the match's end)."""
        for line, unshown in zip(self.events, self._unshown, strict=True):
            if unshown:
                self.say(line)
        self.clear_events()

    def clear_events(self) -> None:
        self.events = []
        self._unshown = []

    # -- the match -----------------------------------------------------------------
    def seen(self, state: State) -> dict[str, Any]:
        """The human's view, copied: it must not change when the state moves on."""
        return copy.deepcopy(state.view(self.seat))

    def agent_for(self, state: State, seat: int) -> Agent:
        """A fresh bot for this one decision, seeded by the position (see module doc)."""
        ply = len(state.history)
        return make_bot(self.bots[seat], move_seed(self.seed, seat, ply, self.undos))

    def _actors_of(self, state: State) -> list[int]:
        """Who made each move of ``state.history`` (walking the record again)."""
        walk = rebuild(state.record(), upto=0)
        out: list[int] = []
        for a in state.history:
            assert walk.current_player is not None
            out.append(walk.current_player)
            walk.apply(a.text)
        return out

    def run(self) -> int:
        state = self.state if self.state is not None else self.game.new_state(seed=self.seed)
        self.state = state
        self.actors = self._actors_of(state) if state.history else []
        if self.resumed_from is not None:
            self.say(
                Text(t("resumed", self.lang, path=self.resumed_from, moves=len(state.history)))
            )
            if state.is_terminal:
                self.say(Text(t("resume_over", self.lang), style="yellow"))
                self.front.closing()
                self.finish(state, offer_save=False)
                return 0
        for line in self.ui.opening(self.seen(state), self.lang):
            self.say(line)
        self.start_totals = self._hand_start_totals(state)
        try:
            while not state.is_terminal:
                actor = state.current_player
                assert actor is not None
                if actor == self.seat:
                    try:
                        choice = self.human_turn(state)
                    except _Undo:
                        state = self.undo(state)
                        self.start_totals = self._hand_start_totals(state)
                        continue
                    steps = choice if isinstance(choice, list) else [choice]
                    start = len(state.history)
                    for step in steps:
                        self.step(state, actor, step)
                    self.joined.update(range(start + 1, len(state.history)))
                else:
                    self.step(state, actor, self.bot_choice(state, actor))
        except (_Quit, KeyboardInterrupt) as q:
            # Ctrl-C (also while a bot thinks) quits like ``q``: it offers to save.
            ask = q.ask if isinstance(q, _Quit) else True
            if not isinstance(q, _Quit):
                self.say("")
            self.front.closing()
            self.flush_events()
            self.say(t("quit_done", self.lang), style="yellow")
            # Never the seed or a reproduce command here: they would reveal the deal.
            if ask and (self.save is not None or self.confirm(t("quit_save", self.lang))):
                written = self.write_record(state)
                if written is not None:
                    self.say_command(t("resume_with", self.lang), f"xtarot play --resume {written}")
            return EXIT_ABANDONED if isinstance(q, _Quit) else EXIT_INTERRUPTED
        self.front.closing()
        self.flush_events()
        self.finish(state, start_totals=self.start_totals)
        return 0

    def step(self, state: State, actor: int, action: Action | str) -> None:
        """Apply one choice of ``actor`` and tell the human what they saw of it."""
        before = self.seen(state)
        hands = len(state.deals)
        if actor == self.seat:
            seen = action if isinstance(action, str) else action.text
        else:
            assert isinstance(action, Action)
            seen = state.action_seen_by(action, self.seat)
        done = len(state.history)
        state.apply(action)
        self.actors += [actor] * (len(state.history) - done)
        if actor == self.seat and self._forced:
            self.forced_plies.add(done)
        after = self.seen(state)
        self.front.moved(after)
        lines: list[Text] = []
        if actor == self.seat:
            you = Text(t("you_did", self.lang, action=""), style="bold")
            lines.append(you.append_text(action_text(seen, self.lang, game=self.game.id)))
            if isinstance(action, Action) and self._forced:
                lines[-1].append(" " + t("auto_move", self.lang), style="dim")
            self.say(lines[0])  # the human's own move is echoed at once
        for line in self.ui.announce(before, after, actor, self.lang, seen=seen):
            if actor == self.seat and line.plain.startswith(
                seat_label(actor, self.lang, self.seat)
            ):
                continue  # the "You: ..." line said it already
            lines.append(line)
        if len(state.deals) == hands:
            lines += gained_lines(before, after, self.lang)
        if actor == self.seat:
            self.event(lines[:1], shown=True)
            self.event(lines[1:])
        else:
            self.event(lines)
        if len(state.deals) > hands:
            self.flush_events()
            self.hand_break(state, before, after, hands)
            self.start_totals = list(state.scores().totals)
        elif actor != self.seat:
            self.pause()

    #: Whether the move being applied was played for the human (``--auto``).
    _forced = False

    def _hand_start_totals(self, state: State) -> list[float]:
        """The running totals when the current hand began (after an undo)."""
        walk = rebuild(state.record(), upto=0)
        totals = list(walk.scores().totals)
        for a in state.history:
            n = len(walk.deals)
            walk.apply(a.text)
            if len(walk.deals) > n:
                totals = list(walk.scores().totals)
        return totals

    def bot_choice(self, state: State, seat: int) -> Action:
        """Let the bot at ``seat`` choose from its own view (not yet applied)."""
        agent = self.agent_for(state, seat)
        decision = decision_for(state)
        with self.front.busy(t("thinking", self.lang, seat=seat_label(seat, self.lang))):
            return agent.act(decision)

    def undo(self, state: State) -> State:
        """Go back to just before the human's last decision (and say which it was);
        the bots will choose afresh from there."""
        # Moves --auto played are not decisions: take back the last real one.
        mine = [
            i for i, s in enumerate(self.actors) if s == self.seat and i not in self.forced_plies
        ]
        if not mine:
            self.say(Text(t("undo_none", self.lang), style="yellow"))
            return state
        k = mine[-1]
        while k in self.joined:  # the whole line it was typed on
            k -= 1
        end = k + 1
        while end in self.joined:
            end += 1
        taken = " ".join(a.text for a in state.history[k:end])
        back = rebuild(state.record(), upto=k)
        self.actors = self.actors[:k]
        self.forced_plies = {i for i in self.forced_plies if i < k}
        self.joined = {i for i in self.joined if i < k}
        self.state = back
        self.undos += 1
        self.meta["undos"] = self.undos
        self.clear_events()
        self.say(Text(t("undo_done", self.lang, action=taken), style="yellow"))
        self.front.moved(self.seen(back))
        return back

    def hand_break(
        self, state: State, before: dict[str, Any], after: dict[str, Any], finished: int
    ) -> None:
        """Between two hands: the hand's summary and the running score table."""
        self.say("")
        self.say(Text(t("hand_over", self.lang, n=finished), style="bold"))
        for item in self.ui.hand_end(before, after, self.lang):
            self.say(item)
        self.say(self.hand_table(state.scores().to_dict(), self.start_totals, finished))
        if not self.fast:
            try:
                self.front.ask(Text(t("next_hand_enter", self.lang), style="dim"))
            except (EOFError, KeyboardInterrupt):
                self.say("")
                raise _Quit(ask=False) from None
        self.say(Text(t("hand_begins", self.lang, n=len(state.deals)), style="bold cyan"))
        for line in self.ui.opening(after, self.lang):
            self.say(line)

    def hand_table(self, scores: dict[str, Any], start: Sequence[float], n: int) -> Table:
        """Seat, points of hand ``n`` and running total, best first."""
        lang = self.lang
        totals = scores["totals"]
        table = seat_table(
            (t("col_rank", lang), "right"),
            t("col_seat", lang),
            (t("col_this_hand", lang), "right"),
            (t("col_total", lang), "right"),
        )
        table.title = t("hand_title", lang, n=n)
        table.title_justify = "left"
        order = sorted(range(len(totals)), key=lambda s: (scores["ranks"][s], s))
        for s in order:
            gained = totals[s] - (start[s] if s < len(start) else 0.0)
            table.add_row(
                str(scores["ranks"][s]),
                seat_label(s, lang, self.seat),
                f"{gained:+g}",
                f"{totals[s]:g}",
                style="bold" if s == self.seat else None,
            )
        return table

    # -- the human's turn ------------------------------------------------------------
    def take_events(self) -> list[Text]:
        """The events for the next board's summary (the last few; in fast mode the
        earlier ones are printed first), and a fresh list for what comes next."""
        since = self.events
        if self.fast and len(since) > SINCE_LINES:
            for line, unshown in zip(since[:-SINCE_LINES], self._unshown, strict=False):
                if unshown:
                    self.say(line)
            since = since[-SINCE_LINES:]
        self.clear_events()
        return since

    def board(self, state: State, legal: Sequence[Action], since: Sequence[Text]) -> None:
        """The board (with what happened since the human's last move) and the moves."""
        view = self.seen(state)
        self.front.board(view, legal, since, first=self._boards == 0)
        self._boards += 1

    def human_turn(self, state: State) -> Choice:
        """Show the board and the numbered moves; read until a legal move (not applied)."""
        lang = self.lang
        legal = sorted(state.legal_actions(), key=lambda a: a.id)
        self._forced = False
        if self.auto and len(legal) == 1:
            self._forced = True
            return legal[0]
        since = self.take_events()
        self.board(state, legal, since)
        if not self._helped:  # once, with an example from the moves at hand
            self._helped = True
            self.say(Text(t("help_line", lang, example=example(legal)), style="dim"))
        while True:
            try:
                raw = self.ask(t(_one("prompt", legal), lang, last=len(legal)))
            except EOFError:  # the input is closed: nobody can answer a question
                self.say("")
                raise _Quit(ask=False) from None
            text = " ".join(raw.split())
            low = text.lower()
            if not text:
                if len(legal) == 1:  # Enter plays the only legal move
                    return legal[0]
                self.say(t("empty_input", lang, last=len(legal)), style="yellow")
                continue
            if low in _QUIT:
                raise _Quit(ask=True)
            if low in _HINT:
                self.hint(state, legal)
                continue
            if low in _RULES:
                self.show_rules()
                self.board(state, legal, since)  # the rules scrolled the board away
                continue
            if low in _UNDO:
                taken = (i for i, s in enumerate(self.actors) if s == self.seat)
                if any(i not in self.forced_plies for i in taken):
                    raise _Undo
                self.say(Text(t("undo_none", lang), style="yellow"))
                continue
            if low in _HELP:
                self.front.help(self.seen(state), legal)
                continue
            if low in _SAVE:  # the record so far; the match goes on
                self.write_record(state)
                continue
            if text.isdigit():
                n = int(text)
                if 1 <= n <= len(legal):
                    return legal[n - 1]
                self.say(
                    Text(t(_one("bad_number", legal), lang, n=n, last=len(legal)), style="red")
                )
                continue
            chosen = self.parse(state, legal, text)
            if chosen is not None:
                return chosen

    def parse(self, state: State, legal: Sequence[Action], text: str) -> Choice | None:
        """The legal move ``text`` names, or ``None`` after saying (in one line) why not.

        A text the game accepts as several steps of the same seat (Arcana Duel's
        ``attack Kc 5s at T3``) comes back as the canonical text itself; several cards
        after ``place`` / ``discard`` / ``pay`` (or several bare cards when those are
        the moves) come back as the list of their actions.
        """
        lang = self.lang
        by_text = {a.text.lower(): a for a in legal}
        if text.lower() in by_text:
            return by_text[text.lower()]
        typed, text = text, canonical(text)
        if state.game.actions.parse(text) is None and self.compound(state, text):
            return text
        several = self.multi(state, legal, text)
        if several is not None:
            return several or None
        matches = self.by_suffix(state, legal, text)
        if len(matches) == 1:
            return matches[0]
        if len(matches) > 1:
            options = ", ".join(a.text for a in matches)
            self.say(Text(t("ambiguous", lang, text=typed, options=options), style="yellow"))
            return None
        known = self.named_action(state, legal, text)
        if known is not None:  # a real move, just not legal now: the engine says why
            why = why_illegal(state, known)
            if why is not None:
                shown = say_error(why, lang)
                self.say(Text(t("illegal", lang, move=known.text, why=shown), style="red"))
                return None
        close = difflib.get_close_matches(text.lower(), list(by_text), n=3, cutoff=0.6)
        if close:
            shown = comma(lang).join(by_text[c].text for c in close)
            line = t(
                _one("unknown_move", legal),
                lang,
                text=typed,
                last=len(legal),
                example=legal[0].text,
            )
            self.say(Text(line, style="red"))
            self.say(Text(t("did_you_mean", lang, options=shown), style="yellow"))
            return None
        line = t(
            _one("unknown_move", legal), lang, text=typed, last=len(legal), example=legal[0].text
        )
        self.say(Text(line, style="red"))
        return None

    @staticmethod
    def named_action(state: State, legal: Sequence[Action], text: str) -> Action | None:
        """The game's action ``text`` names (even if illegal now): its whole text, or
        its last words with one of the verbs of the moves at hand (``2s`` is ``play
        2s`` while playing)."""
        actions = state.game.actions
        found = actions.parse(text) or actions.parse(text.lower())
        if found is not None:
            return found
        verbs = {" ".join(a.text.split()[:-1]) for a in legal if len(a.text.split()) > 1}
        for verb in sorted(verbs):
            found = actions.parse(f"{verb} {text}")
            if found is not None:
                return found
        return None

    def multi(self, state: State, legal: Sequence[Action], text: str) -> list[Action] | None:
        """``discard 2c 5d 7s Kw`` (or ``2c 5d 7s Kw`` while discarding): the actions
        of each card in turn, all legal for the same seat, or ``[]`` after saying which
        card is not; ``None`` when ``text`` is not such an input."""
        words = text.split()
        verbs = {a.text.split()[0] for a in legal}
        if words and words[0] in MULTI_VERBS:
            verb, cards = words[0], words[1:]
        elif len(verbs) == 1 and next(iter(verbs)) in MULTI_VERBS:
            verb, cards = next(iter(verbs)), words
        else:
            return None
        if len(cards) < 2 or any(as_card(c) is None for c in cards):
            return None
        trial = state.clone()
        seat = trial.current_player
        out: list[Action] = []
        for code in cards:
            action = state.game.actions.parse(f"{verb} {code}")
            why = None
            if trial.current_player != seat:
                why = t("illegal", self.lang, move=f"{verb} {code}", why="—")
            elif action is None:
                why = t(
                    "unknown_move", self.lang, text=code, last=len(legal), example=example(legal)
                )
            elif action not in trial.legal_actions():
                reason = why_illegal(trial, action) or ""
                why = t("illegal", self.lang, move=action.text, why=say_error(reason, self.lang))
            if why is not None:
                self.say(Text(why, style="red"))
                return []
            assert action is not None
            trial.apply(action)
            out.append(action)
        return out

    @staticmethod
    def compound(state: State, text: str) -> bool:
        """Whether the game takes ``text`` as several moves of the seat to act."""
        trial = state.clone()
        try:
            trial.apply(text)
        except Exception:  # any refusal: it is not a move
            return False
        return len(trial.history) > len(state.history)

    @staticmethod
    def by_suffix(state: State, legal: Sequence[Action], text: str) -> list[Action]:
        """Legal moves that ``text`` names by their last words (e.g. just a card code),
        when ``text`` is not itself an action's text."""
        if state.game.actions.parse(text) is not None:
            return []
        words = text.lower().split()
        return [a for a in legal if a.text.lower().split()[-len(words) :] == words]

    def hint(self, state: State, legal: Sequence[Action]) -> None:
        """The bot's suggestion for the human's seat, from the human's view only: the
        move, the bot's reason, and how often the seat wins after it."""
        lang = self.lang
        ply = len(state.history)
        if self.game.id in STRATEGIES:
            agent: Agent = make_agent("heuristic", move_seed(self.seed, -1, ply, self.undos))
        else:
            agent = ISMCTSAgent(move_seed(self.seed, -1, ply, self.undos), seconds=hint_seconds())
        decision = decision_for(state)
        with self.front.busy(t("hint_thinking", lang)):
            choice = agent.act(decision)
            estimate = self._estimate(state, legal, choice)
        n = next((i for i, a in enumerate(legal, 1) if a.text == choice.text), 0)
        self.front.hinted(n)
        line = Text(t("hint", lang, bot=agent.name, n=n, move=""), style="bold green")
        self.say(line.append_text(action_text(choice.text, lang, game=self.game.id)))
        why = agent.explain()
        if why is not None:
            self.say(Text(t("hint_why", lang, why=why.text(lang)), style="green"))
        if estimate is not None:
            share, worlds, whole = estimate
            key = "hint_win" if whole else "hint_ahead"
            self.say(Text(t(key, lang, pct=round(100 * share), n=worlds), style="green"))

    def _estimate(
        self, state: State, legal: Sequence[Action], choice: Action
    ) -> tuple[float, int, bool] | None:
        if len(legal) == 1:
            return None
        seed = move_seed(self.seed, -2, len(state.history), self.undos)
        return win_estimate(state, choice, hint_seconds(), seed)

    def show_rules(self) -> None:
        found = rules_text(self.game.id, self.lang)
        if found is None:
            self.say(Text(t("no_rules", self.lang), style="yellow"))
            return
        note = t("rules_fallback", self.lang) if found[1] != self.lang else None
        self.front.rules(found[0], note)

    # -- the end ---------------------------------------------------------------------
    def finish(
        self,
        state: State,
        *,
        start_totals: Sequence[float] | None = None,
        offer_save: bool = True,
    ) -> None:
        view = self.seen(state)
        scores = state.scores().to_dict()
        self.say("")
        self.say(Text(t("game_over", self.lang), style="bold"))
        if len(state.deals) > 1 and start_totals is not None:
            self.say(self.hand_table(scores, start_totals, len(state.deals)))
        for item in self.ui.final(view, scores, self.lang):
            self.say(item)
        if self.command:  # the match is over: its seed may be told
            self.say_command(t("reproduce", self.lang), self.command)
        if offer_save and (self.save is not None or self.confirm(t("end_save", self.lang))):
            self.write_record(state)

    def write_record(self, state: State) -> Path | None:
        """Save the record (to ``--save``, or where the human says); when it cannot be
        written, say why and ask for another file name rather than lose the match
        (``q`` or the input closed: not saved)."""
        # Named by the time, not the seed: the seed would reveal the deal.
        stamp = time.strftime("%Y%m%d-%H%M%S")
        fresh = f"xtarot-{self.game.id}-{stamp}.json"
        path = self.save
        if path is None:
            default = str(self.saved_to or self.resumed_from or fresh)
            try:
                answer = self.ask(f"{t('save_where', self.lang)} [{default}]").strip()
            except (EOFError, KeyboardInterrupt):
                answer = ""
            path = Path(answer or default)
        meta = {**self.meta, "undos": self.undos}
        while True:
            try:
                written = save_record(state, path, meta=meta)
            except OSError as err:
                why = f"{path}: {os_reason(err, self.lang)}"
                self.say(Text(t("save_failed", self.lang, err=why), style="red"))
                default = fresh if Path(fresh) != path else f"{Path.home() / fresh}"
                try:
                    answer = self.ask(f"{t('save_again', self.lang)} [{default}]").strip()
                except (EOFError, KeyboardInterrupt):
                    answer = "q"
                if answer.lower() in _QUIT:
                    self.say(Text(t("save_dropped", self.lang), style="yellow"))
                    return None
                path = Path(answer or default)
                continue
            self.say(t("saved", self.lang, path=written), style="green")
            self.saved_to = Path(written)
            return Path(written)


def unwritable(path: Path) -> OSError | None:
    """Why a record could not be written to ``path``, or ``None`` when it can: the file
    is opened for appending (an existing one is not changed) and a new one removed
    again, so a read-only folder, a missing folder or a folder's name is caught before
    anything is played."""
    p = Path(path)
    if p.is_dir():
        return IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(p))
    existed = p.exists()
    try:
        with p.open("a", encoding="utf-8"):
            pass
    except OSError as err:
        return err
    if not existed:
        p.unlink(missing_ok=True)
    return None


def load_for_resume(path: Path) -> tuple[dict[str, Any], State]:
    """A saved record and its rebuilt state; raises :class:`RecordError`."""
    record = xtarot.load_record(path)
    return record, rebuild(record)
