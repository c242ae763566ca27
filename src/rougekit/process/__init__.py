"""ROUGE over all pairs of texts: ``cdist``, ``extract``, ``extract_one`` and near-duplicate ``dedup``.

In the shape of rapidfuzz's ``process`` module, with rouge-score's ``rougeL`` (bit for bit) or any
rougekit measure. Texts are tokenized once; rougeL runs on compiled bit-parallel LCS kernels with
exact pruning (length and bag-of-words bounds, an index of rare tokens), so the results are those
of the brute force. See ``docs/process.md``.

>>> from rougekit import process
>>> process.dedup(["Give three tips for staying healthy.", "Give 3 tips for staying healthy."]).kept
[0]

Block-level pieces for distributed runs (``rougekit.dask``): :class:`Encoder` / :class:`Encoded`
(token ids in CSR form), :func:`cdist_block`, :class:`Greedy` (the rule fed block by block) and
:func:`greedy_from_pairs` (the rule from the pairs above the threshold, found in parallel).
"""

from .blocks import Greedy, cdist_block, greedy_from_pairs, lcs_pairs
from .core import DedupResult, Dropped, Match, cdist, dedup, extract, extract_one
from .encode import Encoded, Encoder, rank_by_frequency

__all__ = [
    "cdist",
    "extract",
    "extract_one",
    "dedup",
    "DedupResult",
    "Dropped",
    "Match",
    "Encoder",
    "Encoded",
    "cdist_block",
    "lcs_pairs",
    "Greedy",
    "greedy_from_pairs",
    "rank_by_frequency",
]
