"""``xtarot lab tune``: search a game's rules toward targets with Optuna.

A *space* says what may change: the game's options (``all_pass=ramsch|redeal``,
``hands=1..10``, ``target_score=300..1000:100``, a bare bool option) and two match
levers the lab scores without playing again (:func:`~xtarot.lab.analysis.match_format`):
``deals`` (a match of that many deals, the lead passing) and ``komi`` (compensation
points for later seats).  A *target* says what is wanted:

- ``seats`` — no seat advantage: the largest gap between a seat's win share (play
  order) and the fair share, minimised;
- ``minutes=M`` — a match of about M minutes (the feel study's real-time estimate):
  the distance to M, minimised;
- ``drama`` — more drama (how far behind the eventual winner fell), maximised;
- ``skill=H`` — skill showing within H hands: the stronger bot (``strong``, against
  ``players - 1`` of ``weak``, duplicate single hands) should win 75% of matches of H
  hands; the shortfall below 75%, minimised.

Trials are proposed by Optuna's TPE sampler (one target) or its multi-objective TPE
(two targets: the result is the Pareto front) in *batches* of ``batch`` trials whose
matches are played together on the lab's workers or Ray.  Every trial plays the same
deals (game indices ``0 … games - 1`` of the study's seed: common random numbers), and
the sampler is re-seeded from the study's seed at every batch, so a study gives the same
trials on 1 worker, 2 workers or Ray, in one go or resumed.  With one target a trial
first plays half its games and may be pruned (Optuna's median pruner) before the rest.

With ``out`` the study lives in ``out/optuna.db`` (Optuna's RDB storage on SQLite) and
each option set's matches in an ordinary lab directory under ``out/variants/`` (a set
proposed twice is played once; an interrupted study resumes with the same command);
``out/tune.json`` holds the result for ``xtarot lab report``.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import os
import shlex
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from xtarot.engine import ConfigError, load
from xtarot.lab.runner import (
    LAB_EXTRA,
    Bot,
    Design,
    Lineup,
    Variant,
    derive_seed,
    execute,
    restrictions,
    run_entry,
)

try:
    import numpy as np
    import optuna
    import pandas as pd
except ImportError as _err:  # pragma: no cover - exercised without the extra
    raise ImportError(LAB_EXTRA + " (Optuna is in it)") from _err

from xtarot.lab.analysis import (
    _match_wins,
    _relative,
    feel_summary,
    luck_summary,
    match_format,
    seat_summary,
)
from xtarot.lab.store import LabError, Store, frame
from xtarot.lab.studies import LabResult, _single_hand, has_teams

__all__ = [
    "TARGETS",
    "Dimension",
    "Target",
    "parse_space",
    "parse_target",
    "run_tune",
]

#: target name -> (takes a value, direction, what it means)
TARGETS: dict[str, tuple[bool, str, str]] = {
    "seats": (False, "minimize", "no seat advantage (largest gap to the fair win share)"),
    "minutes": (True, "minimize", "a match of about M minutes (distance to M)"),
    "drama": (False, "maximize", "more drama (how far behind the eventual winner fell)"),
    "skill": (True, "minimize", "skill showing within H hands (shortfall below 75%)"),
}

#: the share of H-hand matches the stronger bot should win for ``skill=H``
SKILL_SHOWS = 0.75

#: the match levers the lab scores without playing again
LEVERS = ("deals", "komi")


@dataclass(frozen=True)
class Target:
    """What a study is after: a target name and, for ``minutes`` / ``skill``, a value."""

    name: str
    value: float | None = None

    @property
    def direction(self) -> str:
        return TARGETS[self.name][1]

    @property
    def text(self) -> str:
        return self.name if self.value is None else f"{self.name}={self.value:g}"


def parse_target(text: str) -> Target:
    """``'seats'``, ``'minutes=20'``, ``'drama'``, ``'skill=10'`` -> a :class:`Target`.

    >>> parse_target("minutes=20").direction, parse_target("drama").text
    ('minimize', 'drama')
    """
    name, eq, raw = text.strip().partition("=")
    name = name.strip()
    known = ", ".join(f"{n}=N" if v else n for n, (v, _, _) in TARGETS.items())
    if name not in TARGETS:
        raise ValueError(f"unknown target {text.strip()!r}; targets: {known}")
    takes = TARGETS[name][0]
    if not takes:
        if eq:
            raise ValueError(f"target {name!r} takes no value")
        return Target(name)
    try:
        value = float(raw)
    except ValueError:
        raise ValueError(
            f"target {name!r} needs a positive number ({name}=N), not {raw.strip()!r}"
        ) from None
    if not math.isfinite(value) or value <= 0:
        raise ValueError(f"target {name!r} needs a positive number ({name}=N), not {raw!r}")
    return Target(name, value)


@dataclass(frozen=True)
class Dimension:
    """One thing a study may change: a game option or a match lever (``deals``,
    ``komi``), over a range (``low``, ``high``, ``step``) or a list of ``choices``."""

    name: str
    kind: str  # int | float | choice
    low: float | None = None
    high: float | None = None
    step: float | None = None
    choices: tuple[Any, ...] = ()

    @property
    def lever(self) -> bool:
        return self.name in LEVERS

    def suggest(self, trial: Any) -> Any:
        if self.kind == "choice":
            return trial.suggest_categorical(self.name, list(self.choices))
        if self.kind == "int":
            return trial.suggest_int(
                self.name, int(self.low or 0), int(self.high or 0), step=int(self.step or 1)
            )
        return trial.suggest_float(
            self.name, float(self.low or 0), float(self.high or 0), step=self.step
        )

    @property
    def text(self) -> str:
        if self.kind == "choice":
            return f"{self.name}=" + "|".join(_show(c) for c in self.choices)
        step = f":{self.step:g}" if self.step else ""
        return f"{self.name}={self.low:g}..{self.high:g}{step}"


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return "none" if value is None else str(value)


def _number(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise ValueError(f"not a number: {text!r}") from None


def parse_space(
    game: str, players: int, specs: Sequence[str], options: dict[str, Any] | None = None
) -> tuple[Dimension, ...]:
    """``["all_pass=ramsch|redeal", "hands=1..10", "pairs", "komi=-2..2:0.5"]`` -> the
    study's dimensions.  Each value is checked with the game (with ``options``) and a
    bad one is refused saying what is allowed."""
    common = dict(options or {})
    loaded = load(game, players=players, **common)
    known = {o.name: o for o in loaded.info.options}
    allowed = [o.describe() for o in loaded.info.options]
    allowed += [
        "deals=1..N (a match of N deals, the lead passing)",
        "komi=LO..HI[:STEP] (points for each later seat)",
    ]
    hint = "; the space of " + game + ": " + ", ".join(allowed)
    if not specs:
        raise ValueError("give at least one --space KEY=LO..HI or KEY=A|B" + hint)
    out: list[Dimension] = []
    for spec in specs:
        text = spec.strip()
        key, eq, raw = text.partition("=")
        key = key.strip().replace("-", "_")
        if key not in known and key not in LEVERS:
            raise ValueError(f"{key!r} is not an option of {game}" + hint)
        if any(d.name == key for d in out):
            raise ValueError(f"{key!r} is given twice in the space")
        if key in common:
            raise ValueError(f"{key!r} is fixed with -o; it cannot also be searched")
        raw = raw.strip()
        option = known.get(key)
        if not eq:
            if option is not None and option.kind is bool:
                dim = Dimension(key, "choice", choices=(False, True))
            elif option is not None and option.choices:
                dim = Dimension(key, "choice", choices=tuple(option.choices))
            else:
                raise ValueError(f"give {key} a range or choices: {key}=LO..HI or {key}=A|B")
        elif ".." in raw:
            span, _, step_text = raw.partition(":")
            lo_text, _, hi_text = span.partition("..")
            try:
                lo, hi = _number(lo_text), _number(hi_text)
                step = _number(step_text) if step_text else None
            except ValueError as err:
                raise ValueError(
                    f"bad range for {key}: {raw!r} ({err}); write LO..HI[:STEP]"
                ) from None
            if hi <= lo or (step is not None and step <= 0):
                raise ValueError(f"bad range for {key}: {raw!r}; LO must be below HI, STEP > 0")
            integral = all(float(x).is_integer() for x in (lo, hi, step or 1))
            whole = key == "deals" or (option is not None and option.kind is int)
            if whole and not integral:
                raise ValueError(f"{key} takes whole numbers, not {raw!r}")
            if key == "deals" and lo < 1:
                raise ValueError("deals starts at 1 (a match of one deal)")
            if option is not None and option.kind not in (int, float):
                raise ValueError(f"{key} is not a number; give its choices: {option.describe()}")
            kind = "int" if whole else "float"
            dim = Dimension(key, kind, lo, hi, step)
        else:
            parts = [p.strip() for p in raw.split("|") if p.strip()]
            if not parts:
                raise ValueError(f"give {key} a range or choices: {key}=LO..HI or {key}=A|B")
            if key in LEVERS:
                values: list[Any] = [_number(p) for p in parts]
                if key == "deals":
                    values = [int(v) for v in values]
            else:
                values = [Variant.parse_options(f"{key}={p}")[key] for p in parts]
            dim = Dimension(key, "choice", choices=tuple(values))
        _check_dimension(game, players, common, dim, option)
        out.append(dim)
    if any(d.name == "komi" for d in out) and has_teams(game, players, common):
        raise ValueError(
            "komi adds points by seat, so partners would score differently; "
            "it is for games without teams"
        )
    return tuple(out)


def _check_dimension(
    game: str, players: int, common: dict[str, Any], dim: Dimension, option: Any
) -> None:
    """Every choice, and both ends of a range, must be allowed by the game."""
    if dim.lever:
        if dim.name == "deals":
            ends = dim.choices if dim.kind == "choice" else (dim.low, dim.high)
            if any(int(v) < 1 for v in ends):  # type: ignore[arg-type]
                raise ValueError("deals starts at 1 (a match of one deal)")
        return
    values = dim.choices if dim.kind == "choice" else (int(dim.low or 0), int(dim.high or 0))
    for value in values:
        Variant.make(game, players, {**common, dim.name: value}, "check")


# -- evaluating a trial -------------------------------------------------------------------------
def _key(options: dict[str, Any]) -> str:
    text = json.dumps(options, sort_keys=True, default=str)
    return hashlib.blake2b(text.encode(), digest_size=5).hexdigest()


def _label(options: dict[str, Any]) -> str:
    return ",".join(f"{k}={_show(v)}" for k, v in sorted(options.items())) or "default"


class _Matches:
    """Where a study's matches live: per option set, one lab directory (``out``) or
    memory; each is played once for the games it lacks, several at a time."""

    def __init__(self, out: Path | None, seed: int, command: str | None) -> None:
        self.out = out
        self.seed = seed
        self.command = command
        self.memory: dict[str, list[dict[str, Any]]] = {}

    def _store(self, name: str, design: Design) -> Store | None:
        if self.out is None:
            return None
        return Store(self.out / "variants" / name, design)

    def ensure(
        self,
        wanted: Sequence[tuple[str, Design]],
        games: int,
        *,
        workers: int | None,
        ray: str | None,
        on_progress: Callable[[int, int], None] | None,
    ) -> int:
        """Play the games ``0 … games - 1`` each design lacks; designs lacking the same
        games are played together (one run: their trials in parallel).  Returns the
        matches played."""
        played = 0
        groups: dict[tuple[tuple[int, ...], str], list[tuple[str, Design]]] = {}
        for name, design in wanted:
            store = self._store(name, design)
            if store is not None:
                done = store.done(self.seed)
            else:
                done = {int(r["index"]) for r in self.memory.get(name, [])}
            missing = tuple(i for i in range(games) if i not in done)
            if missing:
                shape = json.dumps([lu.label for lu in design.lineups])
                groups.setdefault((missing, shape), []).append((name, design))
        for (missing, _), members in groups.items():
            first = members[0][1]
            combined = Design(
                "tune",
                first.game,
                first.players,
                tuple(d.variants[0] for _, d in members),
                first.lineups,
                restrictions=first.restrictions,
                feel=first.feel,
            )
            stores = {}
            by_label = {}
            for name, design in members:
                by_label[design.variants[0].label] = name
                store = self._store(name, design)
                if store is not None:
                    store.begin(
                        run_entry(
                            command=self.command,
                            seed=self.seed,
                            start=0,
                            games=games,
                            workers=workers,
                            ray=ray,
                        )
                    )
                    stores[name] = store

            def route(
                rows: list[dict[str, Any]],
                by_label: dict[str, str] = by_label,
                stores: dict[str, Store] = stores,
            ) -> None:
                parts: dict[str, list[dict[str, Any]]] = {}
                for row in rows:
                    parts.setdefault(by_label[row["variant"]], []).append(row)
                for name, part in parts.items():
                    if name in stores:
                        stores[name].write(part)
                    else:
                        self.memory.setdefault(name, []).extend(part)

            try:
                rows = execute(
                    combined,
                    self.seed,
                    list(missing),
                    workers=workers,
                    ray=ray,
                    on_rows=route,
                    on_progress=on_progress,
                )
            except BaseException:
                for store in stores.values():
                    store.finish(stopped=True)
                raise
            for store in stores.values():
                store.finish()
            played += len(rows)
        return played

    def rows(self, name: str, design: Design, games: int) -> pd.DataFrame:
        store = self._store(name, design)
        df = store.frame() if store is not None else frame(self.memory.get(name, []))
        return df[(df["seed"] == self.seed) & (df["index"] < games)].reset_index(drop=True)


@dataclass(frozen=True)
class _Setup:
    """A study's fixed part: what its stored trials were measured with."""

    game: str
    players: int
    options: dict[str, Any]
    agents: tuple[str, ...]
    strong: str
    weak: str
    restrict: tuple[str, ...]
    targets: tuple[Target, ...]
    space: tuple[Dimension, ...]
    games: int
    batch: int
    seed: int
    prune: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "options": self.options,
            "agents": list(self.agents),
            "strong": self.strong,
            "weak": self.weak,
            "restrict": list(self.restrict),
            "targets": [t.text for t in self.targets],
            "space": [d.text for d in self.space],
            "games": self.games,
            "batch": self.batch,
            "seed": self.seed,
            "prune": self.prune,
        }


def _designs(setup: _Setup, options: dict[str, Any]) -> dict[str, tuple[str, Design]]:
    """The lab designs of one option set: ``self`` (the agents, feel measured) and, for
    a ``skill`` target, ``skill`` (strong against weak, duplicate single hands)."""
    common = {**setup.options, **options}
    rules = restrictions(setup.game, setup.players, list(setup.restrict))
    variant = Variant.make(setup.game, setup.players, common, _label(options))
    bots = tuple(Bot.parse(a) for a in setup.agents)
    out = {
        "self": (
            f"{_key(common)}-self",
            Design(
                "tune",
                setup.game,
                setup.players,
                (variant,),
                (Lineup("self", bots),),
                restrictions=rules,
                feel=True,
            ),
        )
    }
    if any(t.name == "skill" for t in setup.targets):
        hand = Variant.make(
            setup.game,
            setup.players,
            _single_hand(setup.game, setup.players, common),
            _label(options),
        )
        lineup = Lineup(
            "skill",
            (Bot.parse(setup.strong),) + (Bot.parse(setup.weak),) * (setup.players - 1),
            "duplicate",
        )
        out["skill"] = (
            f"{_key(common)}-skill",
            Design("tune", setup.game, setup.players, (hand,), (lineup,), restrictions=rules),
        )
    return out


def _evaluate(
    setup: _Setup,
    levers: dict[str, Any],
    rows: dict[str, pd.DataFrame],
    design: dict[str, Design],
) -> tuple[list[float], dict[str, Any]]:
    """The targets' values of one trial and the figures behind them (with intervals)."""
    players = setup.players
    deals = int(levers.get("deals", 1))
    komi = float(levers.get("komi", 0.0))
    self_rows = rows["self"]
    summary: dict[str, Any] = {"games": len(self_rows)}
    values: list[float] = []
    feel: dict[str, Any] | None = None
    for target in setup.targets:
        if target.name == "seats":
            scored = match_format(self_rows, players, game=setup.game, deals=deals, komi=komi)
            seats = seat_summary(scored, players)
            fair = 1 / players
            gap = max(abs((s["win_share"] or 0.0) - fair) for s in seats["seats"])
            summary["seats"] = {
                "matches": len(scored),
                "gap": gap,
                "p_value": seats["win_test"]["p_value"],
                "win_shares": [s["win_share"] for s in seats["seats"]],
                "win_shares_ci95": [s["win_share_ci95"] for s in seats["seats"]],
            }
            values.append(gap)
        elif target.name in ("minutes", "drama"):
            if feel is None:
                feel = feel_summary(self_rows, players)["metrics"]
            if target.name == "minutes":
                m = feel["minutes"] or {"mean": None, "ci95": [None, None]}
                mean = (m["mean"] or 0.0) * deals
                lo, hi = (x * deals if x is not None else None for x in m["ci95"])
                summary["minutes"] = {"mean": mean, "ci95": [lo, hi], "deals": deals}
                values.append(abs(mean - float(target.value or 0)))
            else:
                d = feel["drama"] or {"mean": 0.0, "ci95": [None, None]}
                summary["drama"] = {"mean": d["mean"], "ci95": d["ci95"]}
                values.append(float(d["mean"] or 0.0))
        else:
            hands = max(1, round(float(target.value or 1)))
            skill_rows = rows["skill"]
            strong = design["skill"].lineups[0].labels()[0]
            luck = luck_summary(
                skill_rows,
                design["skill"].to_dict(),
                seed=setup.seed,
                strong=strong,
                hands=(hands,),
                boot=40,
                matches=2000,
                lineup="skill",
            )
            point = luck["curve"][0]
            rel = _relative(skill_rows.sort_values(["seed", "index", "arrangement"]), strong)
            rng = np.random.default_rng(derive_seed(setup.seed, "skill-target"))
            share = _match_wins(rel, hands, 4000, rng) if len(rel) else 0.0
            summary["skill"] = {
                "hands": hands,
                "win_share": share,
                "ci95": point["ci95"],
                "deals": luck["deals"],
            }
            values.append(max(0.0, SKILL_SHOWS - share))
    return values, summary


# -- the study ------------------------------------------------------------------------------------
def _sampler(setup: _Setup, batch: int) -> Any:
    startup = max(setup.batch, 8)
    return optuna.samplers.TPESampler(
        seed=derive_seed(setup.seed, "tpe", batch) % (2**32), n_startup_trials=startup
    )


def _pruner(setup: _Setup) -> Any:
    if setup.prune and len(setup.targets) == 1:
        return optuna.pruners.MedianPruner(n_startup_trials=setup.batch, n_warmup_steps=0)
    return optuna.pruners.NopPruner()


STUDY = "xtarot-tune"


def _storage(out: Path | None) -> Any:
    """Optuna's storage: SQLite in ``out`` (the study resumes), else memory."""
    if out is None:
        return optuna.storages.InMemoryStorage()
    if out.exists() and not (out / "optuna.db").exists() and any(out.iterdir()):
        raise LabError(f"{out} is not empty and holds no tuning study")
    out.mkdir(parents=True, exist_ok=True)
    return optuna.storages.RDBStorage(f"sqlite:///{out / 'optuna.db'}")


def _open(setup: _Setup, storage: Any, out: Path | None, batch: int) -> Any:
    study = optuna.create_study(
        storage=storage,
        study_name=STUDY,
        directions=[t.direction for t in setup.targets],
        sampler=_sampler(setup, batch),
        pruner=_pruner(setup),
        load_if_exists=True,
    )
    stored = study.user_attrs.get("setup")
    if stored is None:
        study.set_user_attr("setup", setup.to_dict())
    elif stored != setup.to_dict():
        diff = [k for k, v in setup.to_dict().items() if stored.get(k) != v]
        raise LabError(
            f"{out} holds another tuning study (it differs in {', '.join(diff)}); "
            "choose another --out directory or give the same settings to resume it"
        )
    return study


def run_tune(
    game: str,
    players: int,
    *,
    targets: Sequence[str | Target],
    space: Sequence[str | Dimension],
    trials: int = 20,
    batch: int = 4,
    games: int = 100,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    agents: Sequence[str] = ("heuristic",),
    strong: str = "normal",
    weak: str = "easy",
    restrict: Sequence[str] = (),
    prune: bool = True,
    confirm_games: int | None = None,
    workers: int | None = None,
    ray: str | None = None,
    out: str | os.PathLike[str] | None = None,
    command: str | None = None,
    on_progress: Callable[[int, int], None] | None = None,
) -> LabResult:
    """Search the space toward the targets (module docstring).  Returns a
    :class:`~xtarot.lab.studies.LabResult` whose data holds every trial (its settings,
    state, values and figures), the best trial with intervals (one target) or the
    Pareto front (two), and the commands that confirm them with more matches."""
    started = time.perf_counter()
    parsed_targets = tuple(t if isinstance(t, Target) else parse_target(t) for t in targets)
    if not 1 <= len(parsed_targets) <= 2:
        raise ValueError("give one target, or two for a Pareto front")
    if len({t.name for t in parsed_targets}) != len(parsed_targets):
        raise ValueError("each target can be given once")
    if trials < 1 or batch < 1 or games < 2:
        raise ValueError("a study needs at least 1 trial, batches of at least 1, 2 games")
    opts = dict(options or {})
    if space and all(isinstance(d, Dimension) for d in space):
        dims: tuple[Dimension, ...] = tuple(space)  # type: ignore[arg-type]
    else:
        dims = parse_space(game, players, [str(s) for s in space], opts)
    for a in (*agents, strong, weak):
        Bot.parse(a)
    restrictions(game, players, list(restrict))
    setup = _Setup(
        game,
        players,
        opts,
        tuple(agents),
        strong,
        weak,
        tuple(restrict),
        parsed_targets,
        dims,
        games,
        batch,
        seed,
        prune,
    )
    path = Path(out) if out is not None else None
    matches = _Matches(path, seed, command)
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    logging.getLogger("optuna").setLevel(logging.WARNING)
    storage = _storage(path)
    stage = games // 2 if setup.prune and len(parsed_targets) == 1 else games
    played = 0
    total = trials * games
    finished_states = (
        optuna.trial.TrialState.COMPLETE,
        optuna.trial.TrialState.PRUNED,
        optuna.trial.TrialState.FAIL,
    )

    def progress(done: int) -> None:
        if on_progress is not None:
            on_progress(min(done, total), total)

    while True:
        study = _open(setup, storage, path, 0)
        frozen = study.get_trials(deepcopy=False)
        finished = sum(1 for t in frozen if t.state in finished_states)
        progress(finished * games)
        if finished >= trials:
            break
        study = _open(setup, storage, path, finished // batch)
        running = [t for t in frozen if t.state == optuna.trial.TrialState.RUNNING]
        live = [optuna.trial.Trial(study, t._trial_id) for t in running]
        while len(live) < min(batch, trials - finished):
            live.append(study.ask())

        def in_batch(done: int, finished: int = finished) -> None:
            progress(finished * games + done)

        played += _run_batch(setup, study, live, matches, stage, workers, ray, in_batch)
    data = _result(setup, study, path, confirm_games or max(200, 4 * games))
    data["played"] = played
    data["seconds"] = time.perf_counter() - started
    data["command"] = command
    if path is not None:
        tmp = path / ".tune.json.tmp"
        tmp.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", "utf-8")
        os.replace(tmp, path / "tune.json")
    return LabResult(
        "tune", setup.to_dict(), pd.DataFrame(data["trials"]), data, data["seconds"], path
    )


def _params(setup: _Setup, trial: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """A trial's game options and match levers."""
    options: dict[str, Any] = {}
    levers: dict[str, Any] = {}
    for dim in setup.space:
        value = dim.suggest(trial)
        (levers if dim.lever else options)[dim.name] = value
    return options, levers


def _run_batch(
    setup: _Setup,
    study: Any,
    live: list[Any],
    matches: _Matches,
    stage: int,
    workers: int | None,
    ray: str | None,
    on_progress: Callable[[int], None],
) -> int:
    """Play and judge one batch of trials (in trial order); return the matches played."""
    plans: list[tuple[Any, dict[str, Any], dict[str, tuple[str, Design]] | None]] = []
    for trial in live:
        options, levers = _params(setup, trial)
        try:
            if levers.get("komi") and has_teams(
                setup.game, setup.players, {**setup.options, **options}
            ):
                raise ValueError(
                    "komi adds points by seat, so partners would score "
                    "differently; it is for games without teams"
                )
            designs = _designs(setup, options)
        except (ConfigError, ValueError) as err:
            trial.set_user_attr("error", str(err))
            plans.append((trial, levers, None))
            continue
        trial.set_user_attr("options", options)
        trial.set_user_attr("levers", levers)
        plans.append((trial, levers, designs))
    playable = [(t, lv, ds) for t, lv, ds in plans if ds is not None]
    wanted = {name: design for _, _, ds in playable for name, design in ds.values()}
    share = len(live) * setup.games

    def counted(start: float, part: float) -> Callable[[int, int], None]:
        def update(done: int, total: int) -> None:
            on_progress(int(share * (start + part * done / max(1, total))))

        return update

    played = matches.ensure(
        list(wanted.items()),
        stage,
        workers=workers,
        ray=ray,
        on_progress=counted(0.0, stage / setup.games),
    )
    pruned: set[int] = set()
    if stage < setup.games:
        for trial, levers, designs in playable:
            rows = {k: matches.rows(n, d, stage) for k, (n, d) in designs.items()}
            values, _ = _evaluate(setup, levers, rows, {k: d for k, (n, d) in designs.items()})
            reported = study._storage.get_trial(trial._trial_id).intermediate_values
            if stage not in reported:
                trial.report(values[0], stage)
            if trial.should_prune():
                pruned.add(trial.number)
        rest = {
            name: design
            for trial, _, ds in playable
            if trial.number not in pruned
            for name, design in ds.values()
        }
        played += matches.ensure(
            list(rest.items()),
            setup.games,
            workers=workers,
            ray=ray,
            on_progress=counted(stage / setup.games, 1 - stage / setup.games),
        )
    for trial, levers, designs in plans:
        if designs is None:
            study.tell(trial, state=optuna.trial.TrialState.FAIL)
            continue
        games = stage if trial.number in pruned else setup.games
        rows = {k: matches.rows(n, d, games) for k, (n, d) in designs.items()}
        values, summary = _evaluate(setup, levers, rows, {k: d for k, (n, d) in designs.items()})
        trial.set_user_attr("summary", summary)
        if trial.number in pruned:
            study.tell(trial, state=optuna.trial.TrialState.PRUNED)
        else:
            study.tell(trial, values if len(values) > 1 else values[0])
    on_progress(share)
    return played


def _trial_data(setup: _Setup, t: Any) -> dict[str, Any]:
    values = t.values if t.values is not None else None
    if values is None and t.state == optuna.trial.TrialState.PRUNED and t.intermediate_values:
        values = [t.intermediate_values[max(t.intermediate_values)]]
    return {
        "number": t.number,
        "state": t.state.name.lower(),
        "options": t.user_attrs.get("options", {}),
        "levers": t.user_attrs.get("levers", {}),
        "values": list(values) if values is not None else None,
        "error": t.user_attrs.get("error"),
        "summary": t.user_attrs.get("summary", {}),
    }


def _confirm(setup: _Setup, trial: dict[str, Any], out: Path | None, games: int) -> list[str]:
    """The commands that measure a trial's settings again, on fresh deals."""
    seed = setup.seed + 1
    opts = {**setup.options, **trial["options"]}
    tail = "".join(f" -o {k}={_show(v)}" for k, v in sorted(opts.items()))
    tail += "".join(f" --restrict {shlex.quote(r)}" for r in setup.restrict)
    # one directory per option set: settings that differ only in deals and komi score the
    # same matches, so the second command plays nothing
    key = _key(opts)

    def where(kind: str) -> str:
        return f" --out {out / 'confirm' / f'{kind}-{key}'}" if out is not None else ""

    agents = ",".join(setup.agents)
    levers = trial["levers"]
    commands = []
    names = {t.name for t in setup.targets}
    head = f"xtarot lab {{}} {setup.game} -p {setup.players}"
    if "seats" in names:
        extra = "".join(
            f" --{k} {float(v):g}"
            for k, v in sorted(levers.items())
            if v != {"deals": 1, "komi": 0}.get(k)
        )
        commands.append(
            head.format("seats") + f" --agents {agents} --games {games}"
            f" --seed {seed}{tail}{extra}{where('seats')}"
        )
    if names & {"minutes", "drama"}:
        commands.append(
            head.format("feel") + f" --agents {agents} --games {games}"
            f" --seed {seed}{tail}{where('feel')}"
        )
    if "skill" in names:
        commands.append(
            head.format("skill") + f" --ladder {setup.weak},{setup.strong}"
            f" --no-bottom --games {max(50, games // 4)} --seed {seed}{tail}"
            f"{where('skill')}"
        )
    return commands


def _result(setup: _Setup, study: Any, out: Path | None, confirm_games: int) -> dict[str, Any]:
    trials = [_trial_data(setup, t) for t in study.get_trials(deepcopy=False)]
    data: dict[str, Any] = {
        **setup.to_dict(),
        "directions": [t.direction for t in setup.targets],
        "trials": trials,
        "out": str(out) if out is not None else None,
    }
    complete = [t for t in trials if t["state"] == "complete"]
    data["best"] = None
    data["pareto"] = []
    if not complete:
        data["confirm"] = []
        return data
    if len(setup.targets) == 1:
        best = study.best_trial.number
        data["best"] = next(t for t in trials if t["number"] == best)
        chosen = [data["best"]]
    else:
        front = sorted(t.number for t in study.best_trials)
        seen: set[str] = set()
        for t in trials:  # a setting proposed again is one point of the front
            key = json.dumps([t["options"], t["levers"]], sort_keys=True, default=str)
            if t["number"] in front and key not in seen:
                seen.add(key)
                data["pareto"].append(t)
        chosen = data["pareto"]
    data["confirm"] = [
        {"number": t["number"], "commands": _confirm(setup, t, out, confirm_games)} for t in chosen
    ]
    return data
