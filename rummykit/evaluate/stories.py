"""A reviewed round told as a story: the seat's expected standing decision by decision,
each change split into what the seat chose and what luck brought.

Backgammon analysers split a game's result into **skill** (each move against the best
move) and **luck** (each roll against the average roll). A rummy draw, a buy and another
seat's turn are the rolls here. From a review (:func:`rummykit.review`), at each decision
of the seat:

- the expected standing **before** it is the best choice's value (the position's worth as
  it came), **after** it the played choice's value (points at the round's end better than
  the opponents' mean, GreedyBot's play from there on, as the review measures them, with
  their 95% intervals);
- the **decision**'s part is after minus before (minus the choice's loss: 0 for the best);
- **luck**'s part is the change from the previous decision's *after* to this one's
  *before*: what happened in between, against its expectation; the last runs from the
  last decision to the round's result.

They add up: ``result = start + sum(decisions) + sum(luck)``, and the **luck-adjusted
result**, ``result - luck = start + sum(decisions)``, is what the round's choices came to
with average luck. :meth:`Story.chart` draws the standing with its band as SVG (no altair
needed: it shows in the PlayWidget in a browser too; :func:`rummykit.charts.story_chart` is
the same chart in altair).

>>> from rummykit.evaluate.estimate import Estimate
>>> from types import SimpleNamespace as Seen
>>> def verdict(best, played, kind):
...     loss = Estimate(best - played, best - played - 1, best - played + 1, 64)
...     return Seen(best=Seen(value=Estimate(best, best - 5, best + 5, 64), action="draw stock"),
...                 chosen=Seen(value=Estimate(played, played - 5, played + 5, 64)),
...                 loss=loss, kind=kind, number=0, phase="draw", played="take discard")
>>> story = Story.of("Ann", 1, [verdict(2.0, 2.0, "best"), verdict(9.0, 3.0, "mistake")], 12.0)
>>> story.start, story.decisions, story.luck, story.adjusted
(2.0, -6.0, 16.0, -4.0)
>>> story.start + story.decisions + story.luck == story.result
True
"""

from __future__ import annotations

import html
from dataclasses import dataclass

from rummykit.evaluate.estimate import Estimate

__all__ = ["CLASS_COLOURS", "Moment", "Story", "StoryChart"]

#: The review's classes and their colours (Okabe and Ito's colour-blind-safe set).
CLASS_COLOURS = {
    "best": "#009E73",
    "good": "#56B4E9",
    "inaccuracy": "#F0E442",
    "mistake": "#E69F00",
    "blunder": "#D55E00",
}


@dataclass(frozen=True)
class Moment:
    """One decision of a round's story."""

    verdict: object
    """The review's :class:`~rummykit.evaluate.reviews.Verdict` on the decision."""
    before: Estimate
    """The expected standing with the best choice: the position's worth as it came."""
    after: Estimate
    """The expected standing with the choice played."""
    luck: float
    """The change since the previous decision's ``after`` (0 at the first): what the
    draws, the buys and the other seats brought, against their expectation."""

    @property
    def decision(self) -> float:
        """The choice's part: the played choice against the best (minus its loss)."""
        return -self.verdict.loss.mean


@dataclass(frozen=True)
class Story:
    """A round's story (see the module's docstring)."""

    name: str
    """The seat's player."""
    round: int
    moments: tuple[Moment, ...]
    result: float
    """The round's result as it happened (points better than the opponents' mean)."""

    @classmethod
    def of(cls, name: str, round: int, verdicts: list, result: float) -> Story:
        """The story of ``verdicts`` (one round's, in the order played) that came to
        ``result``."""
        moments, previous = [], None
        for verdict in verdicts:
            before, after = verdict.best.value, verdict.chosen.value
            luck = 0.0 if previous is None else before.mean - previous
            moments.append(Moment(verdict, before, after, luck))
            previous = after.mean
        return cls(name, round, tuple(moments), float(result))

    @property
    def start(self) -> float:
        """The expected standing at the first decision, with the best choice (0 if the seat
        had no choice to make)."""
        return self.moments[0].before.mean if self.moments else 0.0

    @property
    def decisions(self) -> float:
        """The choices' part, added up (0 or less where the losses are)."""
        return sum(m.decision for m in self.moments)

    @property
    def luck(self) -> float:
        """Luck's part, added up, to the round's end."""
        last = self.moments[-1].after.mean if self.moments else self.start
        return sum(m.luck for m in self.moments) + (self.result - last)

    @property
    def adjusted(self) -> float:
        """The luck-adjusted result: what the round's choices came to with average luck."""
        return self.result - self.luck

    def swings(self, count: int = 3) -> list[tuple[str, Moment, float]]:
        """The ``count`` largest moves of the expected standing, largest first:
        ``(part, moment, points)``, part "decision" (the choice at that moment) or "luck"
        (what came between the previous decision and that moment)."""
        moves = [("decision", m, m.decision) for m in self.moments]
        moves += [("luck", m, m.luck) for m in self.moments[1:]]
        moves = [move for move in moves if move[2]]
        return sorted(moves, key=lambda move: -abs(move[2]))[:count]

    def rows(self) -> list[dict]:
        """One row per decision, long form (for a DataFrame)."""
        return [
            {
                "round": self.round,
                "step": step,
                "number": m.verdict.number,
                "phase": m.verdict.phase,
                "played": str(m.verdict.played),
                "best": str(m.verdict.best.action),
                "kind": m.verdict.kind,
                "before": m.before.mean,
                "after": m.after.mean,
                "after_low": m.after.low,
                "after_high": m.after.high,
                "decision": m.decision,
                "luck": m.luck,
            }
            for step, m in enumerate(self.moments, 1)
        ]

    def summary(self) -> str:
        """The round in one line: result, decisions, luck and the luck-adjusted result."""
        return (
            f"Round {self.round} of {self.name}: a result of {self.result:+.0f} points against "
            f"the opponents' mean; the decisions {self.decisions:+.0f}, luck "
            f"{self.luck:+.0f}; luck-adjusted {self.adjusted:+.0f}"
        )

    def swing_lines(self) -> list[str]:
        """The largest swings in words, one a line."""
        lines = []
        for part, moment, points in self.swings():
            verdict = moment.verdict
            if part == "decision":
                what = f"{verdict.phase}: {verdict.played} ({verdict.kind}; best {verdict.best.action})"
            else:
                what = f"before the {verdict.phase} of {verdict.played}, what the others and the cards did"
            lines.append(f"{points:+.0f} {part}, decision {self.moments.index(moment) + 1}: {what}")
        return lines

    def chart(self, *, width: int = 480, height: int = 240) -> StoryChart:
        """The expected standing after each decision with its 95% band, each decision a dot
        coloured by its class, and the result at the end, as SVG."""
        return StoryChart(self, width, height)

    def __str__(self) -> str:
        return "\n".join([self.summary(), *(f"  {line}" for line in self.swing_lines())])

    def _repr_html_(self) -> str:
        items = "".join(f"<li>{html.escape(line)}</li>" for line in self.swing_lines())
        swings = f"<p>The largest swings:</p><ul>{items}</ul>" if items else ""
        return f"<p>{html.escape(self.summary())}</p>{self.chart().svg()}{swings}"


@dataclass(frozen=True)
class StoryChart:
    """A story's chart as SVG (:meth:`Story.chart`); shows itself in Jupyter."""

    story: Story
    width: int
    height: int

    def svg(self) -> str:
        """The chart's SVG text."""
        story, width, height = self.story, self.width, self.height
        left, right, top, bottom = 46, 70, 24, 34
        points = [(m.after.mean, m.after.low, m.after.high) for m in story.moments]
        values = [v for triple in points for v in triple] + [story.result, 0.0]
        low, high = min(values), max(values)
        if high - low < 1:
            low, high = low - 1, high + 1
        steps = len(points) + 1

        def x(step: float) -> float:
            return left + (width - left - right) * (step - 1) / max(steps - 1, 1)

        def y(value: float) -> float:
            return top + (height - top - bottom) * (high - value) / (high - low)

        parts = [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" role="img" aria-label="{html.escape(story.summary())}">',
            f"<title>{html.escape(story.summary())}</title>",
            f'<line x1="{left}" x2="{width - right}" y1="{y(0):.1f}" y2="{y(0):.1f}" '
            'stroke="#7F7F7F" stroke-dasharray="3 3"/>',
        ]
        for value in _ticks(low, high):
            parts.append(
                f'<text x="{left - 6}" y="{y(value) + 4:.1f}" text-anchor="end" '
                f'font-family="sans-serif" font-size="11" fill="#333">{value:+g}</text>'
            )
        if points:
            band = [f"{x(i + 1):.1f},{y(p[2]):.1f}" for i, p in enumerate(points)]
            band += [f"{x(i + 1):.1f},{y(p[1]):.1f}" for i, p in reversed(list(enumerate(points)))]
            parts.append(f'<polygon points="{" ".join(band)}" fill="#4a6fa5" fill-opacity="0.18"/>')
            line = [f"{x(i + 1):.1f},{y(p[0]):.1f}" for i, p in enumerate(points)]
            line.append(f"{x(steps):.1f},{y(story.result):.1f}")
            parts.append(
                f'<polyline points="{" ".join(line)}" fill="none" stroke="#4a6fa5" '
                'stroke-width="2"/>'
            )
            for i, moment in enumerate(story.moments):
                verdict = moment.verdict
                tip = (
                    f"decision {i + 1}, {verdict.phase}: {verdict.played} ({verdict.kind}); "
                    f"expected {moment.after.mean:+.1f} ({moment.after.low:+.1f} to "
                    f"{moment.after.high:+.1f}); decision {moment.decision:+.1f}, luck "
                    f"{moment.luck:+.1f}"
                )
                parts.append(
                    f'<circle cx="{x(i + 1):.1f}" cy="{y(moment.after.mean):.1f}" r="4.5" '
                    f'fill="{CLASS_COLOURS.get(verdict.kind, "#333")}" stroke="#333" '
                    f'stroke-width="0.6"><title>{html.escape(tip)}</title></circle>'
                )
        ex, ey = x(steps), y(story.result)
        parts.append(
            f'<rect x="{ex - 5:.1f}" y="{ey - 5:.1f}" width="10" height="10" fill="#000" '
            f'transform="rotate(45 {ex:.1f} {ey:.1f})"><title>the result: '
            f"{story.result:+.0f}</title></rect>"
        )
        parts.append(
            f'<text x="{ex + 9:.1f}" y="{ey + 4:.1f}" font-family="sans-serif" font-size="12">'
            f"result {story.result:+.0f}</text>"
        )
        parts.append(
            f'<text x="{(left + width - right) / 2:.1f}" y="{height - 8}" text-anchor="middle" '
            'font-family="sans-serif" font-size="11" fill="#333">decisions of the round, '
            "then the result; the band: 95% of the expected standing</text>"
        )
        legend = 0
        for kind, colour in CLASS_COLOURS.items():
            if any(m.verdict.kind == kind for m in story.moments):
                parts.append(
                    f'<circle cx="{width - right + 14}" cy="{top + 14 * legend}" r="4" '
                    f'fill="{colour}" stroke="#333" stroke-width="0.6"/>'
                    f'<text x="{width - right + 22}" y="{top + 4 + 14 * legend}" '
                    f'font-family="sans-serif" font-size="11">{kind}</text>'
                )
                legend += 1
        parts.append("</svg>")
        return "".join(parts)

    def _repr_svg_(self) -> str:
        return self.svg()


def _ticks(low: float, high: float) -> list[float]:
    """About five round values from ``low`` to ``high``."""
    span = high - low
    step = 10 ** len(str(int(span / 5))) / 10 if span >= 5 else 1
    for nice in (1, 2, 5, 10):
        if span / (step * nice) <= 6:
            step *= nice
            break
    first = int(low // step) * step
    return [
        first + k * step
        for k in range(int((high - first) / step) + 2)
        if low <= first + k * step <= high
    ]
