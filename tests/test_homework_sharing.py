"""How often classmates share numbers (rummykit.teach.homework.sharing): the collision
estimate against classes simulated directly, and what book/teachers.md says of it."""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from pathlib import Path

import pytest

from rummykit.teach.homework import ASSIGNMENTS
from rummykit.teach.homework.sharing import class_sharing, collision

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_the_share_of_a_class_agrees_with_classes_drawn_directly():
    """hw1's q1 shares most often: draw 200 classes of 300 students and count, in each,
    the students whose q1 numbers another student of the class has too."""
    question = ASSIGNMENTS["hw1-counting"]["q1"]
    expected = class_sharing("hw1-counting", students=300, draws=20_000).per_question["q1"]
    chance, error = collision(question, draws=20_000)
    assert expected <= 1 - (1 - chance) ** 299  # the collision bound lies above it
    shares = []
    for klass in range(200):
        drawn = [
            json.dumps(
                question.numbers(f"class{klass}-{i}", course="sharing-check"), sort_keys=True
            )
            for i in range(300)
        ]
        counts = Counter(drawn)
        shares.append(sum(counts[d] > 1 for d in drawn) / 300)
    mean = sum(shares) / len(shares)
    spread = math.sqrt(sum((s - mean) ** 2 for s in shares) / (len(shares) - 1))
    # Four standard errors of the simulated mean, and the plug-in estimate's own
    # uncertainty (about that of the collision chance it is made from).
    slack = 4 * spread / math.sqrt(len(shares)) + 299 * 2 * error
    assert abs(mean - expected) < slack, (mean, expected, slack)
    assert 0.05 < mean < 0.6  # a question that does share: the check can fail


def test_a_question_whose_numbers_never_repeat_has_no_collision():
    chance, error = collision(ASSIGNMENTS["hw2-simulation"]["q2"], draws=2000)
    assert chance == 0 and error == 0


@pytest.mark.slow
def test_the_teachers_guide_states_the_shares_it_computes():
    text = (ROOT / "book" / "teachers.md").read_text()
    stated = re.search(r"below 1 in 10\^(\d+)", text)
    assert stated, "book/teachers.md states the share of a class that shares every number"
    worst_question = 0.0
    for assignment in ASSIGNMENTS:
        sharing = class_sharing(assignment, students=300, draws=20_000)
        assert sharing.all_numbers_bound < 10 ** -int(stated[1]), assignment
        worst_question = max(worst_question, *sharing.per_question.values())
    said = re.search(r"from 0% to (\d+)%", text)
    assert said and round(worst_question * 100) == int(said[1])
