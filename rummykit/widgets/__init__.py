"""Jupyter widgets: deal hands, build melds, play against bots, explore the odds, check
an exercise's answer.

Each widget is a class holding its domain object (a hand, a game state, a contract) and
an ``ipywidgets`` box to display (``widget.box``; in a notebook the widget object itself
displays). The engine decides everything: a widget only shows engine state and sends
actions, and every refusal shows the engine's reason.

>>> from rummykit.widgets import MeldBuilder
>>> builder = MeldBuilder(hand="7H 8H JK 10H 5S 5D 5C")
>>> builder.select("7H 8H JK 10H")
>>> builder.check_button.click()
>>> builder.verdict
'valid run, the joker is the 9♥'

Importing this package needs the notebook extras (``pip install "rummykit[notebook]"``).
The odds explorers are imported only when asked for. With the analysis extra (polars,
altair, numpy) they count and chart with it; without it, as in the book's live
notebooks (Pyodide, in the reader's browser, which has none of them), they read the
committed tables, estimate the rest with the standard library and draw their charts
plainly (:mod:`rummykit.widgets.odds`).
"""

from rummykit.widgets._common import require

require("ipywidgets")

from rummykit.widgets.deal import DealWidget  # noqa: E402
from rummykit.widgets.exercise import ExerciseForm  # noqa: E402
from rummykit.widgets.meld import MeldBuilder  # noqa: E402
from rummykit.widgets.play import PlayWidget  # noqa: E402

__all__ = [
    "DealWidget",
    "ExerciseForm",
    "MeldBuilder",
    "OddsExplorer",
    "PlayWidget",
    "SimulationExplorer",
]

#: The odds explorers, imported on first use (their module is the largest).
_WITH_ANALYSIS = ("OddsExplorer", "SimulationExplorer")


def __getattr__(name: str):
    if name in _WITH_ANALYSIS:
        from rummykit.widgets import odds

        return getattr(odds, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
