"""Readable twin of ``allpairs.pxi`` (compiled into ``_process``): every pair above the threshold.

:class:`_AllPairs` indexes the prefixes of every text, as ``_process_pure._Greedy`` indexes its
kept texts, and returns the pairs (old < new) of a block of new texts whose rouge-score F is above
the threshold; :func:`greedy_pairs` applies the rule to them in input order. The same results as
the compiled twin.

>>> import numpy as np
>>> ids, off = np.array([0, 1, 2, 0, 1, 3], np.int32), np.array([0, 3, 6], np.int64)
>>> ap = _AllPairs(0.5, np.arange(4, dtype=np.int32), ids, off, np.ones(2, np.uint8))
>>> new, old, f = ap.pairs(0, 2)
>>> new.tolist(), old.tolist(), round(float(f[0]), 4)
([1], [0], 0.6667)
"""

from __future__ import annotations

import numpy as np

from ._process_pure import STAT_F, _lcs, _match_bits, _overlap, prefix_lengths_py, score_py, sig_bound_py, signature_py


class _AllPairs:
    """Every pair (old < new) with rouge-score's rougeL F above ``threshold`` (see the compiled twin)."""

    def __init__(self, threshold: float, rank, ids, off, indexed):
        self.t = float(threshold)
        self.rank = [int(r) for r in rank]
        self.vocab = len(self.rank)
        if len(off) < 1 or len(indexed) != len(off) - 1:
            raise ValueError("off needs len(texts) + 1 entries and indexed one per text")
        if int(off[0]) != 0 or int(off[-1]) > len(ids):
            raise ValueError("off must start at 0 and end within ids")
        if np.any(np.diff(np.asarray(off)) < 0):
            raise ValueError("off must not decrease")
        self.texts = [[int(a) for a in ids[int(off[i]) : int(off[i + 1])]] for i in range(len(off) - 1)]
        for x in self.texts:
            for a in x:
                if a < 0 or a >= self.vocab:
                    raise ValueError(f"token id {a} outside the rank table (0..{self.vocab - 1})")
        self.srt = [sorted(x) for x in self.texts]
        self.sig = [signature_py(x) for x in self.texts]
        self.plen: dict[int, tuple[int, int, int, int]] = {}
        # token -> [(text, position, length, signature)] of the short prefixes / of the long ones' rest
        self.post: dict[int, list[tuple[int, int, int, int]]] = {}
        self.post_l: dict[int, list[tuple[int, int, int, int]]] = {}
        for i, x in enumerate(self.texts):
            pre = self._prefixes(len(x))
            if not indexed[i]:
                continue
            xr = self._by_rank(i)
            for k in range(pre[1]):
                if k and xr[k - 1] == xr[k]:
                    continue  # a repeat: listed at its first position
                (self.post if k < pre[0] else self.post_l).setdefault(xr[k], []).append((i, k, len(x), self.sig[i]))
        self.pairs_met = self.pairs_cand = self.pairs_lcs = 0

    @property
    def size(self) -> int:
        return len(self.texts)

    def _prefixes(self, n: int) -> tuple[int, int, int, int]:
        if n not in self.plen:
            self.plen[n] = prefix_lengths_py(n, self.t)
        return self.plen[n]

    def _by_rank(self, i: int) -> list[int]:
        return sorted(self.srt[i], key=lambda a: self.rank[a])  # stable: (rank, id)

    def _probe(self, j: int, out: list) -> None:
        t, x, n = self.t, self.texts[j], len(self.texts[j])
        pre = self._prefixes(n)
        xr, sig = self._by_rank(j), self.sig[j]
        met: set[int] = set()
        cands: list[int] = []
        for k in range(max(pre[2], pre[3])):
            if k and xr[k - 1] == xr[k]:
                continue
            lists = (self.post, self.post_l) if k < pre[3] else (self.post,)
            for post in lists:
                for s, pos, ly, ysig in post.get(xr[k], ()):
                    if s >= j:
                        break  # entries are in input order
                    self.pairs_met += 1
                    ub = min(n - k, ly - pos)  # positional bound, then the signatures'
                    if score_py(STAT_F, ub, ly, n) <= t:
                        continue
                    ub = min(ub, sig_bound_py(sig, n, ysig, ly))
                    if score_py(STAT_F, ub, ly, n) <= t or s in met:
                        continue
                    met.add(s)
                    cands.append(s)
        self.pairs_cand += len(cands)
        pm = None
        for s in cands:
            ly = len(self.texts[s])
            if score_py(STAT_F, min(n, ly), ly, n) <= t:
                continue
            if score_py(STAT_F, _overlap(self.srt[j], self.srt[s]), ly, n) <= t:
                continue
            if pm is None:
                pm = _match_bits(x)
            self.pairs_lcs += 1
            v = score_py(STAT_F, _lcs(pm, n, self.texts[s]), ly, n)
            if v > t:
                out.append((j, s, v))

    def pairs(self, j0: int, j1: int):
        """(new, old, F) arrays of the pairs with new in ``j0:j1`` (see the compiled twin)."""
        if not 0 <= j0 <= j1 <= len(self.texts):
            raise ValueError(f"block {j0}:{j1} outside the {len(self.texts)} texts")
        out: list = []
        for j in range(j0, j1):
            self._probe(j, out)
        new = np.array([p[0] for p in out], dtype=np.int64)
        old = np.array([p[1] for p in out], dtype=np.int64)
        return new, old, np.array([p[2] for p in out], dtype=np.float64)


def greedy_pairs(new, old, score, keep, match, best) -> None:
    """Phase 2 over pairs sorted by (new, old): see the compiled twin."""
    k, m = 0, len(new)
    while k < m:
        i, top, arg = int(new[k]), -1.0, -1
        while k < m and new[k] == i:
            if keep[old[k]] and score[k] > top:  # the first of the best kept texts
                top, arg = float(score[k]), int(old[k])
            k += 1
        if arg >= 0:
            keep[i], match[i], best[i] = 0, arg, top
