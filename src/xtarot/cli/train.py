"""``xtarot train``: learned models for the bots.

``xtarot train belief GAME -p N`` plays heuristic self-play matches, trains a
card-location (belief) model on the positions (the true hidden cards are known while
training only), evaluates it on held-out matches against the uniform sampler and writes
the weights (``xtarot.adapters.belief``; docs/agents.md, *The belief model*).
``xtarot train value fairy500 -p N`` plays every contract of random deals out with the
heuristic, trains a hand-value model (tricks per trump, misère) from each seat's hand
and evaluates it on held-out deals (``xtarot.adapters.value``; docs/agents.md, *The
hand-value model*); ``xtarot train value grail-mahjong -p N`` plays every answer of
the claim rounds of heuristic hands out and trains a claim model (the win share after
each answer, ``xtarot.adapters.value_grail``), ``sono-arcana`` the parent's lot
choices (``xtarot.adapters.value_sono``).  Needs only numpy
(``pip install "xtarot[train]"``).  Messages in English or Japanese (``--lang``).
"""

from __future__ import annotations

import json
import shlex
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer
from rich.console import Console

from xtarot.cli.i18n import os_reason, t
from xtarot.cli.options import (
    ForceOpt,
    GameArg,
    JsonOpt,
    LangOpt,
    OptionOpt,
    PlayersOpt,
    RunSeedOpt,
    run_seed,
)
from xtarot.cli.progress import progress

if TYPE_CHECKING:
    from xtarot.engine import Game

R = TypeVar("R")

__all__ = ["app"]

EpochsOpt = Annotated[int, typer.Option("--epochs", help="Passes over the training data.")]
HiddenOpt = Annotated[int, typer.Option("--hidden", help="Hidden units of the network.")]

app = typer.Typer(
    name="train",
    help="Train learned models for the bots (needs numpy: pip install 'xtarot\\[train]').",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _model_path(out: Path | None, default: str, force: bool, lang: str) -> Path:
    """The model file to write (``default`` when none is given): an ``.npz`` that is
    not there yet (or ``--force``) and can be written; else the command fails, saying
    why."""
    from xtarot.cli import main as cli
    from xtarot.cli.play import unwritable

    path = Path(default) if out is None else out
    if path.suffix != ".npz":
        cli.fail(t("train_suffix", lang, path=path), lang)
    if path.exists() and not force:
        cli.fail(t("data_exists", lang, path=path), lang)
    err = unwritable(path)
    if err is not None:
        cli.fail(t("data_unwritable", lang, path=path, why=os_reason(err, lang)), lang)
    return path


def _train(lang: str, epochs: int, as_json: bool, fit: Callable[[Callable[[int], None]], R]) -> R:
    """``fit(on_epoch)`` under the epochs' progress bar (none with ``--json``)."""
    with progress(
        t("train_epochs", lang), lang, total=epochs, quiet=as_json, line="progress_line_epochs"
    ) as update_epoch:
        return fit(update_epoch)


def _save(model: Any, out: Path, lang: str) -> int:
    """Write ``model`` to ``out`` and return its size; a file that cannot be written
    fails the command, saying why."""
    from xtarot.cli import main as cli

    try:
        return int(model.save(out))
    except OSError as error:
        cli.fail(t("data_unwritable", lang, path=out, why=os_reason(error, lang)), lang)


def _value_json(
    out: Path,
    game: Game,
    seed: int,
    command: str,
    rows: int,
    result: Any,
    seconds: dict[str, float],
    size: int,
    **extra: Any,
) -> str:
    """A value command's ``--json`` report: the file, the run, its data (``extra``
    after the rows), the training and the held-out evaluation."""
    return json.dumps(
        {
            "path": str(out),
            "game": game.id,
            "players": game.players,
            "seed": seed,
            "command": command,
            "rows": rows,
            **extra,
            "train_rows": result.train_rows,
            "validation_rows": result.validation_rows,
            "best_epoch": result.best_epoch,
            "evaluation": result.evaluation,
            "seconds": seconds,
            "bytes": size,
            "curve": [[round(a, 5), round(b, 5)] for a, b in result.curve],
        },
        ensure_ascii=False,
    )


@app.command("belief")
def belief(
    game: GameArg,
    players: PlayersOpt = None,
    n_games: Annotated[
        int, typer.Option("--games", "-n", help="Self-play matches to train on.")
    ] = 200,
    eval_games: Annotated[
        int, typer.Option("--eval-games", help="Held-out matches to evaluate on.")
    ] = 20,
    eval_positions: Annotated[
        int,
        typer.Option(
            "--eval-positions",
            help="Held-out positions scored (each against 128 uniform worlds).",
        ),
    ] = 200,
    epochs: EpochsOpt = 8,
    hidden: HiddenOpt = 32,
    relations: Annotated[
        int,
        typer.Option(
            "--relations",
            help="How many of the event-to-card relations the network reads, in order "
            "(same card, same suit, higher, lower, one apart, two apart, same number): "
            "1 to 7.",
        ),
    ] = 7,
    seed: RunSeedOpt = None,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="The model file (default: belief-GAME-Np.npz here)."),
    ] = None,
    option: OptionOpt = None,
    force: ForceOpt = False,
    as_json: JsonOpt = False,
    lang: LangOpt = None,
) -> None:
    """Train a card-location (belief) model: self-play positions, training, evaluation
    on held-out matches against the uniform sampler, the weights written to a file."""
    from xtarot.cli import main as cli

    lang = cli._lang(lang)
    info = cli._info(game, lang)
    g = cli._load(info, players, cli._options(info, option, lang), lang)
    for value in (n_games, eval_games, epochs, hidden, eval_positions):
        if value < 1:
            cli.fail(t("train_counts", lang), lang)
    if not 1 <= relations <= 7:
        cli.fail(t("train_relations", lang), lang)
    out = _model_path(out, f"belief-{info.id}-{g.players}p.npz", force, lang)
    try:
        from xtarot.adapters.belief import generate, train_on
    except ImportError:
        cli.fail(t("train_no_numpy", lang), lang, code=1)
    seed = run_seed(seed)
    command = ["xtarot", "train", "belief", info.id, "-p", str(g.players)]
    command += ["--games", str(n_games), "--eval-games", str(eval_games)]
    command += ["--eval-positions", str(eval_positions), "--epochs", str(epochs)]
    command += ["--hidden", str(hidden)]
    if relations != 7:  # the default leaves the recorded command as it was
        command += ["--relations", str(relations)]
    command += ["--seed", str(seed)]
    for item in option or []:
        command += ["-o", item]
    command += ["--out", str(out)]
    start = time.perf_counter()
    total = n_games + eval_games
    with progress(t("train_progress", lang), lang, total=total, quiet=as_json) as update:
        data = generate(
            g, n_games, seed, eval_games=eval_games, eval_positions=eval_positions, on_game=update
        )
    gen_seconds = time.perf_counter() - start
    result = _train(
        lang,
        epochs,
        as_json,
        lambda on_epoch: train_on(
            g,
            data,
            seed=seed,
            games=n_games,
            eval_games=eval_games,
            epochs=epochs,
            hidden_units=hidden,
            relations=relations,
            command=shlex.join(command),
            on_epoch=on_epoch,
        ),
    )
    model = result.model
    # the times stay out of the file: the same command and seed write the same bytes
    seconds = {"generate": round(gen_seconds, 1), "train": round(result.seconds, 1)}
    size = _save(model, out, lang)
    ev = result.evaluation
    if as_json:
        typer.echo(
            json.dumps(
                {
                    "path": str(out),
                    "game": info.id,
                    "players": g.players,
                    "options": model.meta["options"],
                    "seed": seed,
                    "command": shlex.join(command),
                    "positions": model.meta["positions"],
                    "train_positions": result.train_positions,
                    "validation_positions": result.validation_positions,
                    "best_epoch": result.best_epoch,
                    "locations": list(model.locations),
                    "evaluation": ev.to_dict(),
                    "seconds": seconds,
                    "bytes": size,
                    "curve": [[round(a, 5), round(b, 5)] for a, b in result.curve],
                },
                ensure_ascii=False,
            )
        )
        return
    console = Console(highlight=False, markup=False, soft_wrap=True)
    console.print(
        t(
            "train_done",
            lang,
            path=out,
            size=size,
            positions=model.meta["positions"],
            gen=gen_seconds,
            train=result.seconds,
            seed=seed,
        )
    )
    console.print(
        t(
            "train_eval",
            lang,
            n=ev.positions,
            cards=ev.cards,
            model=ev.model,
            uniform=ev.uniform_corrected,
            ratio=ev.ratio,
        )
    )


@app.command("value")
def value(
    game: GameArg,
    players: PlayersOpt = None,
    deals: Annotated[
        int, typer.Option("--deals", "-n", help="Random deals to train on (every seat a hand).")
    ] = 1000,
    eval_deals: Annotated[
        int, typer.Option("--eval-deals", help="Held-out deals to evaluate on.")
    ] = 100,
    epochs: EpochsOpt = 30,
    hidden: HiddenOpt = 64,
    seed: RunSeedOpt = None,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="The model file (default: value-GAME-Np.npz here)."),
    ] = None,
    option: OptionOpt = None,
    force: ForceOpt = False,
    as_json: JsonOpt = False,
    lang: LangOpt = None,
) -> None:
    """Train a hand-value model: for fairy500, every contract of random deals played
    out by the heuristic, a network from each seat's hand to its tricks per trump and
    its misère; for grail-mahjong, every answer of each claim round of heuristic hands
    played out, a network from the seat's view and an answer to its win share.
    Evaluated on held-out deals; the weights written to a file."""
    from xtarot.cli import main as cli

    lang = cli._lang(lang)
    info = cli._info(game, lang)
    if info.id not in ("fairy500", "grail-mahjong", "sono-arcana"):
        cli.fail(t("train_value_game", lang, game=info.id), lang)
    options = cli._options(info, option, lang)
    if info.id != "sono-arcana":  # (one auction is the whole match there)
        options["hands"] = 1  # the play-outs are single hands
    g = cli._load(info, players, options, lang)
    for number in (deals, eval_deals, epochs, hidden):
        if number < 1:
            cli.fail(t("train_value_counts", lang), lang)
    out = _model_path(out, f"value-{info.id}-{g.players}p.npz", force, lang)
    try:
        from xtarot.adapters.value import generate, metadata, train_value
    except ImportError:
        cli.fail(t("train_no_numpy", lang), lang, code=1)
    seed = run_seed(seed)
    command = ["xtarot", "train", "value", info.id, "-p", str(g.players)]
    command += ["--deals", str(deals), "--eval-deals", str(eval_deals)]
    command += ["--epochs", str(epochs), "--hidden", str(hidden), "--seed", str(seed)]
    for item in option or []:
        command += ["-o", item]
    command += ["--out", str(out)]
    if info.id != "fairy500":
        _answers(
            g, deals, eval_deals, epochs, hidden, seed, shlex.join(command), out, as_json, lang
        )
        return
    start = time.perf_counter()
    total = deals + eval_deals
    with progress(
        t("train_value_progress", lang),
        lang,
        total=total,
        quiet=as_json,
        line="progress_line_deals",
    ) as update:
        data = generate(g, deals, seed, eval_deals=eval_deals, on_deal=update)
    gen_seconds = time.perf_counter() - start
    meta = metadata(
        g,
        seed=seed,
        deals=deals,
        eval_deals=eval_deals,
        epochs=epochs,
        rows=len(data.x),
        command=shlex.join(command),
    )
    result = _train(
        lang,
        epochs,
        as_json,
        lambda on_epoch: train_value(
            data, meta, epochs=epochs, hidden_units=hidden, seed=seed, on_epoch=on_epoch
        ),
    )
    model = result.model
    seconds = {"generate": round(gen_seconds, 1), "train": round(result.seconds, 1)}
    size = _save(model, out, lang)
    ev = result.evaluation
    if as_json:
        typer.echo(
            _value_json(out, g, seed, shlex.join(command), len(data.x), result, seconds, size)
        )
        return
    console = Console(highlight=False, markup=False, soft_wrap=True)
    console.print(
        t(
            "train_value_done",
            lang,
            path=out,
            size=size,
            rows=len(data.x),
            deals=deals + eval_deals,
            gen=gen_seconds,
            train=result.seconds,
            seed=seed,
        )
    )
    console.print(
        t(
            "train_value_eval",
            lang,
            n=ev["rows"],
            mae=ev["tricks_mae"],
            hmae=ev["heuristic_mae"],
            corr=ev["tricks_corr"],
            hcorr=ev["heuristic_corr"],
            loss=ev["tricks_logloss"],
            base=ev["marginal_logloss"],
        )
    )


def _answers(
    g: Game,
    deals: int,
    eval_deals: int,
    epochs: int,
    hidden: int,
    seed: int,
    command: str,
    out: Path,
    as_json: bool,
    lang: str,
) -> None:
    """``xtarot train value grail-mahjong`` (the claim model,
    :mod:`xtarot.adapters.value_grail`) and ``sono-arcana`` (the lot model,
    :mod:`xtarot.adapters.value_sono`)."""
    from xtarot.adapters.value_grail import ClaimModel, metadata, train_claims
    from xtarot.cli import main as cli

    model_class: type[ClaimModel]
    if g.id == "sono-arcana":
        from xtarot.adapters.value_sono import LotModel, generate

        model_class, kind = LotModel, "lot"
    else:
        from xtarot.adapters.value_grail import generate

        model_class, kind = ClaimModel, "claim"
    start = time.perf_counter()
    with progress(
        t(f"train_{kind}_progress", lang),
        lang,
        total=deals + eval_deals,
        quiet=as_json,
        line="progress_line_deals",
    ) as update:
        data = generate(g, deals, seed, eval_deals=eval_deals, on_deal=update)
    gen_seconds = time.perf_counter() - start
    rounds = int(data.decision.max()) + 1 if len(data.decision) else 0
    if not len(data.deal) or not (data.deal < deals).any():
        cli.fail(t("train_claim_none", lang), lang)
    meta = metadata(
        g,
        seed=seed,
        deals=deals,
        eval_deals=eval_deals,
        epochs=epochs,
        rows=len(data.x),
        rounds=rounds,
        command=command,
    )
    result = _train(
        lang,
        epochs,
        as_json,
        lambda on_epoch: train_claims(
            data,
            meta,
            epochs=epochs,
            hidden_units=hidden,
            seed=seed,
            on_epoch=on_epoch,
            model_class=model_class,
        ),
    )
    model = result.model
    seconds = {"generate": round(gen_seconds, 1), "train": round(result.seconds, 1)}
    size = _save(model, out, lang)
    ev = result.evaluation
    if as_json:
        typer.echo(
            _value_json(out, g, seed, command, len(data.x), result, seconds, size, rounds=rounds)
        )
        return
    console = Console(highlight=False, markup=False, soft_wrap=True)
    console.print(
        t(
            f"train_{kind}_done",
            lang,
            path=out,
            size=size,
            rows=len(data.x),
            rounds=rounds,
            deals=deals + eval_deals,
            gen=gen_seconds,
            train=result.seconds,
            seed=seed,
        )
    )
    if ev.get("rounds"):
        console.print(
            t(
                f"train_{kind}_eval",
                lang,
                rounds=ev["rounds"],
                n=ev["rows"],
                loss=ev["logloss"],
                base=ev["base_logloss"],
                heur=ev["heuristic"],
                model=ev["model"],
                margin=ev["margin"],
                changed=ev["bot_changed"],
                bot=ev["bot"],
                pas=ev["pass"],
                best=ev["best"],
            )
        )
