"""Dealt-hand simulation (:mod:`.simulate`): estimates with their intervals."""
