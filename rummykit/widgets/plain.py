"""Charts drawn plainly, without altair or vl-convert: what an explorer shows at once
while the charting engine starts.

The first altair chart of a process waits for altair's import (its schema checker
builds a grammar on import: measured 2 to 12 s on two busy cores) and vl-convert's
start (about 1.5 s). Until then the explorers draw their charts here, in their colours,
from the same numbers: :func:`odds_lines_svg` for the OddsExplorer (the committed table
of ``data/``), :func:`convergence_svg` for the SimulationExplorer's first estimate and
:func:`completion_svg` for a laid-down-by-turn curve (where altair is missing, as in a
browser's Python, it is the only chart). The engine's chart replaces each once it is
drawn.
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence

from rummykit.chance import BELOW_LOWEST_TICK, ONE_IN_BELOW, axis_label, log_ticks

__all__ = ["LINE_COLOURS", "completion_svg", "convergence_svg", "odds_lines_svg", "shoe_words"]

#: The colours of the lines, one per shoe: :data:`rummykit.charts.DISTINCT_COLOURS`
#: (Okabe and Ito's colour-blind-safe palette), tested equal.
LINE_COLOURS = ("#E69F00", "#56B4E9", "#009E73", "#0072B2", "#D55E00", "#CC79A7", "#7F7F7F")
#: The dashes of those lines (``rummykit.charts.LINE_DASHES``, as SVG dash arrays).
LINE_DASHES = ("", "8 4", "3 3", "8 3 2 3", "1 3")


def _text(px: float, py: float, words: str, anchor: str = "middle", extra: str = "") -> str:
    size = "" if "font-size" in extra else ' font-size="11"'
    return (
        f'<text x="{px:.1f}" y="{py:.1f}" text-anchor="{anchor}"{size} '
        f'font-family="sans-serif" fill="#333"{extra}>{html.escape(words)}</text>'
    )


def shoe_words(decks: int, jokers: int) -> str:
    """A shoe as the charts' keys name it.

    >>> shoe_words(2, 4), shoe_words(1, 1)
    ('2 decks + 4 jokers', '1 deck + 1 joker')
    """
    return f"{decks} deck{'s' if decks != 1 else ''} + {jokers} joker{'s' if jokers != 1 else ''}"


def _label_width(words: str) -> float:
    """About how wide ``words`` are at 11 px sans-serif (for margins, not layout)."""
    return 6.4 * len(words)


def odds_lines_svg(
    rows: Sequence[dict],
    chosen: tuple[int, int, int],
    title: str,
    subtitle: str | Sequence[str] = "",
) -> str:
    """Lines of the chance ``p`` against the hand size ``cards``, one per shoe (``decks``,
    ``jokers``), as :func:`rummykit.charts.odds_lines` and
    :func:`rummykit.charts.estimate_bars` draw them (a log scale where a chance is under
    1%), with a black diamond at ``chosen`` (decks, jokers, cards).

    A line joins exact chances only. A row whose ``method`` is ``"simulation"`` is an
    estimate: a hollow circle with a bar over its 95% interval (``ci_low`` to
    ``ci_high``), never joined to its neighbours (an estimate's noise on a line reads as a
    chance that falls with more cards); on a log scale an estimate of 0 is a downward
    triangle at its interval's top. A shoe with no chance above 0 stays in the key,
    "impossible at these sizes". ``subtitle`` is a line or a list of lines.

    >>> rows = [{"decks": 2, "jokers": 4, "cards": c, "p": p}
    ...         for c, p in ((9, 0.05), (10, 0.089), (11, 0.14))]
    >>> svg = odds_lines_svg(rows, (2, 4, 10), "Chance of being dealt 2 sets")
    >>> svg.startswith("<svg") and ">2 decks + 4 jokers<" in svg and "<polygon" in svg
    True
    >>> guess = {"decks": 1, "jokers": 2, "cards": 10, "p": 0.05, "ci_low": 0.04,
    ...          "ci_high": 0.065, "method": "simulation"}
    >>> svg = odds_lines_svg(rows + [guess], (2, 4, 10), "Chance")
    >>> svg.count("<polyline"), svg.count("<circle"), ">simulated: 95% interval<" in svg
    (1, 2, True)
    """
    top_lines = [subtitle] if isinstance(subtitle, str) else list(subtitle)
    top_lines = [line for line in top_lines if line]
    top, width, height = 38 + 14 * len(top_lines), 420, 240
    shown = [row for row in rows if row["p"] is not None]

    def estimated(row: dict) -> bool:
        return row.get("method") == "simulation"

    # What the axis must reach: the chances, and an estimate of 0's interval top.
    reach = [row["p"] for row in shown if row["p"] > 0]
    reach += [row["ci_high"] for row in shown if estimated(row) and row["p"] == 0]
    reach = [value for value in reach if value > 0]
    log = bool(reach) and min(reach) < ONE_IN_BELOW
    if log:
        ticks = log_ticks(reach)
        low = math.log10(ticks[0])
        floor = ticks[0] * BELOW_LOWEST_TICK

        def y(p: float) -> float:
            p = max(p, floor)
            return top + height * (1 - (math.log10(p) - low) / -low) if low else top

    else:
        ticks = [i / 5 for i in range(6)]

        def y(p: float) -> float:
            return top + height * (1 - p)

    labels = [axis_label(tick) for tick in ticks]
    # Room for the longest tick label and the axis title beside it, never clipped.
    left = 34 + max(_label_width(label) for label in labels)
    sizes = sorted({row["cards"] for row in shown}) or [chosen[2]]
    span = max(1, sizes[-1] - sizes[0])

    def x(cards: int) -> float:
        return left + width * (cards - sizes[0]) / span if len(sizes) > 1 else left + width / 2

    shoes = sorted({(row["decks"], row["jokers"]) for row in shown})
    impossible = {
        shoe
        for shoe in shoes
        if all(
            row["p"] == 0 and not estimated(row)
            for row in shown
            if (row["decks"], row["jokers"]) == shoe
        )
    }
    key = [
        (shoe_words(*shoe) + (": impossible at these sizes" if shoe in impossible else ""))
        for shoe in shoes
    ]
    key_width = max([_label_width(words) for words in key] + [130]) + 60
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + width + key_width:.0f}" '
        f'height="{top + height + 50}" role="img" aria-label="{html.escape(title)}">',
        _text(left, 18, title, "start", ' font-size="13" font-weight="bold"'),
    ]
    parts += [_text(left, 36 + 14 * i, line, "start") for i, line in enumerate(top_lines)]
    parts.append(
        f'<rect x="{left}" y="{top}" width="{width}" height="{height}" fill="none" stroke="#ddd"/>'
    )
    for tick, label in zip(ticks, labels, strict=True):
        parts.append(_text(left - 6, y(tick) + 4, label, "end"))
        parts.append(
            f'<line x1="{left}" x2="{left + width}" y1="{y(tick):.1f}" y2="{y(tick):.1f}" '
            'stroke="#eee"/>'
        )
    for cards in sizes:
        parts.append(_text(x(cards), top + height + 16, str(cards)))
    parts.append(_text(left + width / 2, top + height + 36, "Cards in hand"))
    middle = top + height / 2
    parts.append(_text(14, middle, "Chance", extra=f' transform="rotate(-90 14 {middle})"'))
    any_estimate = False
    for i, shoe in enumerate(shoes):
        colour, dash = LINE_COLOURS[i % len(LINE_COLOURS)], LINE_DASHES[i % len(LINE_DASHES)]
        own = sorted(
            (row for row in shown if (row["decks"], row["jokers"]) == shoe),
            key=lambda row: row["cards"],
        )
        exact = [(row["cards"], row["p"]) for row in own if not estimated(row)]
        if log:
            exact = [(c, p) for c, p in exact if p > 0]
        dashes = f' stroke-dasharray="{dash}"' if dash else ""
        if len(exact) > 1:
            points = " ".join(f"{x(c):.1f},{y(p):.1f}" for c, p in exact)
            parts.append(
                f'<polyline points="{points}" fill="none" stroke="{colour}" '
                f'stroke-width="{max(1.5, 3.5 - 0.75 * i)}"{dashes}/>'
            )
        for row in own:
            if not estimated(row):
                continue
            any_estimate = True
            cx = x(row["cards"])
            parts.append(
                f'<line x1="{cx:.1f}" x2="{cx:.1f}" y1="{y(row["ci_low"]):.1f}" '
                f'y2="{y(row["ci_high"]):.1f}" stroke="{colour}" stroke-width="1.5"/>'
            )
            if log and row["p"] == 0:
                cy = y(row["ci_high"])
                parts.append(
                    f'<polygon points="{cx - 5:.1f},{cy - 4:.1f} {cx + 5:.1f},{cy - 4:.1f} '
                    f'{cx:.1f},{cy + 5:.1f}" fill="{colour}"/>'
                )
            else:
                parts.append(
                    f'<circle cx="{cx:.1f}" cy="{y(row["p"]):.1f}" r="3.5" fill="#fff" '
                    f'stroke="{colour}" stroke-width="1.8"/>'
                )
        ly = top + 16 * i + 8
        parts.append(
            f'<line x1="{left + width + 14}" x2="{left + width + 40}" y1="{ly}" y2="{ly}" '
            f'stroke="{colour}" stroke-width="2.5"{dashes}/>'
        )
        parts.append(_text(left + width + 46, ly + 4, key[i], "start"))
    below = len(shoes)
    if any_estimate:
        ly = top + 16 * below + 8
        parts.append(
            f'<line x1="{left + width + 27}" x2="{left + width + 27}" y1="{ly - 7}" '
            f'y2="{ly + 7}" stroke="#555" stroke-width="1.5"/>'
            f'<circle cx="{left + width + 27}" cy="{ly}" r="3.5" fill="#fff" stroke="#555" '
            'stroke-width="1.8"/>'
        )
        parts.append(_text(left + width + 46, ly + 4, "simulated: 95% interval", "start"))
        below += 1
    for row in shown:
        if (row["decks"], row["jokers"], row["cards"]) == chosen and (not log or row["p"] > 0):
            cx, cy = x(row["cards"]), y(row["p"])
            diamond = (
                f"{cx},{cy - 7:.1f} {cx + 7:.1f},{cy:.1f} {cx},{cy + 7:.1f} {cx - 7:.1f},{cy:.1f}"
            )
            parts.append(f'<polygon points="{diamond}" fill="#000"/>')
            ly = top + 16 * below + 8
            parts.append(
                f'<polygon points="{left + width + 27},{ly - 6} {left + width + 33},{ly} '
                f'{left + width + 27},{ly + 6} {left + width + 21},{ly}" fill="#000"/>'
            )
            parts.append(_text(left + width + 46, ly + 4, "your hand", "start"))
    parts.append("</svg>")
    return "".join(parts)


def convergence_svg(rows: Sequence, hands: tuple[int, int], exact: float | None, title: str) -> str:
    """The running estimate drawn without altair or vl-convert: what a SimulationExplorer
    shows at once while the charting engine starts (the chart of
    :func:`rummykit.charts.convergence_chart`, in its colours, drawn plainly).

    ``rows`` are estimates (``n``, ``p``, ``ci_low``, ``ci_high``), ``hands`` the first
    and last numbers of hands of the run (the log-scaled x axis), ``exact`` a dashed line.

    >>> from rummykit.odds.dealt.simulate import Estimate
    >>> svg = convergence_svg([Estimate.from_counts(12, 100)], (100, 20_000), None, "Chance")
    >>> svg.startswith("<svg") and "Hands dealt" in svg and ">20,000<" in svg
    True
    """
    left, top, width, height = 64, 44, 440, 260
    low, high = math.log10(hands[0]), math.log10(max(hands[1], hands[0] + 1))
    peak = max([float(r.ci_high) for r in rows] + [exact or 0.0, 0.01])
    # A round top: the next step of 1, 2 or 5 (in percent) above the highest value.
    step = 10 ** math.floor(math.log10(peak / 4))
    step = next(m * step for m in (1, 2, 5, 10) if m * step * 4 >= peak)
    top_value = 4 * step

    def x(n: int) -> float:
        return left + width * (math.log10(n) - low) / (high - low)

    def y(p: float) -> float:
        return top + height * (1 - p / top_value)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + width + 190}" '
        f'height="{top + height + 50}" role="img" aria-label="{html.escape(title)}">',
        _text(left, 20, title, "start", ' font-size="13" font-weight="bold"'),
        f'<rect x="{left}" y="{top}" width="{width}" height="{height}" fill="none" stroke="#ddd"/>',
    ]
    for i in range(5):
        value = i * step
        # Every tick a percentage, as the engine's chart writes them: never a mix of
        # styles ("0%, 1 in 200, 1%") on one linear axis.
        parts.append(_text(left - 6, y(value) + 4, f"{round(value * 100, 6):g}%", "end"))
        parts.append(
            f'<line x1="{left}" x2="{left + width}" y1="{y(value):.1f}" y2="{y(value):.1f}" '
            'stroke="#eee"/>'
        )
    ticks = sorted({10**k for k in range(math.ceil(low), math.floor(high) + 1)})
    # The run's ends too, unless a label would overlap a power of ten's.
    ends = [n for n in hands if all(abs(x(n) - x(t)) > 40 for t in ticks)]
    for n in sorted(ticks + ends):
        parts.append(_text(x(n), top + height + 16, f"{n:,}"))
    parts.append(_text(left + width / 2, top + height + 36, "Hands dealt"))
    parts.append(
        _text(
            16,
            top + height / 2,
            "Estimated chance",
            extra=f' transform="rotate(-90 16 {top + height / 2})"',
        )
    )
    band = [(x(r.n), y(float(r.ci_high))) for r in rows]
    band += [(x(r.n), y(float(r.ci_low))) for r in reversed(rows)]
    line = " ".join(f"{x(r.n):.1f},{y(float(r.p)):.1f}" for r in rows)
    if len(rows) == 1:  # one estimate: its interval as a bar, the estimate as a dot
        r = rows[0]
        parts.append(
            f'<line x1="{x(r.n):.1f}" x2="{x(r.n):.1f}" y1="{y(float(r.ci_low)):.1f}" '
            f'y2="{y(float(r.ci_high)):.1f}" stroke="#9ecae1" stroke-width="6"/>'
        )
        parts.append(f'<circle cx="{x(r.n):.1f}" cy="{y(float(r.p)):.1f}" r="3.5" fill="#08519c"/>')
    else:
        points = " ".join(f"{px:.1f},{py:.1f}" for px, py in band)
        parts.append(f'<polygon points="{points}" fill="#9ecae1" fill-opacity="0.3"/>')
        parts.append(f'<polyline points="{line}" fill="none" stroke="#08519c" stroke-width="2"/>')
    if exact is not None:
        parts.append(
            f'<line x1="{left}" x2="{left + width}" y1="{y(exact):.1f}" y2="{y(exact):.1f}" '
            'stroke="#d62728" stroke-dasharray="6 3"/>'
        )
    # The key: what the band, the line and the dashed line are.
    key = [
        (
            '<rect x="{x}" y="{y}" width="26" height="10" fill="#9ecae1" fill-opacity="0.5"/>',
            "95% interval",
        ),
        (
            '<line x1="{x}" x2="{x2}" y1="{ym}" y2="{ym}" stroke="#08519c" stroke-width="2"/>',
            "estimate",
        ),
    ]
    if exact is not None:
        key.append(
            (
                '<line x1="{x}" x2="{x2}" y1="{ym}" y2="{ym}" stroke="#d62728" '
                'stroke-dasharray="6 3"/>',
                "exact value",
            )
        )
    for i, (mark, words) in enumerate(key):
        kx, ky = left + width + 14, top + 18 * i
        parts.append(mark.format(x=kx, x2=kx + 26, y=ky, ym=ky + 5))
        parts.append(_text(kx + 32, ky + 9, words, "start"))
    parts.append("</svg>")
    return "".join(parts)


def completion_svg(rows: Sequence[dict], title: str, subtitle: str = "") -> str:
    """Lines of a chance ``p`` by ``turn`` with their 95% bands (``ci_low`` to
    ``ci_high``), one per ``line`` (its label), as
    :func:`rummykit.charts.completion_chart` draws them: the chance from 0 to 1 up the
    side, the turns along the bottom, each line in its colour over a pale band.

    >>> rows = [{"line": "4 players", "turn": t, "p": p, "ci_low": p - 0.02,
    ...          "ci_high": p + 0.02} for t, p in ((1, 0.1), (2, 0.5), (3, 0.9))]
    >>> svg = completion_svg(rows, "Laying down 2 sets")
    >>> svg.startswith("<svg") and ">4 players<" in svg and svg.count("<polyline") == 1
    True
    """
    left, top, width, height = 70, 52, 420, 240
    shown = [r for r in rows if r["p"] is not None]
    turns = sorted({r["turn"] for r in shown}) or [1]
    span = max(1, turns[-1] - turns[0])

    def x(turn: float) -> float:
        return left + width * (turn - turns[0]) / span

    def y(p: float) -> float:
        return top + height * (1 - min(1.0, max(0.0, p)))

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + width + 190}" '
        f'height="{top + height + 50}" role="img" aria-label="{html.escape(title)}">',
        _text(left, 18, title, "start", ' font-size="13" font-weight="bold"'),
        _text(left, 36, subtitle, "start") if subtitle else "",
        f'<rect x="{left}" y="{top}" width="{width}" height="{height}" fill="none" stroke="#ddd"/>',
    ]
    for tick in (i / 5 for i in range(6)):
        parts.append(_text(left - 6, y(tick) + 4, axis_label(tick), "end"))
        parts.append(
            f'<line x1="{left}" x2="{left + width}" y1="{y(tick):.1f}" y2="{y(tick):.1f}" '
            'stroke="#eee"/>'
        )
    every = max(1, math.ceil(len(turns) / 15))
    for turn in turns[::every]:
        parts.append(_text(x(turn), top + height + 16, str(turn)))
    parts.append(_text(left + width / 2, top + height + 36, "Turn"))
    middle = top + height / 2
    parts.append(
        _text(
            14, middle, "Chance of having laid down", extra=f' transform="rotate(-90 14 {middle})"'
        )
    )
    labels = list(dict.fromkeys(r["line"] for r in shown))
    for i, label in enumerate(labels):
        colour = LINE_COLOURS[i % len(LINE_COLOURS)]
        line = sorted(
            (r["turn"], r["p"], r["ci_low"], r["ci_high"]) for r in shown if r["line"] == label
        )
        band = [f"{x(t):.1f},{y(high):.1f}" for t, _, _, high in line]
        band += [f"{x(t):.1f},{y(low):.1f}" for t, _, low, _ in reversed(line)]
        parts.append(
            f'<polygon points="{" ".join(band)}" fill="{colour}" fill-opacity="0.2" stroke="none"/>'
        )
        points = " ".join(f"{x(t):.1f},{y(p):.1f}" for t, p, _, _ in line)
        parts.append(
            f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="2.5"/>'
        )
        ly = top + 16 * i + 8
        parts.append(
            f'<line x1="{left + width + 14}" x2="{left + width + 40}" y1="{ly}" y2="{ly}" '
            f'stroke="{colour}" stroke-width="2.5"/>'
        )
        parts.append(_text(left + width + 46, ly + 4, str(label), "start"))
    parts.append("</svg>")
    return "".join(parts)
