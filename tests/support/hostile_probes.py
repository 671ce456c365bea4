"""Hostile-argument probes of every public callable (run by tests/test_hostile_api.py).

Run as a script, in a child process: ``python tests/support/hostile_probes.py SKIP`` runs every
probe after the first SKIP, each under a memory limit (RLIMIT_AS, the child's size once
every module and baseline is loaded, plus :data:`MEMORY_BYTES`) and an alarm of :data:`SECONDS`, and prints one JSON line per
probe: ``{"i", "probe", "outcome", "detail"}``, flushed before and after, so that a probe
that hangs in C (which no alarm interrupts) is named by the parent that kills the child.

A probe holds when the call returns normally or raises a RummyError in time and within
memory, and a refusal leaves the good arguments as they were (the game state, the bots,
the lists: compared pickled before and after); anything else (another exception,
MemoryError, the alarm, a refusal that changed its arguments) is a failure.
"""

from __future__ import annotations

import importlib
import inspect
import json
import math
import os
import pickle
import resource
import shutil
import signal
import sys
import tempfile
import zipfile
from pathlib import Path

#: The project's folder (the probes run in a folder of their own, see :func:`run`).
ROOT = Path(__file__).resolve().parents[2]

#: The public modules probed (not the widgets): every callable in their ``__all__``.
MODULES = (
    "rummykit",
    "rummykit.odds",
    "rummykit.engine.actions",
    "rummykit.agents.bots",
    "rummykit.engine.cards",
    "rummykit.engine.checks",
    "rummykit.engine.game",
    "rummykit.agents.hints",
    "rummykit.engine.melds",
    "rummykit.engine.narrate",
    "rummykit.engine.rules",
    "rummykit.engine.saves",
    "rummykit.engine.search",
    "rummykit.svg",
    "rummykit.odds.counting.exact",
    "rummykit.odds.dealt.simulate",
    "rummykit.teach.probability",
    "rummykit.engine.legal",
    "rummykit.agents.determinize",
    "rummykit.agents.reading",
    "rummykit.agents.policy",
    "rummykit.evaluate.learn",
    "rummykit.agents.rollouts",
    "rummykit.evaluate.reviews",
    "rummykit.evaluate.puzzles",
    "rummykit.agents.searchbot",
    "rummykit.evaluate.duplicate",
    "rummykit.evaluate.ladder",
    "rummykit.odds.answer",
    "rummykit.exercises",
    "rummykit.chance",
    "rummykit.display",
    "rummykit.odds.known_odds",
    "rummykit.odds.known_completion",
    "rummykit.teach",
    "rummykit.teach.students",
    "rummykit.teach.homework",
    "rummykit.teach.concepts",
    "rummykit.teach.outs_exercises",
    "rummykit.teach.coverage",
    "rummykit.teach.edition",
    "rummykit.teach.assign",
    "rummykit.teach.odds_tables",
    "rummykit.teach.table_play",
    "rummykit.teach.rule_variants",
    "rummykit.teach.strategy",
)
SECONDS = 2.0
MEMORY_BYTES = 1 << 30

#: The hostile values tried in every argument, by label.
HOSTILE = {
    "None": None,
    "str": "x",
    "-1": -1,
    "0": 0,
    "10**9": 10**9,
    "10**30": 10**30,
    "nan": math.nan,
    "inf": math.inf,
    "True": True,
    "[]": [],
    "[1,2,3]": [1, 2, 3],
    "bytes": b"\xff\xfe\x00[[[",
    "absurd str": "\x00\u202e" + "[" * 5000 + "💥" * 5000,
    "object": object(),
}


class Timeout(BaseException):
    """The alarm: a BaseException, so that no ``except Exception`` in the code swallows it."""


def _alarm(signum, frame):
    raise Timeout


def baselines() -> dict[str, tuple[tuple, dict]]:
    """A small valid call of each callable, by parameter name or by callable, so that one
    hostile value at a time meets otherwise good arguments (and so the check of that
    argument, not the first one's, is probed)."""
    import random
    from fractions import Fraction

    import altair  # noqa: F401 - imported here, not in the first chart's timed probe
    import otter.api  # noqa: F401 - the same for the first grading (seconds to import)
    import otter.assign  # noqa: F401
    import polars as pl

    from rummykit import CONTRACTS, Game, RuleSet, parse_cards
    from rummykit.agents.bots import GreedyBot, RandomBot
    from rummykit.agents.determinize import hidden_cards
    from rummykit.engine.search import find_contract
    from rummykit.evaluate.duplicate import compare
    from rummykit.odds.cells import ExactCell, RoundRecord
    from rummykit.teach import EXERCISES, concepts, coverage

    # A folder without tables: write() refuses it before it writes anything.
    empty = Path(tempfile.mkdtemp(dir=".")).resolve()
    # A folder of one notebook, for the student edition (written into the probes' folder).
    notebooks = Path(tempfile.mkdtemp(dir=".")).resolve()
    (notebooks / "one.ipynb").write_text(
        json.dumps({"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5})
    )
    # An autograder zip of one question, and no submission to grade.
    autograder = empty / "autograder.zip"
    with zipfile.ZipFile(autograder, "w") as archive:
        archive.writestr("tests/q1.py", "test = {'name': 'q1', 'points': 1}\n")
    distances = pl.DataFrame(
        {
            "round": [1, 1],
            "contract": ["2 sets"] * 2,
            "distance": [0, 1],
            "p": [0.25, 0.75],
            "p_at_most": [0.25, 1.0],
            "method": ["simulated"] * 2,
            "p_at_most_ci_low": [0.2, 0.9],
            "p_at_most_ci_high": [0.3, 1.0],
        }
    )
    shoe = {"decks": [2, 2], "jokers": [4, 4], "turn": [1, 2]}
    curve = pl.DataFrame({**shoe, "p": [0.2, 0.6], "ci_low": [0.1, 0.5], "ci_high": [0.3, 0.7]})
    keep = pl.DataFrame({**shoe, "p": [0.25, 0.5]})
    rules = RuleSet.preset("standard")
    presets = {name: RuleSet.preset(name) for name in ("standard", "family")}
    hand = parse_cards("8S 8H 8D JH JH JS 4C 9D")
    state = Game(rules, 2, seed=1, turn_limit=20, max_reshuffles=1).new_state()
    hidden = hidden_cards(state.view(0))
    assignment = hidden.sample(random.Random(0))
    meld = find_contract(hand, CONTRACTS[0], rules)[0]
    from rummykit.evaluate.estimate import Estimate

    _estimate = Estimate(0.5, 0.1, 0.9, 2)
    from rummykit.agents.policy import DISCARD_FEATURES, LinearPolicy
    from rummykit.evaluate.learn import Position

    playing = Game(rules, 2, seed=1).new_state()
    while playing.phase != "play":
        playing.apply(GreedyBot().choose(playing.view(playing.to_act)))
    zero_weights = dict.fromkeys(DISCARD_FEATURES, 0.0)
    features = ((0.0,) * len(DISCARD_FEATURES), (1.0,) * len(DISCARD_FEATURES))
    weighed = [Position(n, features, (0.0, float(n)), 0, 4) for n in range(2)]
    by_name = {
        "rules": rules,
        "course": "rummykit-probes",
        "assignment": "hw1-counting",
        "student_id": "ada",
        "contract": CONTRACTS[0],
        "decks": 1,
        "jokers": 0,
        "cards": 6,
        "n": 200,
        "seed": 1,
        "hand": hand,
        "state": state,
        "card": hand[0],
        "meld": meld,
        "text": "draw stock",
        "k": 1,
        "population": 10,
        "successes": 3,
        "draws": 4,
        "p": 0.5,
        "groups": [list(m.cards) for m in find_contract(hand, CONTRACTS[0], rules)],
        "bots": [RandomBot(seed=0), RandomBot(seed=1)],
        "game": state.game,
        "view": state.view(0),
        "position": 1,
        "shoe": ["AS", "AS", "KS"],
        "suit": hand[0].suit,
        "discards": [],
        "value": 0.5,
        "low": 0.4,
        "high": 0.6,
        "estimate": 0.5,
        "exact": 0.5,
        "stderr": 0.1,
        "half_width": 0.1,
        "z": 2,
        "matrix": [[1, 0], [0, 1]],
        "steps": 2,
        "melds": [list(meld.cards)],
        "event": state.log[0],
        "name": "n",
        "rank": hand[0].rank,
        "kind": "set",
        "hands": [[0, 1, 2]],
        "rng": __import__("numpy").random.default_rng(0),
        "ranks": [hand[0].rank],
        "iterable": [],
        "choices": ("set", "run"),
        "key": "a1-hands",
        "question": "What is the chance?",
        "answer": Fraction(1, 3),
        "generators": EXERCISES,
        "data": ROOT / "data",
        "frame": pl.DataFrame({"p": [0.5], "n": [3]}),
        "unseen": 10,
        "wanted": 2,
        "limit": 5,
        "up_to": 5,
        "t": 2,
        "seen": [],
        "positions": 2,
        "times": [1, 2],
        "observed": [True, False],
        "discard": hand[0],
        "book": 10,
        "total": 3,
        "pile": [],
        "student": "ada",
        "source": ["student,seed,successes,hands", "ada,7,159,2000"],
        "reports": [coverage.StudentReport("ada", 7, 159, 2000)],
        "autograder": autograder,
        "submissions": empty,
    }
    small = {
        "progress": False,
        "max_workers": 1,
        "shoes": [(1, 0)],
        "cards": [6],
        "contracts": [CONTRACTS[0]],
    }
    from rummykit.evaluate import ladder as ladders

    roster = {"greedy": GreedyBot, "random": RandomBot}
    ladder_play = {
        "roster": roster,
        "players": 2,
        "rounds": 1,
        "turn_limit": 10,
        "max_reshuffles": 1,
    }
    ladder_unit = ladders.units(roster, deals=1, seed=0)[0]
    ladder_result = ladders.play_unit(**ladder_play, unit=ladder_unit)
    ladder_small = {**ladder_play, "bootstrap": 5}
    ladder_table = pl.read_parquet(ROOT / "data" / "ladder.parquet").filter(
        rules="standard", players=4
    )
    by_turn = pl.read_parquet(ROOT / "data" / "completion_by_turn.parquet").filter(
        rules="standard", players=4, round=1
    )
    # Callables whose defaults are whole tables (minutes of work): probed from a small call.
    by_callable = {
        # A refusal checks its rule, template and fields (the message must be formed).
        "Refusal": {
            "rule": "no such meld",
            "template": "there is no meld {meld}",
            "fields": (("meld", 3),),
        },
        "exact_odds": small,
        "distance_odds": {**small, "n": 100},
        "preset_odds": {
            "presets": ["standard"],
            "rounds": [1],
            "progress": False,
            "max_workers": 1,
        },
        "completion_tables": {
            "players": 2,
            "rounds": 1,
            "n": 4,
            "progress": False,
            "max_workers": 1,
        },
        "buying_value": {"players": 2, "rounds": 1, "n": 4, "progress": False, "max_workers": 1},
        "dealt_odds": {"cells": [], "progress": False, "max_workers": 1},
        # Callables whose argument of a common name is of another kind here.
        "hand_svg": {"cards": hand},
        "prob_by_listing": {"cards": list(hand), "n": 2, "event": len},
        "instance": {"name": "n", "value": 1, "kind": int, "what": "an integer"},
        "registry": {"generators": list(EXERCISES.values())[:1]},
        "exercise_sheet": {"generators": EXERCISES, "keys": list(EXERCISES)[:1]},
        "write": {"data": empty, "path": empty / "known_odds.json"},
        # Chapter 3's readings of the odds tables, each given a small frame of its table.
        "dealt_rows": {
            "frame": pl.DataFrame(
                {"round": [1, 5], "decks": [2, 2], "jokers": [4, 4], "cards": [10, 12]}
            )
        },
        "cells_by_method": {
            "frame": pl.DataFrame(
                {"round": [1], "contract": ["2 sets"], "method": ["exact"], "n": [0]}
            )
        },
        "table_chance": {
            "frame": pl.DataFrame(
                {"round": [1], "decks": [2], "jokers": [4], "cards": [10], "p": [0.09]}
            ),
            "round_": 1,
            "cards": 10,
        },
        "chances_by": {
            "frame": pl.DataFrame({"contract": ["a", "a"], "jokers": [0, 4], "p": [0.1, 0.2]}),
            "on": "jokers",
        },
        "distance_summary": {"frame": distances},
        "cumulative_by_round": {"frame": distances, "rounds": [1]},
        # Chapter 4's readings of the play tables.
        "read_off": {"curve": curve, "keep": keep},
        "keep_for": {"frame": pl.DataFrame({"decks": [2], "jokers": [4]}), "keep": keep},
        "read_off_table": {"curves": curve, "keep": keep, "by": "decks"},
        "first_turn_above": {"curves": curve, "keep": keep},
        "outs_bot_paired": {
            "outs_bot": pl.DataFrame(
                {
                    "bot": ["outs"],
                    "turn": [None],
                    "measure": ["went out"],
                    "round": [1],
                    "contract": ["2 sets"],
                    "n": [100],
                    "difference": [0.05],
                    "difference_ci_low": [0.01],
                    "difference_ci_high": [0.09],
                },
                schema_overrides={"turn": pl.Int8},
            )
        },
        # The Strategy chapter's readings of the ladder and SearchBot's choices.
        "ratings": {"ladder": ladder_table},
        "head_to_head": {"ladder": ladder_table, "bot": "greedy"},
        "strong_curves": {"ladder": ladder_table, "by_turn": by_turn, "round": 1},
        "choices": {"decisions": pl.read_parquet(ROOT / "data" / "search_decisions.parquet")},
        # Chapter 5's comparisons of the presets.
        "differing_rules": {"presets": presets, "standard": rules},
        "preset_differences": {"presets": presets, "standard": rules},
        "own_shoes": {"presets": presets},
        "dealt_chances_by_preset": {
            "frame": pl.DataFrame(
                {
                    "round": [1, 1],
                    "contract": ["2 sets"] * 2,
                    "rules": ["standard", "strict"],
                    "p": [0.0891, 0.0],
                    "p_exact": ["x", "0"],
                }
            )
        },
        "half_and_ever": {"curve": curve},
        "half_and_ever_table": {
            "curves": pl.DataFrame(
                {"rules": ["a"], "round": [1], "contract": ["2 sets"], "turn": [1], "p": [0.6]}
            ),
            "presets": ["a", "b"],
        },
        "rule_text": {"name": "buy_limit", "value": 3},
        "buy_limit_text": {"limit": 3},
        "chance_columns": {
            "frame": pl.DataFrame({"round": [1], "mean": [0.5], "ci_low": [0.4], "ci_high": [0.6]}),
            "name": "went out",
        },
        "rounds_with": {
            "field": "buy_limit",
            "values": (None, 0),
            "label": "buy limit",
            "rounds": 1,
            "buy": "always",
            "n": 4,
        },
        # build() given a folder without masters: it refuses before otter writes anything.
        "build": {"masters": empty},
        # grade() given a zip that is no autograder: it refuses before it writes anything.
        "grade": {"autograder": autograder, "submissions": empty, "out": empty / "grades"},
        # The review's tallies by decision type: plain records.
        "TypeTally": {
            "type": "buy",
            "decisions": 2,
            "inaccuracies": 1,
            "inaccuracy_share": _estimate,
            "mistakes": 0,
            "mistake_share": _estimate,
            "loss": 1.0,
        },
        "MistakesByType": {"tallies": ()},
        # The assignments' value types: plain records (a Form checks its kind).
        "Check": {"question": "q1", "ok": True, "message": "m"},
        "Form": {"kind": "exact", "what": "a probability"},
        "Result": {
            "student": "ada",
            "file": "ada.ipynb",
            "status": "graded",
            "points": {},
            "marks": {},
            "reason": "",
        },
        "Report": {
            "out": empty,
            "results": (),
            "unmatched": (),
            "isolation": None,
            "ran": 0,
            "seconds": 0.0,
        },
        "build_student_edition": {"source": notebooks, "out": notebooks / "edition"},
        # Chapter 9's charts, each given the frame its builder makes.
        "binomial_limit_chart": {"frame": concepts.binomial_limit(decks=(1,))},
        "positions_chart": {
            "frame": concepts.stock_position_chances(
                seen=[], decks=1, jokers=2, positions=2, n=20, seed=0
            )
        },
        "set_variance_chart": {"frame": concepts.set_variance_frame(cards=[6, 7])},
        "waiting_chart": {"frame": concepts.waiting_frame(unseen=10, wanted=2, up_to=3)},
        "survival_chart": {
            "result": concepts.censored_waits(unseen=10, wanted=2, limit=4, n=20, seed=0)
        },
        "rare_event_chances": {"p": Fraction(1, 1000), "trials": [10, 100]},
        "rare_event_chart": {
            "frame": concepts.rare_event_chances(Fraction(1, 100), trials=[10, 100])
        },
        "poisson_games": {"p": Fraction(1, 1000), "players": 4, "target": Fraction(1, 2)},
        "targeted_discard": {"book": (10, 42)},
        "difference_text": {"mean": 0.5, "low": 0.4, "high": 0.6},
        "two_draw_chance": {"unseen": 20},
        "kept_two_chance": {"unseen": list(parse_cards("8C JD 5C 6C"))},
        "paired_counts": {"n": 1000, "both": 200, "only_first": 40, "only_second": 70},
        "pairing_chart": {
            "frame": pl.DataFrame(
                {
                    "label": ["a", "a"],
                    "interval": ["paired", "unpaired"],
                    "difference": [-0.03, -0.03],
                    "ci_low": [-0.04, -0.05],
                    "ci_high": [-0.02, -0.01],
                }
            )
        },
        "buying_pairing": {
            "buying_value": pl.DataFrame(
                {
                    "round": [1, 1],
                    "contract": ["2 sets"] * 2,
                    "n": [1000] * 2,
                    "buy": ["never", "improves"],
                    "measure": ["went out"] * 2,
                    "mean": [0.3, 0.25],
                    "stderr": [0.004, 0.003],
                    "difference": [0.0, -0.05],
                    "difference_stderr": [0.0, 0.0025],
                }
            )
        },
        # A review of the probes' state (no decision yet) by one sample a decision.
        "review": {"game": state, "seat": 0, "budget": 1},
        "review_steps": {"game": state, "seat": 0, "budget": 1},
        "checked_review": {"game": state, "seat": 0, "budget": 1, "seed": 0},
        "committed_curve": {
            "rules": rules,
            "players": 4,
            "round": 1,
            "decks": 2,
            "jokers": 4,
        },
        "curve_of_rounds": {
            "rules": rules,
            "players": 2,
            "round": 1,
            "decks": 2,
            "jokers": 4,
            "records": [RoundRecord(0, 6, "out", 0, (2, None), (3, 3), (0, 40), (0, 1))],
            "seed": 1,
        },
        # Puzzles: one, from the first of three rounds of four players, four samples a
        # decision (the least: two to choose on, two to measure).
        "generate": {"seed": 7, "count": 1, "budget": 4, "players": 4, "max_rounds": 3},
        "choice_words": {"choice": "lay off JK -> 0 low"},
        "answer_label": {"kind": "discard", "answer": "discard 10C"},
        # One decision of the probes' state weighed on one sample.
        "judge": {
            "view": state.view(state.to_act),
            "played": state.view(state.to_act).legal_actions()[0],
            "actions": state.view(state.to_act).legal_actions(),
            "samples": 1,
            "rng": random.Random(0),
        },
        # The compiled rollouts: a batch of one seed, GreedyBots at the probes' table.
        "rollout_points": {"bots": [GreedyBot(), GreedyBot()], "seeds": [1]},
        # The search modules: a duplicate comparison of one short deal of two seats.
        "interval": {"values": [1.0, 2.0, 3.0], "bounds": (0, 1)},
        # A comparison's seat-rounds (duplicate.figures) and a reading's (agents.reading).
        "figures": {
            "seat_rounds": list(
                compare(GreedyBot(), RandomBot(seed=1), deals=1, players=2, rounds=1).seat_rounds
            ),
            "rules": "standard",
        },
        "first_agreeing": {"draw": list, "agrees": bool, "attempts": 2},
        "gibbs_sweeps": {
            "hidden": hidden,
            "unknown": assignment[0],
            "stock": assignment[1],
            "keep": lambda seat, cards: True,
            "read": [1],
            "sweeps": 1,
            "attempts": 2,
            "rng": random.Random(0),
        },
        "brings_closer": {"hand": list(hand), "card": hand[0]},
        # The learned discard policy (agents.policy, evaluate.learn): a seat that has not
        # laid down, in its play phase; zero weights; two weighed positions; one round of
        # two seats whose discards are too few to weigh (every=1000).
        "discard_features": {"view": playing.view(playing.to_act)},
        "LinearPolicy": {"weights": zero_weights},
        "PolicyBot": {"policy": LinearPolicy(zero_weights)},
        "fit": {"found": weighed},
        "advantage": {"chooser": LinearPolicy(zero_weights), "found": weighed},
        "positions": {
            "games": 1,
            "seed": 0,
            "players": 2,
            "samples": 1,
            "every": 1000,
            "rounds": 1,
        },
        "compare": {
            "bot_a": GreedyBot(seed=0),
            "bot_b": RandomBot(seed=1),
            "deals": 1,
            "players": 2,
            "rounds": 1,
            "turn_limit": 10,
            "max_reshuffles": 1,
        },
        # The ladder: one deal of two seats and one round, two bots, few resamples.
        "ladder": {**ladder_small, "deals": 1, "seed": 0},
        "units": {"roster": roster, "deals": 1, "seed": 0},
        "schedule": {"roster": roster, "pairs": [("greedy", "random")]},
        "play_unit": {**ladder_play, "unit": ladder_unit},
        "merge": {"roster": roster, "results": [ladder_result], "seed": 0, "bootstrap": 5},
        "bradley_terry": {"wins": [[0, 3], [1, 0]], "prior": 1.0},
        # A dealt cell of the committed tables: answered without counting.
        "answer": {"cell": ExactCell(rules, 6, rules.contracts[5], 3, 6, 14), "budget": 0},
        "paired_discards": {
            "discards": tuple(hand[:2]),
            "unseen": list(parse_cards("8C JD 5C 6C")),
            "n": 20,
        },
    }
    return {"by_name": by_name, "by_callable": by_callable}


#: Callables not probed, with the reason.
SKIPPED = {
    # Value records that the engine builds and checks where it builds them; their
    # constructors store what they are given (frozen dataclasses, enums).
    "Meld",
    "MeldCheck",
    "Outs",
    "DiscardOption",
    "DiscardAdvice",
    "PlayerView",
    "PileMove",
    "GameState",
    "Event",
    "RoundResult",
    "MeldLimits",
    "MeldRules",
    "Estimate",
    "ExactTable",
    "Rank",
    "Suit",
    "EventKind",
    "SvgOptions",
    # The same of the teaching helpers, frozen dataclasses of results: a verdict
    # (Exercise.check), a sheet (exercise_sheet), a display table (display.show), an
    # autograder's mark and question (rummykit.teach's generators), a comparison of two
    # discards (concepts.paired_discards), a student's report and the class's pooled
    # coverage (teach.coverage: student_report, read_class_results, class_coverage, which
    # re-deals each report from its seed); each builder is probed.
    "Verdict",
    "ExerciseSheet",
    "Table",
    "Mark",
    "Question",
    "PairedComparison",
    "StudentReport",
    "ClassCoverage",
    # The search modules' result records, frozen dataclasses built by their functions
    # (each probed): the constraints of a view (determinize.hidden_cards; determinize()
    # checks that one given back is a HiddenCards of the same view, by view_key), a
    # SearchBot's last decision, a duplicate comparison (duplicate.compare) and its
    # seat-rounds (SeatRound.from_dict checks one read back), a reading of the opponents
    # and its turns (reading.reading), an answer of the odds (odds.answer).
    "HiddenCards",
    "Decision",
    "Comparison",
    "SeatRound",
    "Reading",
    "LastTurn",
    "Turn",
    "Review",
    "Alternative",
    "Answer",
    # The ladder's records (rummykit.evaluate.ladder): a unit of work (built by units(); play_unit
    # checks one given back), its result, a pair, a rating, the ladder (each builder probed).
    "Unit",
    "UnitResult",
    "Pair",
    "Rating",
    "Ladder",
    # The committed completion curves' records (known_completion.committed_curve, probed).
    "Curve",
    "CurvePoint",
    # A puzzle, a frozen dataclass built by puzzles.generate (probed) or read from JSON by
    # Puzzle.from_dict and puzzles.load (SaveFileError for what is not one: tested).
    "Puzzle",
    # A weighed position of the learned policy's fit (evaluate.learn.positions builds
    # them; fit and advantage check those given back).
    "Position",
    # Table builders with options passed through to completion_tables (probed there).
    "completion_by_turn",
    "round_summary",
    "seat_position",
    # A whole game by random bots: seconds by design, probed with a started state.
    "Game.play",
}


def callables() -> list[tuple[str, object]]:
    seen: dict[int, str] = {}
    out = []
    for module_name in MODULES:
        module = importlib.import_module(module_name)
        for name in module.__all__:
            thing = getattr(module, name)
            if not callable(thing) or id(thing) in seen or name in SKIPPED:
                continue
            if isinstance(thing, type) and issubclass(thing, BaseException):
                continue
            seen[id(thing)] = name
            out.append((f"{module_name}.{name}", thing))
    return out


def probes():
    """Every (label, callable, args, kwargs): each parameter given each hostile value,
    the others their baseline."""
    base = baselines()
    for label, function in callables():
        try:
            signature = inspect.signature(function)
        except (TypeError, ValueError):
            continue
        short = label.rsplit(".", 1)[1]
        params = [
            p
            for p in signature.parameters.values()
            if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD) and not p.name.startswith("_")
        ]
        given = dict(base["by_callable"].get(short, {}))
        for p in params:
            if p.name not in given and p.default is p.empty:
                if p.name not in base["by_name"]:
                    break
                given[p.name] = base["by_name"][p.name]
        else:
            for p in params:
                if p.name in ("executor", "progress", "event") and p.name not in given:
                    continue
                for value_label, value in HOSTILE.items():
                    if value is p.default:
                        continue  # the default is no hostile value, whatever it costs
                    kwargs = {**given, p.name: value}
                    args = ()
                    positional = [q.name for q in params if q.kind is q.POSITIONAL_ONLY]
                    if positional:
                        args = tuple(kwargs.pop(q) for q in positional if q in kwargs)
                    yield f"{label}({p.name}={value_label})", function, args, kwargs
            continue
        # A required argument with no baseline: probe the first one alone.
        for value_label, value in HOSTILE.items():
            yield f"{label}({value_label})", function, (value,), {}


def _pickled(args: tuple, kwargs: dict) -> bytes | None:
    """The arguments pickled (None where one cannot be: a lambda, a generator)."""
    try:
        return pickle.dumps((args, kwargs))
    except Exception:  # noqa: BLE001 - unpicklable hostile values are not compared
        return None


def run(skip: int) -> None:
    from rummykit.errors import RummyError

    signal.signal(signal.SIGALRM, _alarm)
    # A folder of their own: what a probe writes at a relative path ("x") lands in its
    # own empty folder inside, removed after it (so no probe reads what another wrote).
    home = tempfile.mkdtemp(prefix="rummykit-probes-")
    os.chdir(home)
    # Every module and baseline loaded first (polars, altair, otter: hundreds of MB), so
    # that the limit gives each probe its MEMORY_BYTES above them.
    plan = list(probes())
    with open("/proc/self/statm") as statm:
        pages = int(statm.read().split()[0])
    limit = pages * resource.getpagesize() + MEMORY_BYTES
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    sys.setrecursionlimit(3000)
    for i, (label, function, args, kwargs) in enumerate(plan):
        if i < skip:
            continue
        os.chdir(home)
        shutil.rmtree("work", ignore_errors=True)
        os.mkdir("work")
        os.chdir("work")
        print(json.dumps({"i": i, "probe": label, "outcome": "start"}), flush=True)
        before = _pickled(args, kwargs)
        try:
            signal.setitimer(signal.ITIMER_REAL, SECONDS)
            try:
                function(*args, **kwargs)
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
            outcome, detail = "returned", ""
        except RummyError as error:
            outcome, detail = "refused", f"{type(error).__name__}: {str(error)[:200]}"
            if before is not None and _pickled(args, kwargs) != before:
                outcome, detail = "failed", f"refused but changed its arguments: {detail}"
        except Timeout:
            outcome, detail = "failed", f"took over {SECONDS} s"
        except BaseException as error:  # noqa: BLE001 - every other error is the finding
            outcome, detail = "failed", f"{type(error).__name__}: {str(error)[:200]}"
        print(
            json.dumps({"i": i, "probe": label, "outcome": outcome, "detail": detail}), flush=True
        )
    os.chdir("/")
    shutil.rmtree(home, ignore_errors=True)
    print(json.dumps({"outcome": "done"}), flush=True)


if __name__ == "__main__":
    run(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
