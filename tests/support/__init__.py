"""What the tests share: helpers, oracles, strategies, fixtures and the tiers.

Test modules import from here (``from tests.support.book import built_book``) and never
from one another, so that a test module can be read, moved or deleted alone.
"""
