"""The rule variants compared the way chapter 5 (*Rule variants*) compares them, each by
one call: how the presets differ, in words; each preset's chance of being dealt the
contract, "impossible" where it cannot be dealt; each preset at its own shoe; the turn
by which half have laid down; and a rule changed over seeded rounds (the buy limit, the
buy timing).

Each function is a few lines of Python or polars that a student can read in its source;
a chapter's cell so stays a line or two.

>>> from rummykit import RuleSet
>>> rule_text("decks_by_players", ((2, 2), (3, 2), (4, 2), (5, 3)))
'2-4: 2, 5-5: 3'
>>> differing_rules({"standard": RuleSet.preset("standard")}, RuleSet.preset("standard"))
[]
"""

from __future__ import annotations

import dataclasses

from rummykit._optional import require
from rummykit.chance import chance_text
from rummykit.display import chance_column, check_frame
from rummykit.engine.checks import choice, instance, items, whole
from rummykit.engine.rules import RuleSet
from rummykit.errors import ArgumentError, ArgumentTypeError

require("polars", extra="analysis", feature="rummykit.teach.rule_variants")

import polars as pl  # noqa: E402

__all__ = [
    "buy_limit_text",
    "chance_columns",
    "dealt_chances_by_preset",
    "differing_rules",
    "half_and_ever",
    "half_and_ever_table",
    "own_shoes",
    "preset_differences",
    "RULE_WORDS",
    "rounds_with",
    "rule_text",
]

#: Each rule of :class:`~rummykit.engine.rules.RuleSet` (but its name and contracts) in the
#: words a table shows a learner, in place of the field's name.
RULE_WORDS = {
    "min_players": "fewest players",
    "max_players": "most players",
    "decks_by_players": "decks (players: decks)",
    "jokers_by_decks": "jokers",
    "deal_sizes": "cards dealt, round by round",
    "min_set_size": "fewest cards in a set",
    "min_run_size": "fewest cards in a run",
    "max_jokers_per_meld": "most jokers in a meld",
    "min_naturals_in_set": "fewest natural cards in a set",
    "min_naturals_in_run": "fewest natural cards in a run",
    "ace_low": "ace below the 2",
    "ace_high": "ace above the king",
    "same_suit_runs": "two runs of one suit",
    "extra_melds": "extra melds when laying down",
    "joker_swap": "a joker swapped out of",
    "joker_swap_needs_laid_down": "only a laid-down player swaps",
    "swapped_joker_must_be_played": "a swapped joker played at once",
    "joker_trade_once": "a joker traded only once",
    "buying": "buying",
    "buy_timing": "the buy window opens",
    "buy_priority": "who gets a discard several want",
    "buy_penalty_cards": "penalty cards per buy",
    "buy_limit": "buys per player per round",
    "last_round_buy_limit": "buys in the last round",
    "last_round_no_discard": "last round: out with no discard",
    "floating": "float with no card to discard",
    "discard_call": "a call on a discard that fits",
    "invalid_lay_down_penalty": "points for an invalid lay-down",
    "perfect_cut_bonus": "points off for a perfect cut",
    "repeat_missed_contract": "a missed contract played again",
    "points": "card values",
    "negative_scores": "scores written as negatives",
    "reshuffle_discards": "discards reshuffled into the stock",
}


def rule_text(name: str, value) -> str:
    """A rule's value in words: no limit, yes/no, ranges of players.

    >>> rule_text("buy_limit", None), rule_text("going_out_discard", True)
    ('no limit', 'yes')
    >>> rule_text("buy_timing", "after_decline"), rule_text("jokers_by_decks", ((1, 2),))
    ('after decline', '2 per deck')
    """
    instance("name", name, str, "a rule's name")
    if value is None:
        # The last round's limit, unset, is the other rounds' (RuleSet.last_round_buy_limit).
        return "as other rounds" if name == "last_round_buy_limit" else "no limit"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        return value.replace("_", " ")
    if name in ("decks_by_players", "jokers_by_decks"):
        value = items(name, value, _pair, what="a tuple of pairs of integers", least=1)
    if name == "decks_by_players":
        spans = {}
        for players, decks in value:
            spans.setdefault(decks, []).append(players)
        return ", ".join(f"{min(p)}-{max(p)}: {d}" for d, p in spans.items())
    if name == "jokers_by_decks":
        return f"{value[0][1] // value[0][0]} per deck"
    return " ".join(map(str, value)) if isinstance(value, tuple) else str(value)


def _field(name: object) -> str:
    """``name`` if it names a field of :class:`~rummykit.engine.rules.RuleSet`."""
    instance("field", name, str, "the name of a RuleSet field")
    return choice("field", name, [f.name for f in dataclasses.fields(RuleSet)])


def _pair(label: str, pair: object) -> tuple[int, int]:
    found = items(label, pair, lambda n, x: whole(n, x, low=1), what="a pair of integers")
    if len(found) != 2:
        raise ArgumentError(f"{label} must be a pair of integers, got {pair!r}")
    return found[0], found[1]


def _presets(presets: object) -> dict[str, RuleSet]:
    instance("presets", presets, dict, "a dict of RuleSets by name")
    for name, rules in presets.items():
        instance(f"presets[{name!r}]", rules, RuleSet, "a RuleSet")
    return presets


def differing_rules(presets: dict[str, RuleSet], standard: RuleSet) -> list[str]:
    """The fields of :class:`~rummykit.engine.rules.RuleSet` (but its name and contracts) in
    which some preset of ``presets`` differs from ``standard``."""
    _presets(presets)
    instance("standard", standard, RuleSet, "a RuleSet")
    skipped = ("name", "contracts")
    fields = [f.name for f in dataclasses.fields(RuleSet) if f.name not in skipped]
    return [
        name
        for name in fields
        if any(getattr(r, name) != getattr(standard, name) for r in presets.values())
    ]


def preset_differences(presets: dict[str, RuleSet], standard: RuleSet) -> pl.DataFrame:
    """A row per rule in which the presets differ (:func:`differing_rules`), named in words
    (:data:`RULE_WORDS`), a column per preset with its value in words (:func:`rule_text`).

    >>> presets = {name: RuleSet.preset(name) for name in ("standard", "family")}
    >>> table = preset_differences(presets, RuleSet.preset("standard"))
    >>> table.columns, table.row(0)
    (['rule', 'standard', 'family'], ('most players', '8', '6'))
    """
    differing = differing_rules(presets, standard)
    columns = {"rule": [RULE_WORDS[name] for name in differing]}
    for preset, rules in presets.items():
        columns[preset] = [rule_text(name, getattr(rules, name)) for name in differing]
    return pl.DataFrame(columns)


def dealt_chances_by_preset(frame: pl.DataFrame) -> pl.DataFrame:
    """A row per round (and contract), a column per preset (``rules``): the chance of
    being dealt the contract in words, "impossible" where it cannot be dealt (an exact
    0), never "0%".

    >>> frame = pl.DataFrame({"round": [1, 1], "contract": ["2 sets"] * 2,
    ...     "rules": ["standard", "strict"], "p": [0.0891, 0.0], "p_exact": ["x", "0"]})
    >>> dealt_chances_by_preset(frame).row(0)
    (1, '2 sets', '8.9% (1 in 11)', 'impossible')
    """
    check_frame("frame", frame, ("round", "contract", "rules", "p", "p_exact"))
    dealt_text = (
        pl.when(pl.col("p_exact") == "0").then(pl.lit("impossible")).otherwise(chance_column("p"))
    )
    return (
        frame.with_columns(dealt_text.alias("chance"))
        .pivot(on="rules", index=["round", "contract"], values="chance")
        .sort("round")
    )


def own_shoes(presets: dict[str, RuleSet]) -> pl.DataFrame:
    """Each preset's own shoe (``decks``, ``jokers``) at each player count it allows.

    >>> shoes = own_shoes({"standard": RuleSet.preset("standard")})
    >>> shoes.filter(players=4).row(0)
    ('standard', 4, 2, 4)
    """
    _presets(presets)
    return pl.DataFrame(
        [
            {
                "rules": name,
                "players": n,
                "decks": r.decks_for(n),
                "jokers": r.jokers_for(r.decks_for(n)),
            }
            for name, r in presets.items()
            for n in range(r.min_players, r.max_players + 1)
        ],
        schema={"rules": pl.Utf8, "players": pl.Int8, "decks": pl.Int8, "jokers": pl.Int8},
    )


def half_and_ever(curve: pl.DataFrame) -> str:
    """The turn by which half have laid down ("never" if none) and the chance of ever
    laying down, of a curve (``turn``, ``p``).

    >>> half_and_ever(pl.DataFrame({"turn": [2, 1, 3], "p": [0.55, 0.2, 0.8]}))
    'turn 2; 80%'
    """
    check_frame("curve", curve, ("turn", "p"))
    if curve.is_empty():
        raise ArgumentError("curve has no row to read")
    curve = curve.sort("turn")
    half = curve.filter(pl.col("p") >= 0.5)["turn"]
    when = f"turn {half[0]}" if len(half) else "never"
    return f"{when}; {chance_text(curve['p'][-1])}"


def half_and_ever_table(curves: pl.DataFrame, presets: list[str]) -> pl.DataFrame | None:
    """:func:`half_and_ever` of each preset (a column each, in the order of ``presets``)
    and round (a row each) of ``curves``; "not simulated" where a preset has no curve,
    None when ``curves`` is empty.

    >>> curves = pl.DataFrame({"rules": ["a", "a", "b"], "round": [1, 1, 1],
    ...     "contract": ["2 sets"] * 3, "turn": [1, 2, 1], "p": [0.4, 0.6, 0.7]})
    >>> half_and_ever_table(curves, ["a", "b", "c"]).rows()
    [(1, '2 sets', 'turn 2; 60%', 'turn 1; 70%', 'not simulated')]
    """
    check_frame("curves", curves, ("rules", "round", "contract", "turn", "p"))
    presets = items("presets", presets, lambda n, x: instance(n, x, str, "a preset's name"))
    groups = curves.group_by("rules", "round", maintain_order=True)
    names = ["round", "contract", "rules", "half by; ever"]
    rows = [
        {
            "round": number,
            "contract": curve["contract"][0],
            "rules": name,
            "half by; ever": half_and_ever(curve),
        }
        for (name, number), curve in groups
    ]
    if not rows:
        return None
    table = (
        pl.DataFrame(rows, schema=names, orient="row")
        .pivot(on="rules", index=["round", "contract"], values="half by; ever")
        .sort("round")
    )
    missing = [pl.lit(None, pl.String).alias(p) for p in presets if p not in table.columns]
    return (
        table.with_columns(missing).select("round", "contract", *presets).fill_null("not simulated")
    )


def buy_limit_text(limit: int | None) -> str:
    """A buy limit in words.

    >>> buy_limit_text(None), buy_limit_text(3)
    ('no limit', '3 per round')
    """
    if limit is not None:
        whole("limit", limit, low=0)
    return "no limit" if limit is None else f"{limit} per round"


def rounds_with(
    rules: RuleSet,
    field: str,
    values: tuple,
    *,
    label: str,
    rounds: int | list[int],
    buy: str,
    words=None,
    players: int = 4,
    n: int = 2000,
    seed: int = 2026,
) -> pl.DataFrame:
    """:func:`rummykit.odds.play.completion.round_summary` of ``rules`` with ``field`` set to
    each of ``values`` in turn: ``n`` seeded rounds (the same ``seed`` each time) of
    ``players`` players who buy by policy ``buy``, the value in words (``words``, else
    :func:`rule_text`) in a column ``label``.

    >>> summary = rounds_with(RuleSet.preset("standard"), "buy_limit", (None, 0),
    ...     label="buy limit", words=buy_limit_text, rounds=1, buy="always", n=20)
    >>> sorted(set(summary["buy limit"]))
    ['0 per round', 'no limit']
    """
    from rummykit.odds.play.completion import round_summary

    instance("rules", rules, RuleSet, "a RuleSet")
    if _field(field) == "name":
        raise ArgumentError("field must be a rule, not the RuleSet's name")
    values = items("values", values, what="a tuple of the field's values", least=1)
    instance("label", label, str, "a column name")
    if words is not None and not callable(words):
        raise ArgumentTypeError(f"words must be a function (value -> str) or None, got {words!r}")
    tables = []
    for value in values:
        changed = dataclasses.replace(rules, **{field: value}, name=_name(rules, field, value))
        table = round_summary(
            rules=changed,
            players=players,
            rounds=rounds,
            buy=buy,
            n=n,
            seed=seed,
            max_workers=1,
            progress=False,
        )
        text = words(value) if words else rule_text(field, value)
        tables.append(table.with_columns(pl.lit(text).alias(label)))
    return pl.concat(tables)


def _name(rules: RuleSet, field: str, value) -> str:
    # The names chapter 5 gave its variants (a variant's name is part of what it shows).
    if field == "buy_limit":
        return f"limit {value}"
    return f"{rules.name}, {value}"


def chance_columns(frame: pl.DataFrame, name: str, *by: str) -> pl.DataFrame:
    """The columns ``by``, then the chance ``mean`` as ``name`` and its 95% interval as
    "95% from" and "95% to" (to show with ``chances=[name, "95% from", "95% to"]``).

    >>> frame = pl.DataFrame({"round": [1], "mean": [0.5], "ci_low": [0.4],
    ...                       "ci_high": [0.6]})
    >>> chance_columns(frame, "went out", "round").columns
    ['round', 'went out', '95% from', '95% to']
    """
    instance("name", name, str, "a column name")
    check_frame("frame", frame, (*by, "mean", "ci_low", "ci_high"))
    return frame.select(
        *by,
        pl.col("mean").alias(name),
        pl.col("ci_low").alias("95% from"),
        pl.col("ci_high").alias("95% to"),
    )
