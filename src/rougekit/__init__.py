"""rougekit: ROUGE exactly as ROUGE-1.5.5.pl computes it, with no Perl.

>>> import rougekit
>>> rougekit.score(["the cat sat"], ["the cat sat down"], measures=["ROUGE-1"]).per_pair()[0]["ROUGE-1"]["recall"]
0.75
"""

__version__ = "0.1.0"

from rougekit.api import RougeResult, Scorer, score  # noqa: E402
from rougekit.measures import Measure  # noqa: E402
from rougekit.signature import Signature  # noqa: E402

__all__ = ["score", "Scorer", "RougeResult", "Measure", "Signature", "__version__"]
