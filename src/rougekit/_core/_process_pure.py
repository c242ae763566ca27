"""Readable twin of ``_process.pyx``: the same functions, the same results, in plain Python.

The LCS is the same bit-parallel recurrence (Allison-Dix / Hyyro) on Python integers, which are
as wide as the query needs; the greedy rule uses the same two-part prefix index and bounds.

>>> import numpy as np
>>> out = np.zeros(1, np.int32)
>>> ids, off = np.array([0, 1, 2, 2, 1], np.int32), np.array([0, 3, 5], np.int64)
>>> lcs_pairs(ids, off, ids, off, np.array([0], np.int64), np.array([1], np.int64), out, 3)
>>> int(out[0])
1
"""

from __future__ import annotations

import functools

STAT_F, STAT_PRECISION, STAT_RECALL = 0, 1, 2


def score_py(stat: int, h: int, lc: int, lr: int) -> float:
    """rouge-score's rougeL number for LCS ``h`` of a candidate of ``lc`` and a reference of ``lr`` tokens."""
    if lc == 0 or lr == 0:
        return 0.0
    p = float(h) / float(lc)
    r = float(h) / float(lr)
    if stat == STAT_PRECISION:
        return p
    if stat == STAT_RECALL:
        return r
    if p + r > 0:
        return 2.0 * p * r / (p + r)
    return 0.0


def _match_bits(x) -> dict:
    """Token -> the bits of its positions in x."""
    pm: dict = {}
    for b, tok in enumerate(x):
        pm[tok] = pm.get(tok, 0) | (1 << b)
    return pm


def _lcs(pm: dict, n: int, y) -> int:
    """LCS length of the query (``pm``, ``n`` tokens) and y: the zero bits of the last row."""
    if n == 0:
        return 0
    mask = (1 << n) - 1
    v = mask
    for tok in y:
        m = pm.get(tok)
        if m:
            v = ((v + (v & m)) | (v & ~m)) & mask
    return n - bin(v).count("1")


def _text(ids, off, i: int) -> list[int]:
    return [int(t) for t in ids[int(off[i]) : int(off[i + 1])]]


def lcs_pairs(a_ids, a_off, b_ids, b_off, ia, ib, out, vocab: int) -> None:
    """``out[k]`` = LCS length of text ``ia[k]`` of a and text ``ib[k]`` of b."""
    for k in range(len(ia)):
        x = _text(a_ids, a_off, int(ia[k]))
        out[k] = _lcs(_match_bits(x), len(x), _text(b_ids, b_off, int(ib[k])))


def cdist_rows(q_ids, q_off, c_ids, c_off, r0: int, r1: int, stat: int, cutoff: float, out, hits, vocab: int) -> None:
    """Rows ``r0:r1`` of the query x choice matrix (see the compiled twin)."""
    choices = [_text(c_ids, c_off, j) for j in range(len(c_off) - 1)]
    for i in range(r0, r1):
        x = _text(q_ids, q_off, i)
        pm, lq = _match_bits(x), len(x)
        for j, y in enumerate(choices):
            lc = len(y)
            if stat < 0:
                hits[i - r0, j] = _lcs(pm, lq, y)
                continue
            if score_py(stat, min(lq, lc), lq, lc) < cutoff:
                out[i, j] = 0
                continue
            s = score_py(stat, _lcs(pm, lq, y), lq, lc)
            out[i, j] = s if s >= cutoff else 0.0


def need_min(n: int, t: float, lo: int, hi: int) -> int:
    """The least LCS a text of ``n`` tokens needs to score above ``t`` against a text of ``lo..hi``
    tokens (n + 1: none)."""
    best = n + 1
    for lp in range(max(1, lo), hi + 1):
        top = min(n, lp, best - 1)
        start = max(1, int(t * float(n + lp) * 0.5 * (1.0 - 1e-9)) - 1)
        for h in range(start, top + 1):
            if score_py(STAT_F, h, n, lp) > t:
                best = h
                break
    return best


def min_overlap(n: int, t: float) -> int:
    """The least LCS a text of ``n`` tokens needs to score above ``t`` against any text (n + 1: none)."""
    return need_min(n, t, 1, 2 * n + 2)


@functools.lru_cache(maxsize=1 << 16)
def prefix_lengths_py(n: int, t: float) -> tuple[int, int, int, int]:
    """(short, long, probe_short, probe_long) prefix lengths of a text of ``n`` tokens (see the compiled twin)."""
    needs = (need_min(n, t, n, 2 * n + 2), min_overlap(n, t), need_min(n, t, 1, n), need_min(n, t, n + 1, 2 * n + 2))
    return tuple(max(0, n - o + 1) if n else 0 for o in needs)  # type: ignore[return-value]


class _Greedy:
    """The Self-Instruct rule, incrementally (see the compiled twin for the method)."""

    def __init__(self, threshold: float, rank):
        self.t = float(threshold)
        self.rank = [int(r) for r in rank]
        self.vocab = len(self.rank)
        # token -> (kept slot, position, length, signature) of the short prefixes: sorted by (length,
        # slot, position) up to sorted[token], the newest after that (see _settle)
        self.post: dict[int, list[tuple[int, int, int, int]]] = {}
        self.post_l: dict[int, list[tuple[int, int, int, int]]] = {}  # the same of the long prefixes' rest
        self.sorted: tuple[dict[int, int], dict[int, int]] = ({}, {})  # of post, post_l
        self.tok: list[list[int]] = []  # kept slot -> tokens in text order
        self.srt: list[list[int]] = []  # kept slot -> tokens sorted by id
        self.gid: list[int] = []
        self.seen = 0
        self.ranges: dict[int, tuple[list[int], list[int]]] = {}  # n -> length_ranges(n, t)
        self.pairs_lcs = 0
        self.pairs_met = 0
        self.pairs_cand = 0

    @property
    def kept_count(self) -> int:
        return len(self.tok)

    @property
    def seen_count(self) -> int:
        return self.seen

    def _probe(self, x: list[int]):
        """(best slot or -1, its F, xs, xr, prefix lengths) of x over the index as it is."""
        t = self.t
        for tok in x:
            if tok < 0 or tok >= self.vocab:
                raise ValueError(f"token id {tok} outside the rank table (0..{self.vocab - 1})")
        xs = sorted(x)
        xr = sorted(xs, key=lambda a: self.rank[a])  # stable: (rank, id)
        pre = prefix_lengths_py(len(x), self.t)
        met: set[int] = set()
        cands: list[int] = []
        n = len(x)
        sig = signature_py(x)
        probe = max(pre[2], pre[3])
        if probe and n not in self.ranges:
            self.ranges[n] = length_ranges(n, t)
        lo, hi = self.ranges[n] if probe else ([], [])
        for k in range(probe):
            if k and xr[k - 1] == xr[k]:
                continue  # a repeat: listed at its first position
            if lo[n - k] > hi[n - k]:
                continue  # no partner length passes with n - k tokens left
            lists = (0, 1) if k < pre[3] else (0,)  # the short one with either prefix
            for part in lists:
                entries = (self.post, self.post_l)[part].get(xr[k], [])
                ns = self.sorted[part].get(xr[k], 0)
                # the sorted entries whose length can pass, then the unsorted newest
                e0, e1 = _first_len(entries, ns, lo[n - k]), _first_len(entries, ns, hi[n - k] + 1)
                walked = entries[e0:e1] + entries[ns:]
                self.pairs_met += len(walked)
                for s, j, ly, ysig in walked:
                    if s in met or not _may_pass(n, k, ly, j, sig, ysig, t):
                        continue
                    met.add(s)
                    cands.append(s)
        self.pairs_cand += len(cands)
        best, best_slot, pm = -1.0, -1, None

        def better(v: float, s: int) -> bool:
            return v > t and (v > best or (v == best and s < best_slot))

        for s in cands:
            ly = len(self.tok[s])
            if not better(score_py(STAT_F, min(n, ly), ly, n), s):
                continue
            if n > 64 and not better(score_py(STAT_F, _overlap(xs, self.srt[s]), ly, n), s):
                continue  # (up to 64 tokens, one word: the compiled LCS costs less than the bag overlap)
            if pm is None:
                pm = _match_bits(x)
            self.pairs_lcs += 1
            v = score_py(STAT_F, _lcs(pm, n, self.tok[s]), ly, n)
            if better(v, s):
                best, best_slot = v, s
        return best_slot, best, xs, xr, pre

    def _keep(self, x: list[int], xs: list[int], xr: list[int], pre, gid: int) -> None:
        n = len(x)
        slot = len(self.tok)
        self.tok.append(x)
        self.srt.append(xs)
        self.gid.append(gid)
        sig = signature_py(x)
        for k in range(pre[1]):
            if k and xr[k - 1] == xr[k]:
                continue
            part = 0 if k < pre[0] else 1
            entries = (self.post, self.post_l)[part].setdefault(xr[k], [])
            entries.append((slot, k, n, sig))
            ns = self.sorted[part].get(xr[k], 0)
            if len(entries) - ns >= TAIL_MIN and len(entries) - ns >= ns >> TAIL_SHIFT:
                entries.sort(key=lambda e: (e[2], e[0], e[1]))  # by length, slot, position
                self.sorted[part][xr[k]] = len(entries)

    def _one(self, x: list[int], gid: int):
        best_slot, best, xs, xr, pre = self._probe(x)
        if best_slot >= 0:
            return 0, self.gid[best_slot], best
        self._keep(x, xs, xr, pre, gid)
        return 1, -1, 0.0

    def feed(self, ids, off, keep, match, score) -> None:
        """Decide the next texts in input order into ``keep``/``match``/``score`` (see the compiled twin)."""
        n = len(off) - 1
        for i in range(n):
            keep[i], match[i], score[i] = self._one(_text(ids, off, i), self.seen + i)
        self.seen += n

    def set_workers(self, k: int) -> None:
        """Scratches for ``probe``'s workers (none needed here)."""

    def prepare(self, off) -> None:
        """Before ``probe`` (nothing to precompute here)."""

    def probe(self, ids, off, start: int, step: int, worker: int, best_slot, best_f) -> None:
        """Texts start, start + step, ... of the block: best kept slot (-1: none) and F against the
        texts kept before the block (see the compiled twin)."""
        for i in range(start, len(off) - 1, step):
            best_slot[i], best_f[i] = self._probe(_text(ids, off, i))[:2]

    def resolve(self, ids, off, best_slot, best_f, keep, match, score) -> None:
        """Decide the probed block in input order, adding the texts kept earlier in it (see the compiled twin)."""
        t, k0 = self.t, len(self.tok)
        for i in range(len(off) - 1):
            x = _text(ids, off, i)
            slot, best = int(best_slot[i]), float(best_f[i])
            xs, n, pm = sorted(x), len(x), None
            for s in range(k0, len(self.tok)):
                ly = len(self.tok[s])
                for ub in (min(n, ly), _overlap(xs, self.srt[s]) if n > 64 else n, None):
                    if ub is None:
                        pm = pm if pm is not None else _match_bits(x)
                        self.pairs_lcs += 1
                        v = score_py(STAT_F, _lcs(pm, n, self.tok[s]), ly, n)
                        if v > t and (v > best or (v == best and s < slot)):
                            best, slot = v, s
                        break
                    v = score_py(STAT_F, ub, ly, n)
                    if not (v > t and (v > best or (v == best and s < slot))):
                        break
            if slot >= 0:
                keep[i], match[i], score[i] = 0, self.gid[slot], best
            else:
                keep[i], match[i], score[i] = 1, -1, 0.0
                _, _, xs, xr, pre = self._probe_sorted(x)
                self._keep(x, xs, xr, pre, self.seen + i)
        self.seen += len(off) - 1

    def _probe_sorted(self, x: list[int]):
        xs = sorted(x)
        return None, None, xs, sorted(xs, key=lambda a: self.rank[a]), prefix_lengths_py(len(x), self.t)


TAIL_MIN, TAIL_SHIFT = 16, 3  # a token's newest entries are sorted in once 16 and 1/8 of its sorted ones
WIDE_T = 0.67  # below it a partner longer than 2n + 2 tokens may pass: no upper length bound


def length_ranges(n: int, t: float) -> tuple[list[int], list[int]]:
    """(lo, hi): for u = 0..n tokens left on the probe's side, the least and greatest partner length
    (of 1..2n+2) whose least LCS is at most u (lo > hi: none); hi unbounded below WIDE_T."""
    cap = 2 * n + 3
    lo, hi = [cap] * (n + 1), [0] * (n + 1)
    for ly in range(1, cap):
        h = need_min(n, t, ly, ly)
        if h <= n:
            lo[h], hi[h] = min(lo[h], ly), max(hi[h], ly)
    for u in range(1, n + 1):
        lo[u], hi[u] = min(lo[u], lo[u - 1]), max(hi[u], hi[u - 1])
    if t < WIDE_T:
        hi = [2**31 - 1] * (n + 1)
    return lo, hi


def _first_len(entries: list, ns: int, ly: int) -> int:
    """The first of the sorted ``entries[:ns]`` whose length is >= ly (ns: none)."""
    a, b = 0, ns
    while a < b:
        mid = (a + b) // 2
        if entries[mid][2] < ly:
            a = mid + 1
        else:
            b = mid
    return a


def signature_py(x) -> int:
    """The 128-bit token signature of ``x`` as one int (bit = the top 7 bits of id * 0x9E3779B97F4A7C15
    mod 2**64); the compiled twin returns it as two 64-bit words, low first."""
    out = 0
    for a in x:
        out |= 1 << (((int(a) * 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF) >> 57)
    return out


def _popcount(v: int) -> int:
    return bin(v).count("1")


def sig_bound_py(xsig: int, n: int, ysig: int, ly: int) -> int:
    """An upper bound on the multiset overlap of texts of n and ly tokens from their signatures: a
    bit set on one side only stands for at least one token of that side missing on the other."""
    return min(ly - _popcount(ysig & ~xsig), n - _popcount(xsig & ~ysig))


def _may_pass(n: int, k: int, ly: int, j: int, xsig: int, ysig: int, t: float) -> bool:
    """Whether a text of ``ly`` tokens, met at its position ``j`` by the probe's (``n`` tokens) ``k``-th
    prefix token, can still have F above ``t``: the positional bound (nothing shared before k here, j
    there), then the signatures'."""
    ub = min(n - k, ly - j)
    if score_py(STAT_F, ub, ly, n) <= t:
        return False
    return score_py(STAT_F, min(ub, sig_bound_py(xsig, n, ysig, ly)), ly, n) > t


def _overlap(xs: list[int], ys: list[int]) -> int:
    """Multiset overlap of two id-sorted token lists."""
    i = j = c = 0
    while i < len(xs) and j < len(ys):
        if xs[i] == ys[j]:
            c, i, j = c + 1, i + 1, j + 1
        elif xs[i] < ys[j]:
            i += 1
        else:
            j += 1
    return c


# ------------------------------------------------------------------ all pairs above the threshold (allpairs.pxi's twin)
# Every pair (old < new) with F above the threshold, from the prefixes of every text; greedy_pairs
# applies the rule to them in input order.

import numpy as np  # noqa: E402


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
        # token -> [(text, position, length, signature)] of the short prefixes / of the long ones' rest
        self.post: dict[int, list[tuple[int, int, int, int]]] = {}
        self.post_l: dict[int, list[tuple[int, int, int, int]]] = {}
        for i, x in enumerate(self.texts):
            pre = prefix_lengths_py(len(x), self.t)
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

    def _by_rank(self, i: int) -> list[int]:
        return sorted(self.srt[i], key=lambda a: self.rank[a])  # stable: (rank, id)

    def _probe(self, j: int, out: list, skip) -> None:
        t, x, n = self.t, self.texts[j], len(self.texts[j])
        pre = prefix_lengths_py(n, self.t)
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
                    if s < len(skip) and skip[s]:
                        continue  # already dropped
                    self.pairs_met += 1
                    if s in met or not _may_pass(n, k, ly, pos, sig, ysig, t):
                        continue
                    met.add(s)
                    cands.append(s)
        self.pairs_cand += len(cands)
        pm = None
        for s in sorted(cands):  # a new text's pairs by old text
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

    def forget(self, skip) -> None:
        """Remove the entries of the texts skipped (see the compiled twin)."""
        if len(skip) > len(self.texts):
            raise ValueError(f"skip has {len(skip)} entries for {len(self.texts)} texts")
        for post in (self.post, self.post_l):
            for a, entries in post.items():
                post[a] = [e for e in entries if not (e[0] < len(skip) and skip[e[0]])]

    def pairs(self, j0: int, j1: int, skip=None):
        """(new, old, F) arrays of the pairs with new in ``j0:j1`` (see the compiled twin)."""
        if not 0 <= j0 <= j1 <= len(self.texts):
            raise ValueError(f"block {j0}:{j1} outside the {len(self.texts)} texts")
        out: list = []
        skip = () if skip is None else skip
        for j in range(j0, j1):
            self._probe(j, out, skip)
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
