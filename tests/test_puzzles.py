"""Puzzles for learners (rummykit.puzzles): found by the review's own measure, seeded, a
longer set beginning with a shorter one, checked without a game; the book's set in
data/puzzles.json is what its command makes; bad input refused by field."""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest

from rummykit.cli import main
from rummykit.errors import ArgumentError, ArgumentTypeError, SaveFileError
from rummykit.puzzles import KINDS, MARGIN, PUZZLES_FILE, Puzzle, generate, load
from rummykit.rules import RuleSet

SMALL = {"budget": 8, "players": 3}


@pytest.fixture(scope="module")
def found() -> list[Puzzle]:
    return generate(5, 6, **SMALL)


@pytest.mark.slow
def test_the_same_seed_finds_the_same_puzzles_and_a_longer_set_begins_with_a_shorter(found):
    assert generate(5, 6, **SMALL) == found
    assert generate(5, 3, **SMALL) == found[:3]
    assert generate(6, 3, **SMALL) != found[:3]


def test_every_puzzle_has_a_clear_best_choice_and_a_sentence_for_each(found):
    assert len({p.key for p in found}) == len(found)
    for puzzle in found:
        assert puzzle.kind in KINDS and puzzle.answer == puzzle.choices[0]
        assert len(set(puzzle.choices)) == len(puzzle.choices) >= 2
        assert puzzle.margin >= MARGIN
        means = [value[0] for value in puzzle.values]
        assert means[0] == max(means) and all(lo <= m <= hi for m, lo, hi in puzzle.values)
        # The best's mean beats every other's by more than the margin (the margin is
        # the lower end of the paired interval, which lies below the paired mean).
        assert all(means[0] - m >= MARGIN for m in means[1:])
        assert puzzle.phase == {"buy": "buy", "draw": "draw"}.get(puzzle.kind, "play")
        if puzzle.kind == "discard":
            assert all(c.startswith("discard ") for c in puzzle.choices)


def test_checking_a_choice_gives_the_reviews_sentence(found):
    for puzzle in found:
        right, message = puzzle.check(puzzle.answer)
        assert right and message == f"Right. {puzzle.solution}"
        assert "better by about" in puzzle.solution
        for choice in puzzle.choices[1:]:
            right, message = puzzle.check(f"  {choice} ")  # spaces do not matter
            assert not right
            assert message == f"Not the best choice. {puzzle.explanation(choice)}"
            assert puzzle.explanation(choice).startswith(("You played", "You discarded"))


def test_a_puzzle_goes_to_json_and_back(found):
    for puzzle in found:
        text = json.dumps(puzzle.to_dict())
        assert Puzzle.from_dict(json.loads(text)) == puzzle


def test_the_box_on_the_page_holds_the_choices_and_the_messages_check_gives(found):
    puzzle = max(found, key=lambda p: len(p.choices))
    page = puzzle._repr_html_()
    assert page.count('type="radio"') == len(puzzle.choices)
    assert page.count(f'name="{puzzle.key}"') == len(puzzle.choices)
    assert "<svg" in page and "rummykitPuzzle" in page
    assert "src=" not in page and "<link" not in page  # nothing fetched: all inline
    start = page.index('data-puzzle="') + len('data-puzzle="')
    import html

    data = json.loads(html.unescape(page[start : page.index('"', start)]))
    assert data == {"answer": 0, "messages": [puzzle.check(c)[1] for c in puzzle.choices]}


def test_the_books_set_is_what_its_command_makes():
    document = json.loads(PUZZLES_FILE.read_text(encoding="utf-8"))
    made = document["provenance"]
    puzzles = load()
    assert len(puzzles) == made["count"] >= 200
    assert made["command"] == (
        f"rummykit puzzles --count {made['count']} --seed {made['seed']} --budget {made['budget']}"
    )
    positions = {
        (p.round, p.phase, tuple(sorted(p.hand)), p.discard_top, p.offer, p.melds) for p in puzzles
    }
    assert len(positions) == len(puzzles)  # distinct
    assert set(Counter(p.round for p in puzzles)) == set(range(1, 8))
    kinds = Counter(p.kind for p in puzzles)
    assert set(kinds) == set(KINDS) and kinds["buy"] <= 0.4 * len(puzzles)
    assert all(p.margin >= MARGIN and p.samples == made["budget"] for p in puzzles)
    # Every sentence in a learner's words: card symbols, melds counted from 1, no engine
    # notation ("lay off JK -> 0", "3c 3d") and a capital first.
    code = re.compile(r"\b(?:10|[2-9AJQKajqk])[CDHScdhs]\b|\bJK\b|->")
    for puzzle in puzzles:
        for sentence in (puzzle.solution, *puzzle.explanations):
            assert not code.search(sentence), sentence
            assert sentence[:1].isupper(), sentence


@pytest.mark.slow
def test_the_books_set_is_not_stale():
    # Its first puzzles, found again by today's code with the file's settings.
    made = json.loads(PUZZLES_FILE.read_text(encoding="utf-8"))["provenance"]
    again = generate(made["seed"], 4, budget=made["budget"], players=made["players"])
    assert again == load()[:4]


def test_the_command_writes_the_set_whole(tmp_path, capsys):
    out = tmp_path / "puzzles.json"
    assert (
        main(["puzzles", "--count", "2", "--seed", "5", "--budget", "12", "--out", str(out)]) == 0
    )
    assert len(load(out)) == 2
    assert "wrote 2 puzzles" in capsys.readouterr().err
    out.write_text("kept")
    with pytest.raises(SystemExit):
        main(["puzzles", "--count", "0", "--out", str(out)])
    with pytest.raises(SystemExit):
        main(["puzzles", "--out", str(tmp_path / "missing" / "p.json")])
    assert out.read_text() == "kept" and not (tmp_path / "missing").exists()
    assert sorted(path.name for path in tmp_path.iterdir()) == ["puzzles.json"]


@pytest.mark.parametrize(
    ("options", "error", "field"),
    [
        ({"count": 0}, ArgumentError, "count"),
        ({"budget": 0}, ArgumentError, "budget"),
        ({"seed": -1}, ArgumentError, "seed"),
        ({"margin": "wide"}, ArgumentTypeError, "margin"),
        ({"players": 9}, ArgumentError, "players"),
        ({"rules": 3}, ArgumentTypeError, "rules"),
        ({"progress": "yes"}, ArgumentTypeError, "progress"),
        ({"max_rounds": 0}, ArgumentError, "max_rounds"),
    ],
)
def test_bad_options_are_refused_by_name(options, error, field):
    arguments = {"seed": 1, "count": 1, **SMALL, **options}
    with pytest.raises(error, match=field):
        generate(**arguments)


def test_too_few_rounds_for_the_count_says_so():
    with pytest.raises(ArgumentError, match="max_rounds: 1 rounds gave"):
        generate(1, 50, max_rounds=1, **SMALL)


def test_a_choice_that_is_not_one_is_refused_and_a_bad_file_named(found, tmp_path):
    puzzle = found[0]
    with pytest.raises(ArgumentError, match="choice must be one of the puzzle's choices"):
        puzzle.check("eat the cards")
    with pytest.raises(ArgumentTypeError, match="choice"):
        puzzle.check(0)
    with pytest.raises(SaveFileError, match="cannot read"):
        load(tmp_path / "none.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    with pytest.raises(SaveFileError, match="is not JSON"):
        load(bad)
    bad.write_text('{"puzzles": [{"key": "x"}]}')
    with pytest.raises(SaveFileError, match="could not be read"):
        load(bad)
    broken = puzzle.to_dict() | {"answer": "dance"}
    with pytest.raises(SaveFileError, match="its kind or its answer"):
        Puzzle.from_dict(broken)


def test_other_presets_have_puzzles_too():
    assert generate(2, 2, rules=RuleSet.preset("pagat"), **SMALL)
