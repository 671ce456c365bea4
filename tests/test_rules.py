"""Rule sets: presets, their sources, variations and impossible combinations."""

import dataclasses
import json
import re
from pathlib import Path

import pytest

from rummykit import CONTRACTS, Card, Contract, RuleSet, RuleSetError
from rummykit.engine.rules import SOURCE_FILES

SOURCES = Path(__file__).resolve().parents[1].parent / "shared" / "sources"


def test_presets_listed_and_built():
    assert RuleSet.presets() == ("standard", "pagat", "wikipedia", "bga", "family")
    for name in RuleSet.presets():
        rules = RuleSet.preset(name)
        assert rules.name == name
        assert len(rules.contracts) == len(rules.deal_sizes) == rules.rounds == 7


def test_unknown_preset():
    with pytest.raises(RuleSetError, match="unknown preset 'casino'"):
        RuleSet.preset("casino")


def test_each_preset_docstring_cites_its_source_by_number_and_title():
    doc = RuleSet.preset.__doc__
    # By number and title, never a file outside the repository (the book renders these).
    assert "sources/" not in doc and "RULES.md" not in doc
    cited = set(re.findall(r"(?:sources?|and) (\d{3}) \(\"", doc))
    assert cited == set(SOURCE_FILES) == {"000", "001", "002", "003", "004"}
    if SOURCES.exists():  # shared/ lies beside the repository, in CI too
        assert set(SOURCE_FILES.values()) == {p.name for p in SOURCES.glob("*.txt")}
        for number, name in SOURCE_FILES.items():
            assert name.startswith(number + "_")


def test_standard_is_pinned_down_as_in_rules_md():
    rules = RuleSet.preset("standard")
    assert (rules.min_players, rules.max_players) == (2, 8)
    assert [rules.decks_for(n) for n in range(2, 9)] == [2, 2, 2, 3, 3, 3, 3]
    assert rules.jokers_for(2) == 4 and rules.jokers_for(3) == 6
    assert rules.deal_sizes == (10, 10, 10, 10, 12, 12, 12)
    assert (
        rules.contracts
        == CONTRACTS
        == (
            Contract(2, 0),
            Contract(1, 1),
            Contract(0, 2),
            Contract(3, 0),
            Contract(2, 1),
            Contract(1, 2),
            Contract(0, 3),
        )
    )
    assert rules.max_jokers_per_meld == 2
    assert rules.min_naturals_in_set == rules.min_naturals_in_run == 2
    assert rules.ace_low and rules.ace_high
    assert rules.same_suit_runs == "unrestricted" and not rules.extra_melds
    assert rules.joker_swap == "runs" and rules.swapped_joker_must_be_played
    assert rules.buy_priority == "nearest" and rules.buy_limit is None
    assert rules.buy_penalty_cards == 1
    assert rules.discard_call == "none" and rules.invalid_lay_down_penalty == 0
    assert rules.perfect_cut_bonus == 0 and not rules.negative_scores


def test_presets_follow_their_sources():
    pagat = RuleSet.preset("pagat")
    assert pagat.same_suit_runs == "separated" and pagat.extra_melds and pagat.points == "face"
    assert (pagat.min_players, pagat.invalid_lay_down_penalty, pagat.perfect_cut_bonus) == (
        3,
        50,
        50,
    )
    wiki = RuleSet.preset("wikipedia")
    assert wiki.deal_sizes == (11,) * 6 + (7,)
    assert wiki.min_naturals_in_run == 3 and wiki.joker_swap == "any" and wiki.joker_trade_once
    assert wiki.last_round_no_discard and wiki.floating and wiki.last_round_buy_limit == 2
    bga = RuleSet.preset("bga")
    assert bga.buy_priority == "longest_waiting" and bga.negative_scores
    family = RuleSet.preset("family")
    assert family.max_players == 6 and family.decks_for(6) == 2 and family.jokers_for(2) == 2
    assert family.deal_sizes == (7,) * 6 + (10,)
    assert family.buy_priority == "first_call" and family.buy_limit == 3
    assert family.repeat_missed_contract


def test_point_values():
    standard, pagat = RuleSet.preset("standard"), RuleSet.preset("pagat")
    values = {
        code: standard.point_value(Card.parse(code))
        for code in ("2S", "9H", "10D", "KC", "AS", "JK")
    }
    assert values == {"2S": 5, "9H": 5, "10D": 10, "KC": 10, "AS": 15, "JK": 20}
    faces = {code: pagat.point_value(Card.parse(code)) for code in ("2S", "9H", "10D", "KC", "AS")}
    assert faces == {"2S": 2, "9H": 9, "10D": 10, "KC": 10, "AS": 1}


def test_variations_with_replace():
    rules = dataclasses.replace(RuleSet.preset("standard"), max_jokers_per_meld=None, ace_low=False)
    assert rules.max_jokers_per_meld is None and list(rules.run_positions()) == list(range(2, 15))
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.ace_low = True  # type: ignore[misc]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"min_players": 1}, "min_players must be at least 2"),
        ({"max_players": 1}, "max_players must be an integer >= 2"),
        ({"max_players": 9}, "decks_by_players gives no deck count for \\[9\\] players"),
        ({"deal_sizes": (10,) * 6}, "one deal size per round"),
        ({"deal_sizes": (25,) * 7}, "cannot be dealt 25 cards each"),
        ({"max_jokers_per_meld": -1}, "max_jokers_per_meld must be None or an integer >= 0"),
        ({"min_naturals_in_set": 0}, "min_naturals_in_set must be an integer >= 1"),
        ({"same_suit_runs": "apart"}, "same_suit_runs must be one of"),
        ({"buy_priority": "loudest"}, "buy_priority must be one of"),
        ({"points": "double"}, "points must be one of"),
        ({"min_run_size": 14}, "no run is possible"),
        ({"ace_low": False, "ace_high": False, "min_run_size": 13}, "no run is possible"),
        ({"contracts": ()}, "at least one round"),
        ({"jokers_by_decks": ((2, 4),)}, "no joker count for 3 decks"),
    ],
)
def test_impossible_combinations(change, message):
    with pytest.raises(RuleSetError, match=message):
        dataclasses.replace(RuleSet.preset("standard"), **change)


def test_players_checked():
    rules = RuleSet.preset("family")
    with pytest.raises(RuleSetError, match="2 to 6 players, not 7"):
        rules.decks_for(7)
    with pytest.raises(RuleSetError):
        rules.check_players(1)


def test_contracts():
    assert str(Contract(sets=2)) == "2 sets" and str(Contract(runs=1)) == "1 run"
    assert Contract(1, 2).min_cards(RuleSet()) == 11 and Contract(0, 3).melds == 3
    with pytest.raises(RuleSetError):
        Contract(0, 0)
    with pytest.raises(RuleSetError):
        Contract(-1, 2)


@pytest.mark.parametrize("name", RuleSet.presets())
def test_rules_json_pair_round_trips_every_preset(name):
    rules = RuleSet.preset(name)
    data = rules.to_json()
    assert json.loads(json.dumps(data)) == data  # plain JSON values only
    assert RuleSet.from_json(data) == rules


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ([1, 2], "an object of rule options"),
        ({"cheat": True}, "unknown rule options: ['cheat']"),
        ({"contracts": [[1]]}, "'contracts' must be a list"),
        ({"deal_sizes": "10"}, "'deal_sizes' must be a list of integers"),
        ({"jokers_by_decks": [[1, "2"]]}, "'jokers_by_decks' must be a list of integer pairs"),
        ({"ace_low": [True]}, "rule option 'ace_low' has a bad value"),
        ({"min_players": 1}, "these rules cannot be played: min_players"),
    ],
)
def test_rules_from_json_names_the_bad_option(data, words):
    with pytest.raises(RuleSetError) as caught:
        RuleSet.from_json(data)
    assert words in str(caught.value)
