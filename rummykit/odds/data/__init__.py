"""What the jobs that make the tables of ``data/`` stand on: the table schemas
(:mod:`.schemas`), the count planner (:mod:`.plan`), the worker pool (:mod:`.pool`), the
cluster runs (:mod:`.cluster`), the round checkpoints (:mod:`.checkpoint`) and the safe
writes (:mod:`.output`). Nothing here imports a job; the pipeline that runs the jobs,
:mod:`rummykit.odds.pipeline`, stands above them."""

from rummykit._optional import require_analysis

require_analysis()
