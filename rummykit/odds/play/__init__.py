"""Table play: rounds played by the engine's bots (:mod:`.completion`), the fast core's
wrapper (:mod:`.fastplay`) and the OutsBot comparison (:mod:`.outs_bot`)."""

from rummykit._optional import require_analysis

require_analysis()
