"""Who plays: the bots and their registry (:mod:`~rummykit.agents.bots`), the hints a
learner is given (:mod:`~rummykit.agents.hints`), the hidden cards dealt again
(:mod:`~rummykit.agents.determinize`), rollouts (:mod:`~rummykit.agents.rollouts`), the
search bot (:mod:`~rummykit.agents.searchbot`) and the paired weighing of candidates it
shares with the review (:mod:`~rummykit.agents.weigh`). They stand on the engine only.
"""
