"""Exact counting of dealt hands: the sweep (:mod:`.exact`, its model and layers), the
keep-every-card chances (:mod:`.keep`), the brute-force reference (:mod:`.reference`) and
the dealt-hand tables of ``data/``, counted or, where a count would take too long,
simulated (:mod:`.tables`)."""

from rummykit._optional import require_analysis

require_analysis()
