"""Exact counting of dealt hands: the sweep (:mod:`.exact`, its model and layers), the
keep-every-card chances (:mod:`.keep`) and the brute-force reference (:mod:`.reference`)."""

from rummykit.odds import require_analysis

require_analysis()
