"""The bots a learner plays against, by level, and the set-up controls' words."""

from __future__ import annotations

from collections.abc import Callable

from rummykit.agents.bots import BuyerBot, GreedyBot, OutsBot, RandomBot
from rummykit.agents.searchbot import SearchBot
from rummykit.engine.rules import RuleSet
from rummykit.errors import ArgumentError, RuleSetError
from rummykit.widgets._common import (
    ipywidgets,
)
from rummykit.widgets.play.words import count_words

#: The strong level's budget per decision: this many samples (sampled deals, each choice
#: played out on each) ...
STRONG_SAMPLES = 300


#: ... or this many seconds, whichever comes first: on 2026-12-02's rollouts, 300 samples
#: took 0.1 to 1.5 s a decision (the discards of the run rounds the longest), so the cap
#: binds on the slowest; only a decision the cap did not cut is reproducible from the seed.
#: A bot's move is two decisions or more (its draw, its discard, a buy): measured for
#: issue 50 (standard, 4 players, rounds 1, 4 and 7, 45 moves of the strong bots, a 2-core
#: machine with other work on it), a move took 1.26 s (median; 2.0 s at the 90th
#: percentile, 3.2 s at most) of wall time, 0.64 s (at most 1.7 s) of CPU: the level's
#: words say "about 1 to 3 s a move".
STRONG_SECONDS = 1.0


#: The bots to play against, by the name shown in the widget: seed -> bot.
BOTS: dict[str, Callable[[int], object]] = {
    "Greedy": lambda seed: GreedyBot(seed=seed),
    "Greedy, always buys": lambda seed: BuyerBot("always", seed=seed),
    "Greedy, never buys": lambda seed: BuyerBot("never", seed=seed),
    # Weighs the outs of every discard: a fraction of a second a discard, up to seconds
    # in the run rounds (benchmarks/bench_outsbot.py).
    "Greedy, discards by outs": lambda seed: OutsBot(seed=seed),
    "Random": lambda seed: RandomBot(seed=seed),
    # Weighs each choice by playing it on over sampled deals (rummykit.agents.searchbot): up to
    # a second a decision, 1 to 3 s a move (STRONG_SECONDS), so it thinks in a thread and
    # the widget says so.
    "Strong (searches ahead)": lambda seed: SearchBot(
        seed=seed, rollouts=STRONG_SAMPLES, seconds=STRONG_SECONDS
    ),
}


#: The levels a learner picks from: level -> (the words shown, the bot of :data:`BOTS`).
LEVELS: dict[str, tuple[str, str]] = {
    "random": ("Random (beginner)", "Random"),
    "greedy": ("Greedy (goes for its contract)", "Greedy"),
    "outs": ("Careful (discards by outs)", "Greedy, discards by outs"),
    "strong": ("Strong (searches ahead, about 1 to 3 s a move)", "Strong (searches ahead)"),
}


#: The one dropdown's words for each bot of :data:`BOTS`: a level's bot in the level's
#: words, the buying variants by their own names (they play at the greedy level).
BOT_WORDS = {bot: words for words, bot in LEVELS.values()}


BOT_ORDER = (
    "Random",
    "Greedy",
    "Greedy, always buys",
    "Greedy, never buys",
    "Greedy, discards by outs",
    "Strong (searches ahead)",
)


#: The level of each bot of :data:`BOTS` (the buying variants play at the greedy level).
LEVEL_OF = {
    "Greedy": "greedy",
    "Greedy, always buys": "greedy",
    "Greedy, never buys": "greedy",
    "Greedy, discards by outs": "outs",
    "Random": "random",
    "Strong (searches ahead)": "strong",
}


class LevelChoice:
    """The bots' level (a key of :data:`LEVELS`), read from and written to the one
    dropdown of bots (``PlayWidget.bot_kind``): setting a level picks its bot unless the
    bot chosen already plays at that level (a greedy bot's buying variant stays)."""

    def __init__(self, bots: ipywidgets.Dropdown) -> None:
        self._bots = bots

    @property
    def value(self) -> str:
        return LEVEL_OF[self._bots.value]

    @value.setter
    def value(self, level: str) -> None:
        if level not in LEVELS:
            raise ArgumentError(f"level must be one of {', '.join(LEVELS)}, got {level!r}")
        if self.value != level:
            self._bots.value = LEVELS[level][1]


def bot_range(rules: RuleSet) -> tuple[int, int]:
    """The fewest and most bots a table of ``rules`` takes (one seat is the human's).

    >>> bot_range(RuleSet.preset("family"))
    (1, 5)
    """
    return rules.min_players - 1, rules.max_players - 1


def check_bots(rules: RuleSet, bots: int) -> None:
    """Raise :class:`~rummykit.errors.RuleSetError` unless ``bots`` bots and one human may
    play under ``rules``; the message names the preset and the range of bots.

    >>> check_bots(RuleSet.preset("family"), 7)
    Traceback (most recent call last):
    ...
    rummykit.errors.RuleSetError: family is played by 2 to 6 players: choose 1 to 5 bots, not 7
    """
    try:
        whole = isinstance(bots, int) and not isinstance(bots, bool)
        rules.check_players(bots + 1 if whole else bots)
    except RuleSetError:
        low, high = bot_range(rules)
        raise RuleSetError(
            f"{rules.name} is played by {rules.min_players} to {rules.max_players} players: "
            f"choose {low} to {high} bots, not {bots}"
        ) from None


def settings_words(settings: dict[str, object], keys: list[str]) -> str:
    """The set-up settings ``keys`` in words: ``"3 bots, Strong (...), seed 4"``."""
    words = {
        "rules": lambda rules: f"{rules} rules",
        "bots": lambda bots: count_words(bots, "bot"),
        "level": lambda bot: BOT_WORDS.get(bot, bot),
        "play": lambda whole: "the whole game" if whole else "one round",
        "round": lambda number: f"round {number}",
        "seed": lambda seed: f"seed {seed}",
    }
    return ", ".join(words[key](settings[key]) for key in keys if key in settings)
