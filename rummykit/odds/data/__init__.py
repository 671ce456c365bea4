"""The data pipeline of ``data/``: the table schemas (:mod:`.tables`), the count planner
(:mod:`.plan`), the pipeline (:mod:`.pipeline`), the worker pool (:mod:`.pool`), the
cluster runs (:mod:`.cluster`), the round checkpoints (:mod:`.checkpoint`) and the safe
writes (:mod:`.output`)."""

from rummykit.odds import require_analysis

require_analysis()
