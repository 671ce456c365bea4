"""rummykit: learn, analyse and teach Liverpool Rummy (contract rummy) in Jupyter.

>>> from rummykit import parse_cards, RuleSet, find_contract
>>> hand = parse_cards("8S 8H 8D JH JH JS 4C 9D")
>>> melds = find_contract(hand, RuleSet.preset("standard").contracts[0], RuleSet.preset("standard"))
>>> [str(meld) for meld in melds]
['8♦ 8♥ 8♠', 'J♥ J♥ J♠']
"""

from rummykit import _moved
from rummykit.agents.hints import DiscardAdvice, DiscardOption, Outs, discard_advice, outs
from rummykit.engine.actions import parse_action
from rummykit.engine.cards import Card, Hand, Rank, Shoe, Suit, as_rng, parse_cards
from rummykit.engine.game import Game, GameState, play_game
from rummykit.engine.legal import PlayerView
from rummykit.engine.melds import Meld, MeldCheck, check_meld
from rummykit.engine.rules import CONTRACTS, Contract, RuleSet
from rummykit.engine.saves import load
from rummykit.engine.search import contract_completion, contract_distance, find_contract
from rummykit.errors import (
    ActionParseError,
    ActionTypeError,
    AnswerError,
    ArgumentError,
    ArgumentTypeError,
    CardCountError,
    CardParseError,
    CardTypeError,
    ClusterError,
    GradingError,
    IllegalActionError,
    IllegalMeldError,
    MissingDependencyError,
    OutputError,
    Refusal,
    RuleSetError,
    RummyError,
    SaveFileError,
    StudentIdError,
    SubmissionError,
    UnsupportedRuleError,
)
from rummykit.evaluate.reviews import Review, review

__version__ = "0.1.0"

_moved.install()  # the flat root's old module paths, for one release (rummykit._moved)

__all__ = [
    "ActionParseError",
    "CONTRACTS",
    "ActionTypeError",
    "AnswerError",
    "ArgumentError",
    "ArgumentTypeError",
    "Card",
    "CardCountError",
    "CardParseError",
    "CardTypeError",
    "ClusterError",
    "GradingError",
    "Contract",
    "DiscardAdvice",
    "DiscardOption",
    "Game",
    "GameState",
    "Hand",
    "IllegalActionError",
    "IllegalMeldError",
    "Meld",
    "MeldCheck",
    "MissingDependencyError",
    "OutputError",
    "Refusal",
    "Outs",
    "PlayerView",
    "Rank",
    "Review",
    "RuleSet",
    "RuleSetError",
    "RummyError",
    "SaveFileError",
    "Shoe",
    "StudentIdError",
    "SubmissionError",
    "Suit",
    "UnsupportedRuleError",
    "as_rng",
    "check_meld",
    "contract_completion",
    "contract_distance",
    "discard_advice",
    "find_contract",
    "load",
    "outs",
    "parse_action",
    "parse_cards",
    "play_game",
    "review",
]
