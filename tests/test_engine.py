"""The engine contract, records and agents, exercised through sono-arcana."""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import xtarot
from xtarot.agents import RandomAgent, decision_for, make_agent, play_match
from xtarot.engine import count_deals, deal_uniform


def finished(seed: int = 4, players: int = 4) -> xtarot.State:
    game = xtarot.load("sono-arcana", players=players)
    return play_match(game, [RandomAgent(seed + s) for s in range(players)], seed=seed)


def test_games_lists_registered_games_with_their_options() -> None:
    infos = {g.id: g for g in xtarot.games()}
    info = infos["sono-arcana"]
    assert info.name_ja == "そのアルカナは欲しくない" and list(info.players) == [3, 4, 5]
    assert info.option("teams").default is False
    assert json.loads(json.dumps(info.to_dict()))["options"]["teams"]["players"] == [4]


def test_player_count_defaults_and_option_strings() -> None:
    assert xtarot.load("sono-arcana").players == 5
    assert xtarot.load("sono-arcana", players=4, teams="true").options["teams"] is True
    with pytest.raises(xtarot.ConfigError, match="takes true or false"):
        xtarot.load("sono-arcana", players=4, teams="maybe")
    with pytest.raises(xtarot.ConfigError, match="players must be a whole number"):
        xtarot.load("sono-arcana", players="four")  # type: ignore[arg-type]


def test_same_seed_same_match_and_seedless_states_keep_their_seed() -> None:
    game = xtarot.load("sono-arcana", players=3)
    assert game.new_state(seed=8).snapshot() == game.new_state(seed=8).snapshot()
    assert game.new_state(seed=8).deals != game.new_state(seed=9).deals
    state = game.new_state()
    assert isinstance(state.seed, int)
    assert game.new_state(seed=state.seed).deals == state.deals
    with pytest.raises(xtarot.DealError, match="not both"):
        game.new_state(deck=[], deal={})
    with pytest.raises(xtarot.DealError, match="seed must be a whole number"):
        game.new_state(seed="x")  # type: ignore[arg-type]


def test_action_ids_and_texts_round_trip() -> None:
    game = xtarot.load("sono-arcana", players=5)
    assert game.num_actions == 242
    for a in game.actions:
        assert game.action(a.text) is a and game.action(a.id) is a and int(a) == a.id
    assert game.action("  BID  up kc") is game.action("bid up Kc")


def test_apply_accepts_action_text_and_id_and_rejects_without_change() -> None:
    game = xtarot.load("sono-arcana", players=3)
    state = game.new_state(seed=1)
    before = state.snapshot()
    for bad, why in [
        ("bid up Kc", "not legal for seat"),
        ("dance", "'dance' is not an action of sono-arcana"),
        (9999, "out of range"),
        (xtarot.Action(5, "nonsense"), "not an action of sono-arcana"),
        (None, "an action is an Action, its text or its id"),
    ]:
        with pytest.raises(xtarot.IllegalAction, match=why) as info:
            state.apply(bad)  # type: ignore[arg-type]
        assert "legal now: lot 1, lot 2" in str(info.value)
        assert info.value.legal == ["lot 1", "lot 2"]
        assert state.snapshot() == before
    state.apply(1)  # "lot 2" by id
    hand = state.view(state.current_player)["hand"]  # type: ignore[arg-type]
    state.apply(f"bid up {hand[0]}")
    assert [a.text for a in state.history][:1] == ["lot 2"]
    mask = state.legal_action_mask()
    assert sum(mask) == len(state.legal_actions())


def test_terminal_state_has_no_legal_action() -> None:
    state = finished()
    assert state.is_terminal and state.current_player is None and state.legal_actions() == []
    with pytest.raises(xtarot.IllegalAction, match="the match is over"):
        state.apply("lot 1")


def test_clone_is_independent() -> None:
    state = xtarot.load("sono-arcana", players=4).new_state(seed=3)
    twin = state.clone()
    twin.apply("lot 2")
    assert len(state.history) == 0 and state.view(0)["lot"] != twin.view(0)["lot"]


def test_views_are_per_seat_and_json() -> None:
    state = xtarot.load("sono-arcana", players=4).new_state(seed=3)
    mine = state.view(1)
    assert len(mine["hand"]) == 16 and "hand" not in state.public_view()
    assert json.loads(json.dumps(mine)) == mine
    others = [set(state.view(s)["hand"]) for s in range(4)]
    assert all(not (others[a] & others[b]) for a, b in itertools.combinations(range(4), 2))
    with pytest.raises(ValueError, match=r"seats are 0..3"):
        state.view(4)


# -- records ------------------------------------------------------------------------------
def test_record_replays_exactly(tmp_path) -> None:  # type: ignore[no-untyped-def]
    state = finished()
    path = xtarot.save_record(state, tmp_path / "game.json", meta={"who": "test"})
    rec = xtarot.load_record(path)
    assert rec["format"] == "xtarot-record" and rec["version"] == 1
    assert rec["meta"] == {"xtarot": xtarot.__version__, "who": "test"}
    assert rec["result"]["final"] is True
    again = xtarot.replay(rec)
    assert again.snapshot() == state.snapshot()
    half = xtarot.replay(rec, upto=10)
    assert [a.text for a in half.history] == rec["actions"][:10]


@pytest.mark.parametrize(("game", "players"), [("grail-mahjong", 2), ("extendori", 4)])
def test_a_match_resumed_from_its_record_never_deals_a_seen_hand_again(
    game: str, players: int
) -> None:
    """A record keeps the deals, not the generator: a match replayed from it deals its
    next hands from a seed derived from the match's seed and the hands dealt (the same
    record always goes on the same way), never the match's first shuffles again."""
    g = xtarot.load(game, players=players)

    def cards(deal: dict[str, Any]) -> list[list[str]]:
        return sorted(sorted(map(str, hand)) for hand in deal["hands"])

    resumed = 0
    for seed in range(12):
        state, rng = g.new_state(seed=seed), random.Random(seed)
        while len(state.deals) < 2 and not state.is_terminal:
            state.apply(rng.choice(state.legal_actions()))
        if state.is_terminal:
            continue
        rec = json.loads(json.dumps(state.record()))
        courses = []
        for _ in range(2):
            again, moves = xtarot.replay(rec), random.Random(99)
            while len(again.deals) < 3 and not again.is_terminal:
                again.apply(moves.choice(again.legal_actions()))
            courses.append(again.deals)
        if len(courses[0]) < 3:
            continue
        resumed += 1
        assert courses[0] == courses[1]  # the same record goes on the same way
        seen = [cards(d) for d in courses[0][:2]]
        assert cards(courses[0][2]) not in seen, seed
    assert resumed >= 6


def test_tampered_records_fail_naming_the_first_bad_action() -> None:
    rec = finished().record()
    bad = json.loads(json.dumps(rec))
    bad["actions"][5] = "play T3"
    with pytest.raises(xtarot.RecordError, match=r"action 6 \('play T3'\) does not replay"):
        xtarot.replay(bad)
    bad = json.loads(json.dumps(rec))
    bad["result"]["totals"][0] += 1
    with pytest.raises(xtarot.RecordError, match="recorded result differs"):
        xtarot.replay(bad)
    for key, value, message in [
        ("version", 99, "version 99 is not supported"),
        ("format", "chess-pgn", "not an xtarot record"),
        ("game", "poker", "cannot be loaded"),
        ("players", "4", "wrong type"),
        ("deals", [{"hands": []}], "invalid deal"),
    ]:
        broken = {**rec, key: value}
        with pytest.raises(xtarot.RecordError, match=message):
            xtarot.replay(broken)
    with pytest.raises(xtarot.RecordError, match="not valid JSON"):
        xtarot.replay("{oops")
    swapped = json.loads(json.dumps(rec))
    hands = swapped["deals"][0]["hands"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
    with pytest.raises(xtarot.RecordError):
        xtarot.replay(swapped)


def test_load_record_errors(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(xtarot.RecordError, match="cannot read record"):
        xtarot.load_record(tmp_path / "missing.json")
    (tmp_path / "bad.json").write_text("[1, 2]")
    with pytest.raises(xtarot.RecordError, match="does not hold a record object"):
        xtarot.load_record(tmp_path / "bad.json")


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**40), picks=st.lists(st.integers(0, 10**6), max_size=120))
def test_any_action_sequence_replays_and_is_deterministic(seed: int, picks: list[int]) -> None:
    game = xtarot.load("sono-arcana", players=3 + seed % 3)
    state = game.new_state(seed=seed)
    for p in picks:
        if state.is_terminal:
            break
        legal = state.legal_actions()
        state.apply(legal[p % len(legal)])
    again = xtarot.replay(json.dumps(state.record()))
    assert again.snapshot() == state.snapshot()
    twin = game.new_state(seed=seed)
    for a in state.history:
        twin.apply(a.id)
    assert twin.snapshot() == state.snapshot()


# -- worlds ----------------------------------------------------------------------------------
def test_deal_uniform_matches_exact_counts() -> None:
    cards = ["c1", "c2", "d1", "d2", "s1"]
    caps = [2, 2, 1]

    def allowed(c: str) -> set[int]:
        return {1, 2} if c.startswith("c") else {0, 1, 2}  # seat 0 is void in c

    total = count_deals(cards, caps, allowed)
    # brute force over every assignment
    exact = Counter()
    for seats in itertools.product(range(3), repeat=5):
        if [seats.count(s) for s in range(3)] != caps:
            continue
        if any(s not in allowed(c) for c, s in zip(cards, seats, strict=True)):
            continue
        exact[seats] += 1
    assert total == sum(exact.values()) == 9
    rng = random.Random(7)
    seen: Counter[tuple[int, ...]] = Counter()
    draws = 9_000
    for _ in range(draws):
        hands = deal_uniform(cards, caps, allowed, rng)
        where = {c: s for s, h in enumerate(hands) for c in h}
        seen[tuple(where[c] for c in cards)] += 1
    assert set(seen) == set(exact)
    for freq in seen.values():  # each of 9 deals ~1000 times; 5 sigma is ~150
        assert 800 < freq < 1200


def test_deal_uniform_refuses_impossible_constraints() -> None:
    with pytest.raises(ValueError, match="no deal"):
        deal_uniform(["a", "b"], [1, 1], lambda c: {0}, random.Random(1))


def test_sampled_worlds_respect_voids_and_keep_own_hand() -> None:
    from test_sono_arcana import VOID_CUPS

    state = xtarot.load("sono-arcana", players=3).new_state(deal=VOID_CUPS, seed=1)
    for t in ["lot 1", "bid up 9c", "play 9d", "play Kw", "lot 1", "bid down 5c"]:
        state.apply(t)
    rng = random.Random(3)
    for _ in range(50):
        world = state.sample_world(1, rng)
        assert world.view(1) == state.view(1)
        # seat 2 showed a cup void: it never holds a cup in any world
        assert not [c for c in world.view(2)["hand"] if c.endswith("c")]
    # seat 0's face-down card is hidden from seat 1: it varies across worlds
    hidden = set()
    for _ in range(30):
        world = state.sample_world(1, rng)
        committed = world.plays[0][1].code  # type: ignore[attr-defined]
        hidden.add(committed)
        # every unseen cup must be seat 0's: seat 2 is void in cups
        pool = {*world.view(0)["hand"], committed}
        assert {f"{r}c" for r in "2 3 4 5 6 7 8 10 J Q K".split()} <= pool
    assert len(hidden) > 1


def test_agents_get_a_view_and_an_expiring_sampler() -> None:
    state = xtarot.load("sono-arcana", players=3).new_state(seed=2)
    decision = decision_for(state)
    assert decision.seat == state.current_player and decision.view == state.view(decision.seat)
    world = decision.sample_world(random.Random(1))
    assert world.view(decision.seat) == decision.view
    state.apply(decision.legal[0])
    with pytest.raises(RuntimeError, match="expired"):
        decision.sample_world(random.Random(1))
    assert make_agent("random", 1).name == "random"
    with pytest.raises(ValueError, match="unknown bot 'genius'; bots: random"):
        make_agent("genius")


def test_random_agents_are_reproducible() -> None:
    assert finished(seed=6).record() == finished(seed=6).record()


def test_views_are_detached_from_the_state() -> None:
    for info in xtarot.games():
        state = xtarot.load(info.id, players=info.min_players).new_state(seed=2)
        before = state.view(0)
        kept = json.dumps(before, sort_keys=True)
        public = json.dumps(state.public_view(), sort_keys=True)
        rng = random.Random(1)
        for _ in range(60):
            if state.is_terminal:
                break
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        assert json.dumps(before, sort_keys=True) == kept, info.id
        assert public  # still JSON


def test_peek_view_is_the_view_without_its_copy() -> None:
    """``peek_view`` holds exactly what ``view`` holds (the copy is the only
    difference) and refuses a bad seat the same way."""
    for info in xtarot.games():
        n = info.min_players
        state = xtarot.load(info.id, players=n).new_state(seed=3)
        rng = random.Random(2)
        for _ in range(40):
            for seat in range(n):
                assert state.peek_view(seat) == state.view(seat), info.id
            if state.is_terminal:
                break
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        with pytest.raises(ValueError, match="seat"):
            state.peek_view(n)


# -- the fast paths: the same draws and moves as the plain ones --------------------------------
def test_rand_draws_exactly_as_the_standard_library() -> None:
    from xtarot.engine import rand

    assert rand.EXACT  # CPython's random: the inline draws are in use
    for seed in range(30):
        for m in (0, 1, 2, 7, 8, 9, 34, 64, 65, 112):
            ours, theirs = random.Random(seed), random.Random(seed)
            a, b = list(range(m)), list(range(m))
            rand.shuffle(ours, a)
            theirs.shuffle(b)
            assert a == b and ours.random() == theirs.random()
        ours, theirs = random.Random(seed), random.Random(seed)
        assert [rand.below(ours, n) for n in range(1, 70)] == [
            theirs.randrange(n) for n in range(1, 70)
        ]

    class Loaded(random.Random):  # a subclass keeps its own way of drawing
        def random(self) -> float:
            return 0.0

        def getrandbits(self, k: int) -> int:
            return 0

    assert not rand.exact(Loaded(1))
    cards = list(range(10))
    rand.shuffle(Loaded(1), cards)
    expected = list(range(10))
    Loaded(1).shuffle(expected)
    assert cards == expected
    original = random.Random(5)
    original.random()
    twin = rand.copy_rng(original)
    assert twin is not original and twin.getstate() == original.getstate()
    assert [twin.random() for _ in range(3)] == [original.random() for _ in range(3)]


PLAYOUT_GAMES = [
    ("sono-arcana", 3, {}),
    ("sono-arcana", 4, {"teams": True}),
    ("sono-arcana", 5, {}),
    ("fairy500", 3, {}),
    ("fairy500", 4, {"pairs": True, "hands": 3}),
    ("fairy500", 5, {"classical": True, "hands": 2}),
    ("fairy500", 8, {"all_pass": "ten_per_trick", "hands": 2}),
    ("extendori", 3, {}),
    ("extendori", 6, {"teams": "pairs", "hands": 2}),
    ("extendori", 8, {"hands": 1}),
]


@pytest.mark.parametrize(("game_id", "players", "options"), PLAYOUT_GAMES)
def test_random_playout_makes_the_moves_of_the_public_loop(
    game_id: str, players: int, options: dict[str, object]
) -> None:
    """``random_playout`` (the games' own tighter loops) applies exactly the moves
    that ``legal_actions()`` + ``randrange`` + ``apply`` would, hand by hand."""
    game = xtarot.load(game_id, players=players, **options)
    for seed in range(6):
        state = game.new_state(seed=seed)
        walk = random.Random(seed)
        for _ in range(seed * 7):  # start from different points of the match
            if state.is_terminal:
                break
            legal = state.legal_actions()
            state.apply(legal[walk.randrange(len(legal))])
        for hand_only in (True, False):
            fast, slow = state.clone(), state.clone()
            done = fast.random_playout(random.Random(seed + 100), hand_only=hand_only)
            rng = random.Random(seed + 100)
            hands = len(slow.deals)
            steps = 0
            while not slow.is_terminal and not (hand_only and len(slow.deals) != hands):
                legal = slow.legal_actions()
                slow.apply(legal[rng.randrange(len(legal))])
                steps += 1
            assert done == steps
            assert [a.text for a in fast.history] == [a.text for a in slow.history]
            assert fast.snapshot() == slow.snapshot()
            assert fast.is_terminal == slow.is_terminal


STANDING_GAMES = [
    *PLAYOUT_GAMES,
    ("fairy500", 4, {"hands": 1}),
    ("fairy500", 6, {"classical": True, "all_pass": "redeal"}),
    ("fairy500", 7, {"all_pass": "redeal", "hands": 2}),
    ("matto", 4, {}),
    ("grail-mahjong", 3, {}),
]


@pytest.mark.parametrize(("game_id", "players", "options"), STANDING_GAMES)
def test_random_standing_is_the_standing_after_the_random_playout(
    game_id: str, players: int, options: dict[str, object]
) -> None:
    """``_random_standing`` (what a search reads after a random play-out; Fairy 500
    plays its tricks by a leaner loop) gives ``random_playout`` + ``_standing``'s
    numbers, and leaves the generator where ``random_playout`` leaves it, from every
    phase of a hand (mid-trick included) and whole matches."""
    game = xtarot.load(game_id, players=players, **options)
    kinds: set[str] = set()
    for seed in range(24):
        state = game.new_state(seed=seed)
        walk = random.Random(seed)
        for _ in range(walk.randrange(70)):
            if state.is_terminal:
                break
            legal = state.legal_actions()
            if seed % 2 and legal[0].text == "pass" and walk.random() < 0.8:
                state.apply(legal[0])  # (low bids and all-pass hands too, not only misères)
                continue
            state.apply(legal[walk.randrange(len(legal))])
        for hand_only in (True, False):
            slow, fast = state.clone(), state.clone()
            rng_slow, rng_fast = random.Random(seed + 7), random.Random(seed + 7)
            slow.random_playout(rng_slow, hand_only=hand_only)
            totals, ranks = slow._standing()
            got_totals, got_ranks = fast._random_standing(rng_fast, hand_only=hand_only)
            assert list(got_totals) == list(totals) and list(got_ranks) == list(ranks)
            assert [type(t) for t in got_totals] == [type(t) for t in totals]
            assert rng_fast.getstate() == rng_slow.getstate()
            if game_id == "fairy500" and slow.results:
                kinds.add(slow.results[-1]["kind"])
    if game_id == "fairy500":  # the lean tricks met contracts and misères
        assert {"contract", "misere"} <= kinds


@pytest.mark.parametrize("all_pass", ["redeal", "ramsch", "ten_per_trick"])
def test_random_standing_after_an_auction_everybody_passes(all_pass: str) -> None:
    """Fairy 500's play-out bids by a loop of its own: when the last bidder passes
    too, the hand is redealt or played as the rules say, with the same standing."""
    game = xtarot.load("fairy500", players=4, all_pass=all_pass, hands=2)
    state = game.new_state(seed=3)
    for _ in range(3):
        state.apply("pass")
    passed_out = 0
    for seed in range(160):
        slow, fast = state.clone(), state.clone()
        rng_slow, rng_fast = random.Random(seed), random.Random(seed)
        slow.random_playout(rng_slow, hand_only=True)
        got = fast._random_standing(rng_fast, hand_only=True)
        assert (list(got[0]), list(got[1])) == (
            list(slow._standing()[0]),
            list(slow._standing()[1]),
        )
        assert rng_fast.getstate() == rng_slow.getstate()
        passed_out += slow.results[0]["kind"] == all_pass
    assert passed_out  # (1 draw in 38 is the last pass)


def test_deal_uniform_by_key_is_deal_uniform_asked_per_key() -> None:
    from xtarot.cards import XTAROT
    from xtarot.engine.sampling import deal_uniform_by_key

    cards = [c for c in XTAROT if c.suit is not None][:40]
    for seed in range(40):
        setup = random.Random(seed)
        caps = [10, 10, 10, 10]
        voids = {s: set(setup.sample("cdsw", setup.randrange(2))) for s in range(4)}

        def seats_for(suit: object, voids: dict[int, set[str]] = voids) -> list[int]:
            return [s for s in range(4) if suit not in voids[s]]

        shuffled = cards[:]
        setup.shuffle(shuffled)  # the result may not depend on the order given
        try:
            expected = deal_uniform(cards, caps, lambda c: seats_for(c.suit), random.Random(seed))
        except ValueError:
            with pytest.raises(ValueError, match="no deal"):
                deal_uniform_by_key(shuffled, caps, lambda c: c.suit, seats_for, random.Random(1))
            continue
        got = deal_uniform_by_key(shuffled, caps, lambda c: c.suit, seats_for, random.Random(seed))
        assert got == expected


def test_positions_without_masked_moves_say_so() -> None:
    """Where a game says no move can look different to a seat (``_may_mask_for``),
    ``action_seen_by`` indeed shows every legal move as its text; search relies on it."""
    for info in xtarot.games():
        for players in (info.min_players, info.max_players):
            game = xtarot.load(info.id, players=players, **dict(info.bulk_options))
            for seed in range(4):
                state = game.new_state(seed=seed)
                walk = random.Random(seed)
                steps = 0
                while not state.is_terminal and steps < 300:
                    legal = state.legal_actions()
                    for seat in range(players):
                        if not state._may_mask_for(seat):
                            assert [state.action_seen_by(a, seat) for a in legal] == [
                                a.text for a in legal
                            ], (info.id, seed, steps, seat)
                    state.apply(legal[walk.randrange(len(legal))])
                    steps += 1


def test_deal_open_is_deal_uniform_with_every_seat_open() -> None:
    """``deal_open`` (no voids: the searches' common case) draws exactly the deal
    ``deal_uniform`` draws from the same generator, and leaves it in the same state."""
    from xtarot.cards import XTAROT
    from xtarot.engine.sampling import deal_open

    for seed in range(30):
        setup = random.Random(seed)
        caps = [setup.randrange(0, 9) for _ in range(setup.randrange(1, 7))]
        cards = setup.sample(list(XTAROT), sum(caps))  # in no particular order
        ours, theirs = random.Random(seed), random.Random(seed)
        got = deal_open(cards, caps, ours)
        seats = range(len(caps))
        assert got == deal_uniform(cards, caps, lambda c, seats=seats: seats, theirs)
        assert ours.getrandbits(64) == theirs.getrandbits(64)
    with pytest.raises(ValueError, match="cannot fill"):
        deal_open(list(XTAROT)[:3], [2, 2], random.Random(1))


def test_identity_helpers_are_remove_and_in_for_interned_cards() -> None:
    from xtarot.cards import XTAROT
    from xtarot.engine.identity import holds_same, remove_same

    deck = list(XTAROT)
    for seed in range(20):
        pick = random.Random(seed)
        hand = pick.sample(deck, 12)
        mine, theirs = list(hand), list(hand)
        for c in pick.sample(hand, 6):
            assert holds_same(mine, c)
            remove_same(mine, c)
            theirs.remove(c)
            assert mine == theirs and not holds_same(mine, c)
    with pytest.raises(ValueError):
        remove_same([deck[0]], deck[1])
