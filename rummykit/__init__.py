"""rummykit: learn, analyse and teach Liverpool Rummy (contract rummy) in Jupyter.

>>> from rummykit import parse_cards, RuleSet, find_contract
>>> hand = parse_cards("8S 8H 8D JH JH JS 4C 9D")
>>> melds = find_contract(hand, RuleSet.preset("standard").contracts[0], RuleSet.preset("standard"))
>>> [str(meld) for meld in melds]
['8♦ 8♥ 8♠', 'J♥ J♥ J♠']
"""

from rummykit.actions import parse_action
from rummykit.cards import Card, Hand, Rank, Shoe, Suit, as_rng, parse_cards
from rummykit.errors import (
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
    RuleSetError,
    RummyError,
    SaveFileError,
    StudentIdError,
    SubmissionError,
    UnsupportedRuleError,
)
from rummykit.game import Game, GameState, play_game
from rummykit.hints import DiscardAdvice, DiscardOption, Outs, discard_advice, outs
from rummykit.legal import PlayerView
from rummykit.melds import Meld, MeldCheck, check_meld
from rummykit.reviews import Review, review
from rummykit.rules import CONTRACTS, Contract, RuleSet
from rummykit.saves import load
from rummykit.search import contract_completion, contract_distance, find_contract

__version__ = "0.1.0"

__all__ = [
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
