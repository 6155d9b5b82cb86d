"""Ratings and match history: a rating per game for every player identity.

Each finished match that has at least one human with a player identity is rated once,
with openskill's Plackett-Luce model (a Bayesian rating for any number of players,
published by Joshi, 2024, after Weng and Lin, 2011): every seat is a team of one,
its place is the match's rank (partners who share a score share a place). Bots are
rated too, under one fixed identity per level (``bot-easy``, ``bot-normal``,
``bot-hard``, and ``bot-NAME`` for the researchers' bots), so a player sees where they
stand against them. A human who plays without an identity takes part at the starting
rating and is not stored; a match where one identity holds two seats is not rated.

The number people see is ``1000 + 40 * (mu - 3 * sigma)``: a new identity starts at
1000 (mu 25, sigma 25/3), and the number rises as the rating becomes both higher and
surer.

>>> shown(25.0, 25.0 / 3)
1000
>>> bot_id("hard")
'bot-hard'
"""

from __future__ import annotations

import time
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import func, insert, select, update

from xtarot.server.store import SeatSpec, Store, players_t, ratings_t, results_t, tables_t

__all__ = ["bot_id", "leaderboard", "player_page", "rate_match", "shown", "table_results"]

BASE = 1000
SCALE = 40
_MODEL = PlackettLuce()


def shown(mu: float, sigma: float) -> int:
    """The rating as people see it."""
    return round(BASE + SCALE * (mu - 3.0 * sigma))


def bot_id(name: str) -> str:
    """The fixed identity a bot is rated under."""
    return f"bot-{name}"


def _identities(seats: list[SeatSpec]) -> list[str | None] | None:
    """Each seat's identity, or ``None`` when the match is not rated."""
    ids: list[str | None] = []
    for spec in seats:
        if spec.kind == "bot":
            ids.append(bot_id(spec.bot or "bot"))
        else:
            ids.append(spec.player)
    humans = [i for i, s in zip(ids, seats, strict=True) if s.kind == "human" and i]
    if not humans or len(set(humans)) != len(humans):
        return None
    return ids


def rate_match(
    store: Store, table_id: str, game: str, seats: list[SeatSpec], result: dict[str, Any]
) -> list[dict[str, Any]]:
    """Rate a finished match once (a second call returns the first's results) and
    return its seats' results; ``[]`` when the match is not rated."""
    ids = _identities(seats)
    if ids is None:
        return []
    ranks = [int(r) for r in result["ranks"]]
    totals = [float(t) for t in result["totals"]]
    now = time.time()
    with store.engine.begin() as conn:
        if conn.execute(
            select(results_t.c.seat).where(results_t.c.table_id == table_id).limit(1)
        ).first():
            return table_results(store, table_id)
        known = {
            row.player: row
            for row in conn.execute(
                select(ratings_t)
                .where(ratings_t.c.game == game, ratings_t.c.player.in_([i for i in ids if i]))
                .with_for_update()
            )
        }
        before = [
            _MODEL.rating(mu=known[i].mu, sigma=known[i].sigma) if i in known else _MODEL.rating()
            for i in ids
        ]
        after = [team[0] for team in _MODEL.rate([[r] for r in before], ranks=ranks)]
        # one identity per bot level: its seats' new ratings are averaged
        new: dict[str, list[Any]] = {}
        for ident, rating in zip(ids, after, strict=True):
            if ident is not None:
                new.setdefault(ident, []).append(rating)
        for ident, ratings in new.items():
            mu = sum(r.mu for r in ratings) / len(ratings)
            sigma = sum(r.sigma for r in ratings) / len(ratings)
            if ident in known:
                conn.execute(
                    update(ratings_t)
                    .where(ratings_t.c.game == game, ratings_t.c.player == ident)
                    .values(mu=mu, sigma=sigma, matches=known[ident].matches + 1, updated=now)
                )
            else:
                conn.execute(
                    insert(ratings_t).values(
                        game=game, player=ident, mu=mu, sigma=sigma, matches=1, updated=now
                    )
                )
        for seat, spec in enumerate(seats):
            ident = ids[seat]
            conn.execute(
                insert(results_t).values(
                    table_id=table_id,
                    seat=seat,
                    game=game,
                    player=ident,
                    name=spec.name if spec.kind == "human" else spec.bot,
                    rank=ranks[seat],
                    score=totals[seat],
                    before=shown(before[seat].mu, before[seat].sigma) if ident else None,
                    after=shown(after[seat].mu, after[seat].sigma) if ident else None,
                    at=now,
                )
            )
    return table_results(store, table_id)


def _result(row: Any) -> dict[str, Any]:
    return {
        "seat": row.seat,
        "player": row.player,
        "name": row.name,
        "bot": row.player[4:] if row.player and row.player.startswith("bot-") else None,
        "rank": row.rank,
        "score": row.score,
        "before": None if row.before is None else round(row.before),
        "after": None if row.after is None else round(row.after),
    }


def table_results(store: Store, table_id: str) -> list[dict[str, Any]]:
    """A rated match's seats in order (``[]`` if it was not rated)."""
    query = select(results_t).where(results_t.c.table_id == table_id).order_by(results_t.c.seat)
    with store.engine.connect() as conn:
        return [_result(row) for row in conn.execute(query)]


def leaderboard(store: Store, game: str, limit: int = 50) -> list[dict[str, Any]]:
    """A game's ratings, best first: humans by their latest name, bots by level."""
    query = (
        select(ratings_t, players_t.c.name)
        .join(players_t, players_t.c.id == ratings_t.c.player, isouter=True)
        .where(ratings_t.c.game == game)
    )
    with store.engine.connect() as conn:
        rows = list(conn.execute(query))
    out = [
        {
            "player": row.player,
            "name": row.name,
            "bot": row.player[4:] if row.player.startswith("bot-") else None,
            "rating": shown(row.mu, row.sigma),
            "mu": round(row.mu, 3),
            "sigma": round(row.sigma, 3),
            "matches": row.matches,
        }
        for row in rows
    ]
    out.sort(key=lambda r: (-r["rating"], -r["matches"], r["player"]))
    for place, row in enumerate(out, 1):
        row["place"] = place
    return out[:limit]


def player_page(store: Store, player: str, limit: int = 50) -> dict[str, Any] | None:
    """A player's name, ratings per game and latest rated matches with everyone at the
    table; ``None`` for an unknown identity."""
    with store.engine.connect() as conn:
        who = conn.execute(select(players_t).where(players_t.c.id == player)).first()
        if who is None and not player.startswith("bot-"):
            return None
        ratings = [
            {
                "game": row.game,
                "rating": shown(row.mu, row.sigma),
                "matches": row.matches,
            }
            for row in conn.execute(select(ratings_t).where(ratings_t.c.player == player))
        ]
        mine = list(
            conn.execute(
                select(results_t, tables_t.c.players)
                .join(tables_t, tables_t.c.id == results_t.c.table_id)
                .where(results_t.c.player == player)
                .order_by(results_t.c.at.desc())
                .limit(limit)
            )
        )
        ids = [row.table_id for row in mine]
        seats: dict[str, list[dict[str, Any]]] = {}
        if ids:
            for row in conn.execute(
                select(results_t).where(results_t.c.table_id.in_(ids)).order_by(results_t.c.seat)
            ):
                seats.setdefault(row.table_id, []).append(_result(row))
        total = conn.execute(
            select(func.count()).select_from(results_t).where(results_t.c.player == player)
        ).scalar()
    matches = [
        {
            "table": row.table_id,
            "game": row.game,
            "at": row.at,
            "seat": row.seat,
            "rank": row.rank,
            "score": row.score,
            "before": None if row.before is None else round(row.before),
            "after": None if row.after is None else round(row.after),
            "players": seats.get(row.table_id, []),
        }
        for row in mine
    ]
    return {
        "player": player,
        "name": who.name if who is not None else None,
        "bot": player[4:] if player.startswith("bot-") else None,
        "ratings": sorted(ratings, key=lambda r: r["game"]),
        "matches": matches,
        "total": int(total or 0),
    }
