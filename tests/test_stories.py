"""A reviewed round's story (rummykit.evaluate.stories): the expected standing decision by decision,
split into the decisions' part and luck's, adding up to the result."""

from __future__ import annotations

import math
import re

import pytest

from rummykit.agents.bots import GreedyBot, RandomBot
from rummykit.engine.game import Game
from rummykit.errors import ArgumentError
from rummykit.evaluate.reviews import review
from rummykit.evaluate.stories import CLASS_COLOURS, Story


@pytest.fixture(scope="module")
def reviewed():
    state = Game("standard", players=3, seed=11, turn_limit=40).new_state()
    bots = [RandomBot(seed=3), GreedyBot(), GreedyBot()]
    while len(state.round_scores) < 2:
        state.apply(bots[state.to_act].choose(state.view(state.to_act)))
    return state, review(state, 0, budget=16, seed=1)


def test_a_round_adds_up_to_its_result(reviewed):
    state, result = reviewed
    assert [r for r, _ in result.results] == [1, 2]
    for number, points in zip((1, 2), state.round_scores, strict=True):
        story = result.story(number)
        mean_others = sum(points[1:]) / 2
        assert story.result == pytest.approx(-(points[0] - mean_others))  # penalty points
        assert story.start + story.decisions + story.luck == pytest.approx(story.result)
        assert story.adjusted == pytest.approx(story.start + story.decisions)
        verdicts = [v for v in result.verdicts if v.round == number]
        assert [m.verdict for m in story.moments] == verdicts
        for previous, moment in zip(story.moments, story.moments[1:], strict=False):
            assert moment.luck == pytest.approx(moment.before.mean - previous.after.mean)
        assert all(m.decision == -m.verdict.loss.mean for m in story.moments)
        assert story.decisions <= sum(max(0, -m.verdict.loss.mean) for m in story.moments)


def test_the_largest_swings_come_first(reviewed):
    _, result = reviewed
    story = result.story(1)
    swings = story.swings(5)
    sizes = [abs(points) for _, _, points in swings]
    assert sizes == sorted(sizes, reverse=True) and len(swings) <= 5
    every = [abs(m.decision) for m in story.moments] + [abs(m.luck) for m in story.moments[1:]]
    assert sizes[0] == max(every)
    assert len(story.swing_lines()) == len(story.swings())


def test_the_chart_draws_each_decision_with_its_class_and_the_result(reviewed):
    _, result = reviewed
    story = result.story(2)
    svg = story.chart().svg()
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    dots = re.findall(r'<circle cx="[\d.]+" cy="[\d.]+" r="4.5" fill="(#[0-9A-F]+)"', svg)
    assert dots == [CLASS_COLOURS[m.verdict.kind] for m in story.moments]
    assert f"result {story.result:+.0f}" in svg and "<polygon" in svg
    assert story._repr_html_().count("<svg") == 1 and "luck-adjusted" in story._repr_html_()


def test_a_story_needs_a_finished_round(reviewed):
    _, result = reviewed
    with pytest.raises(ArgumentError, match=r"a round the seat finished in this review \(1, 2\)"):
        result.story(3)
    empty = Story("Ann", 1, (), 5.0)
    assert empty.luck == 5.0 and empty.adjusted == 0.0 and not math.isnan(empty.start)
    assert "<svg" in empty.chart().svg()


def test_the_altair_chart_names_its_series(reviewed):
    import polars as pl

    from rummykit.charts import story_chart

    _, result = reviewed
    story = result.story(1)
    spec = story_chart(pl.DataFrame(story.rows()), result=story.result).to_dict()
    points = next(layer for layer in spec["layer"] if layer["mark"].get("size") == 70)
    assert points["encoding"]["color"]["title"] == "The decision"
