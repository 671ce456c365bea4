"""Dealt-hand simulation (:mod:`.simulate`): estimates with their intervals."""

from rummykit.odds import require_analysis

require_analysis()
