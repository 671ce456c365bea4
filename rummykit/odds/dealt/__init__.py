"""Dealt-hand simulation (:mod:`.simulate`): estimates with their intervals."""

from rummykit._optional import require_analysis

require_analysis()
