"""The review as a page (issue 50, item 12) and the review's words (item 11): cards drawn,
marked decisions highlighted, each row linked to its decision and back, one notation in
the table and the sentences, a legend of the marks, nothing fetched; and no sentence
that compares two chances reading the same."""

from __future__ import annotations

import html
import re

import pytest

from rummykit.agents.bots import GreedyBot, RandomBot
from rummykit.engine.game import Game
from rummykit.errors import ArgumentTypeError, RummyError
from rummykit.evaluate.estimate import Estimate
from rummykit.evaluate.review_page import review_page
from rummykit.evaluate.review_words import action_words, outs_words
from rummykit.evaluate.reviews import MARKS, MARKS_LEGEND, review


@pytest.fixture(scope="module")
def reviewed():
    """A round where a random player (seat 0) makes marked mistakes."""
    state = Game("standard", players=3, seed=4, turn_limit=30).new_state()
    bots = [RandomBot(seed=1), GreedyBot(), GreedyBot()]
    while not state.round_scores:
        state.apply(bots[state.to_act].choose(state.view(state.to_act)))
    return review(state, 0, budget=16)


def test_each_row_links_to_its_decision_and_back_and_marked_rows_are_highlighted(reviewed):
    page = review_page(reviewed)
    assert page.startswith("<!DOCTYPE html>") and page.endswith("</body></html>")
    marked = [v for v in reviewed.verdicts if MARKS[v.kind][0]]
    assert marked, "the random seat made no marked decision: pick another seed"
    for n, verdict in enumerate(reviewed.verdicts, 1):
        row = re.search(f"<tr id='row-{n}' class='rk-([a-z]+)'>(.*?)</tr>", page)
        section = re.search(
            f"<section id='decision-{n}' class='rk-decision rk-([a-z]+)'>(.*?)</section>", page
        )
        assert row and section and row.group(1) == section.group(1) == verdict.kind
        assert f"href='#decision-{n}'" in row.group(2) and f"href='#row-{n}'" in section.group(2)
        # One notation: the table's action is the sentence's, each with its mark.
        played = html.escape(action_words(verdict.played))
        assert played in row.group(2) and played in section.group(2)
        mark = MARKS[verdict.kind][0]
        assert (f"<span class='rk-mark'>{mark}</span>" in row.group(2)) == bool(mark)
        assert html.escape(verdict.sentence) in section.group(2)
        assert section.group(2).count("<svg") >= 1  # the hand, drawn
    # A colour for each marked class, in the page's own style.
    for kind in {v.kind for v in marked}:
        assert f"tr.rk-{kind}" in page and MARKS[kind][1] in page


def test_the_page_has_the_legend_the_stories_and_nothing_to_fetch(reviewed):
    page = review_page(reviewed)
    assert html.escape(MARKS_LEGEND) in page
    story = reviewed.story(1)
    assert "<h2>Round 1</h2>" in page and story.chart().svg() in page
    assert reviewed.mistakes_by_type()._repr_html_() in page
    assert "<script" not in page and "<link" not in page and "@import" not in page
    assert not re.search(r"(src|href)=['\"](https?:)?//", page)


def test_every_action_in_a_sentence_reads_as_in_the_table(reviewed):
    codes = re.compile(r"\b(?:10|[2-9AJQK])[CDHS]\b|\bJK\b|-> \d")
    for verdict in reviewed.verdicts:
        assert not codes.search(verdict.sentence.replace("JK lays off", "")), verdict.sentence


def test_a_bad_review_or_beside_is_refused_by_name(reviewed):
    with pytest.raises(ArgumentTypeError, match="review must be a Review"):
        review_page(reviewed.to_dict())
    with pytest.raises(ArgumentTypeError, match="beside must be a BesideBots or None"):
        review_page(reviewed, beside="GreedyBot")


def test_action_words_refuses_what_is_no_action():
    assert action_words("lay off JK -> 0 low") == "lay off a joker on meld 1, at its low end"
    for bad in ("", "discard 11H", 7, None):
        with pytest.raises(RummyError):
            action_words(bad)


def _share(hits: int, n: int) -> Estimate:
    from rummykit.chance import wilson_interval

    return Estimate(hits / n, *wilson_interval(hits, n), n)


@pytest.mark.parametrize("n", [128, 5000])
def test_two_chances_are_never_compared_in_words_that_read_the_same(n):
    for best in range(0, n + 1, max(1, n // 200)):
        for played in (best, best - 1, best + 1):
            if not 0 <= played <= n or not (best or played):
                continue
            words = outs_words(_share(best, n), _share(played, n))
            if best == played:
                assert words.startswith(f"both go out first in {best} of the {n} samples")
                continue
            counted = f"it goes out first in {best} of the {n} samples, against {played} ("
            if not words.startswith(counted):
                first, second = words.split(", against ")
                assert first.removeprefix("it goes out first in ") != second
