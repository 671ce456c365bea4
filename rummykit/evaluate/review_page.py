"""A review as one self-contained HTML page, for a browser with no network.

:func:`review_page` is what ``rummykit review --html`` writes: the review's summary and
the legend of its marks, each finished round's story, the mistakes by decision type (and
the bots beside the seat, if given), then a table of every decision and, under it, each
decision on its own: the hand the seat held, the top of the discard pile, the table's
melds, and the verdict in words. The decisions marked inaccuracy, mistake or blunder are
coloured and carry their mark (:data:`~rummykit.evaluate.reviews.MARKS`); each row of the table
links to its decision, and each decision back to its row. The table and the sentences
name the actions alike (:func:`~rummykit.evaluate.review_words.action_words`: suit symbols, melds
counted from 1). The style is inline, the cards are inline SVG, and nothing is fetched:
the page reads the same offline.
"""

from __future__ import annotations

import html

from rummykit import svg
from rummykit.errors import ArgumentTypeError
from rummykit.evaluate.beside import BesideBots
from rummykit.evaluate.review_words import action_words
from rummykit.evaluate.reviews import MARKS, MARKS_LEGEND, Review, Verdict

__all__ = ["review_page"]

#: The page's style: plain, readable, and each class's colour (the marked rows tinted).
_STYLE = (
    "body{font-family:system-ui,sans-serif;max-width:60em;margin:1em auto;padding:0 1em;"
    "line-height:1.4;color:#222}table{border-collapse:collapse;margin:.5em 0}"
    "th,td{border-bottom:1px solid #ddd;padding:.2em .5em;text-align:left;vertical-align:top}"
    "tr:target,section:target{outline:2px solid #0072b2}"
    "section.rk-decision{border-top:1px solid #ccc;padding:.3em 0 .6em}"
    ".rk-mark{font-weight:bold}.rk-legend{background:#f6f6f6;padding:.4em .6em}"
    "figure{margin:.3em 0;overflow-x:auto}figcaption{font-size:.9em;color:#555}"
    + "".join(
        f".rk-{kind} .rk-mark,.rk-{kind} .rk-class{{color:{colour}}}"
        for kind, (_, colour) in MARKS.items()
    )
    + "".join(
        f"tr.rk-{kind},section.rk-{kind}{{background:{colour}14;border-left:4px solid {colour}}}"
        for kind, (mark, colour) in MARKS.items()
        if mark
    )
)


def review_page(review: Review, *, beside: BesideBots | None = None) -> str:
    """``review`` (a :class:`~rummykit.evaluate.reviews.Review`) as a whole HTML page (see the
    module notes), with ``beside`` (a :class:`~rummykit.evaluate.beside.BesideBots` of the same
    review) if given.

    >>> from rummykit.agents.bots import GreedyBot
    >>> from rummykit.engine.game import Game, play_game
    >>> from rummykit.evaluate.reviews import review
    >>> state = play_game(Game("standard", players=2, seed=3, turn_limit=6).new_state(),
    ...                   [GreedyBot(), GreedyBot()])
    >>> page = review_page(review(state, seat=0, budget=4, seed=1, round=1))
    >>> page.startswith("<!DOCTYPE html>"), "href='#decision-1'" in page, "<svg" in page
    (True, True, True)
    >>> "http" in page.replace("http://www.w3.org/", "")  # nothing to fetch
    False
    >>> review_page("a review")
    Traceback (most recent call last):
    ...
    rummykit.errors.ArgumentTypeError: review must be a Review, got 'a review'
    """
    if not isinstance(review, Review):
        raise ArgumentTypeError(f"review must be a Review, got {review!r:.80}")
    if beside is not None and not isinstance(beside, BesideBots):
        raise ArgumentTypeError(f"beside must be a BesideBots or None, got {beside!r:.80}")
    title = html.escape(f"Review of {review.name} (seat {review.seat})")
    summary = "".join(f"<p>{html.escape(line.strip())}</p>" for line in str(review).splitlines())
    parts = [
        f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>{title}</title>"
        f"<style>{_STYLE}</style></head><body><h1>{title}</h1>{summary}",
        f"<p class='rk-legend'>{html.escape(MARKS_LEGEND)}</p>",
    ]
    for number, _ in review.results:
        story = review.story(number)
        parts.append(f"<h2>Round {story.round}</h2>{story._repr_html_()}")
    if beside is not None:
        parts.append(f"<h2>Beside the bots</h2>{beside._repr_html_()}")
    parts.append(f"<h2>Mistakes by decision type</h2>{review.mistakes_by_type()._repr_html_()}")
    if review.verdicts:
        parts.append(_table(review.verdicts))
        parts.extend(_decision(n, v) for n, v in enumerate(review.verdicts, 1))
    return "".join(parts) + "</body></html>"


def _marked(verdict: Verdict) -> str:
    """The action played in words, then its mark (none for best or good)."""
    mark = MARKS[verdict.kind][0]
    return html.escape(action_words(verdict.played)) + (
        f" <span class='rk-mark'>{mark}</span>" if mark else ""
    )


def _table(verdicts: tuple[Verdict, ...]) -> str:
    rows = "".join(
        f"<tr id='row-{n}' class='rk-{v.kind}'><td><a href='#decision-{n}'>{n}</a></td>"
        f"<td>{v.round}</td><td>{html.escape(v.phase)}</td><td>{_marked(v)}</td>"
        f"<td>{html.escape(action_words(v.best.action))}</td>"
        f"<td>{v.loss.mean:.1f} ({v.loss.low:.1f} to {v.loss.high:.1f})</td>"
        f"<td class='rk-class'>{v.kind}</td></tr>"
        for n, v in enumerate(verdicts, 1)
    )
    return (
        "<h2>Every decision</h2><p>Each number leads to the decision, its hand and its "
        "verdict in words; the marked rows are tinted.</p><table><tr><th>#</th><th>round</th>"
        "<th>phase</th><th>played</th><th>best</th><th>loss in points (95%)</th>"
        f"<th>class</th></tr>{rows}</table>"
    )


def _decision(n: int, verdict: Verdict) -> str:
    view = verdict.view
    top = "" if view.discard_top is None else svg.card_svg(view.discard_top, width=40)
    figures = [("your hand", svg.hand_svg(view.hand, width=40))]
    if top:
        figures.append(("the discard pile's top", top))
    if view.melds:
        figures.append(("on the table", svg.melds_svg(view.melds, width=32)))
    drawn = "".join(f"<figure><figcaption>{c}</figcaption>{image}</figure>" for c, image in figures)
    return (
        f"<section id='decision-{n}' class='rk-decision rk-{verdict.kind}'>"
        f"<h3>{n}. Round {verdict.round}, {html.escape(verdict.phase)}: {_marked(verdict)} "
        f"<span class='rk-class'>({verdict.kind})</span></h3>{drawn}"
        f"<p>{html.escape(verdict.sentence)}</p><p><a href='#row-{n}'>back to the table</a>"
        "</p></section>"
    )
