# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled batch scoring: many (candidate, references) pairs per call, ROUGE-1.5.5 exact.

Two phases per chunk of pairs (an engine belongs to one thread at a time; batch.py gives
every job its own engine and workspace):

* ``_Engine.prepare``: (GIL) the UTF-8 bytes of the candidates and of the references not
  in the cache are collected; (no GIL) they are tokenized in C -- the tokens are the maximal
  runs of ``[A-Za-z0-9]``, found through a bitmap built 8 bytes at a time, lower-cased while
  they are packed and hashed (what ``rouge155.clean`` + ``tokenize`` keep; the ``-`` tokens are
  dropped anyway), with the script's ``-l``/``-b`` limits applied to the raw sentences.  Token
  bytes are interned in a C hash table (slots prefetched); a type new to the engine goes,
  once, through the stopword list and the compiled stemmer (``stem155.pxi``: the script's
  ``-m``; ``stemnltk.pxi``: rouge-score's NLTK Porter) to its final id (-1: dropped), still
  without the GIL.  (GIL) new references enter the bounded LRU cache keyed by their string.
  So the engines of several jobs tokenize in parallel: only the gathering and the cache hold
  the GIL.
* then, in the same GIL-free section, ``_score_pair``: every measure of a pair in one C call.  Per pair, the
  candidate's token types get dense local ids; references are mapped onto them (-1 for types
  the candidate lacks, which can never match).  ROUGE-N/S/SU insert the candidate's units
  once and probe every reference (clipped counts are symmetric): unigrams in a count array,
  bigrams and skip units in a directly indexed U x U table while the candidate has at most
  256 types, else (and for n >= 3) in an open-addressing hash table; ROUGE-L uses bit-parallel
  LCS rows with the script's trace-back (branch-free, popcnt when the CPU has it), built
  once per candidate sentence for all reference sentences; ROUGE-W runs the script's WLCS
  DP.  R/P are rounded like ``%7.5f`` (exactly: round-half-even on the binary value, as
  printf and Python do) and F is computed from the rounded values.

Files (included in this order; each says what it does and the ROUGE-1.5.5 behaviour it mirrors):
common.pxi (n-gram keys, bit-parallel LCS row and prefix, ROUGE-W DP), trace1.pxi (the one-word union
LCS trace-back in C), rounding.pxi (R/P like %7.5f, F),
stem155.pxi / stemnltk.pxi (stemmers), buffers.pxi, strmap.pxi, summaries.pxi (DocC), ids.pxi
(summaries given as token ids), tokenize.pxi (tokenizer, vocabulary table), this file (the
_Engine: interning, stopwords/stemming glue, prepare), kinds.pxi (the kind table, kinds.py's mirror), limits.pxi (sentences, -l/-b),
work.pxi (per-thread tables), grams.pxi (ROUGE-N/S/SU tables and counts), lcs.pxi (ROUGE-L/LSEQ/W counts),
score.pxi (one pair: local ids, the dispatch on the kind table, multi-reference rules, R/P/F), pair.pxi
(the per-pair kernels of ``rougekit._core``: one candidate against one reference through _score_pair),
textids.pxi (tokens to ids, a text cut at marked characters, for the front ends), vocab.pxi (the
vocabulary table's growth and insertions, a tokenizer benchmark hook), marks.pxi (the
highlights' matched positions), idjob.pxi (a token-id call read and scored by every job at once),
arrowtext.pxi (summaries read from Arrow string buffers and offsets).
"""

cimport cython
from libc.stdlib cimport malloc, calloc, realloc, free, strtod
from libc.string cimport memcpy, memset, memchr, memcmp
from libc.math cimport pow, floor, fmod
from libc.stdio cimport snprintf
from libc.stdint cimport uint64_t, uint32_t, int32_t, int64_t, uint8_t
from cpython.object cimport PyObject
from cpython.dict cimport PyDict_GetItem

include "stem155.pxi"
include "stemnltk.pxi"
include "common.pxi"

cdef extern from "Python.h":
    const char* PyUnicode_AsUTF8AndSize(object u, Py_ssize_t* size) except NULL

include "trace1.pxi"

from rougekit.errors import InputError
from rougekit._core._pure import count_error as _pure_count_error
from rougekit._core.kinds import JOINED as _JOINED

include "kinds.pxi"

cdef enum:
    STEM_NONE = 0
    STEM_ROUGE155 = 1   # the script's -m: WordNet exceptions, then its Porter (stem155.pxi)
    STEM_NLTK = 2       # NLTK's default Porter, as rouge-score uses it (stemnltk.pxi)

cdef uint8_t _WS[256]
cdef double _NO_OUTPUT = 0.0   # the output address of a chunk with nothing to write

# the largest ROUGE-L/W trace-back table (longest reference sentence x longest candidate sentence;
# one bit per cell, so 40,000 x 40,000 tokens take 200 MB): rougekit.limits.MAX_TRACE_CELLS
cdef double MAX_TRACE_CELLS = 1.6e9
# A new vocabulary's tables start at 65,536 slots (the types table: 1 MiB; final ids: 1.5 MiB; each
# one huge page): a corpus of news summaries has tens of thousands of types, and tables grown from
# small through every size rehashed each type several times, each time a cache miss (about 5 ms of
# a 95 ms first call on 34,470 CNN/DM-sized pairs).  They hold 32,768 types before they grow.
cdef enum:
    _VOCAB_SLOTS = 1 << 16


cdef void _init_tables():
    cdef int c
    for c in range(256):
        # Python's bytes regex \s: [ \t\n\r\f\v]
        _WS[c] = 1 if (c == 32 or c == 9 or c == 10 or c == 13 or c == 12 or c == 11) else 0


_init_tables()
_HW_POPCOUNT = bool(rkb_init_dispatch())


include "rounding.pxi"


include "buffers.pxi"
include "strmap.pxi"
include "summaries.pxi"
include "ids.pxi"
include "tokenize.pxi"


@cython.final
cdef inline Py_ssize_t _CHUNK_REFS(Py_ssize_t n) noexcept:
    """The reference slots a chunk of ``n`` pairs starts with (``_Chunk.put_ref`` doubles them)."""
    return 2 * n + 16


cdef _Chunk _new_chunk(Py_ssize_t start, Py_ssize_t n):
    """The chunk of pairs ``start:start + n`` that prepare and prepare_ids fill: its candidate
    and offset arrays and ``_CHUNK_REFS(n)`` reference slots allocated (freed with it), no
    reference yet (``roff[0]`` = 0); MemoryError when one cannot be allocated."""
    cdef _Chunk ch = _Chunk.__new__(_Chunk)
    ch.n = n
    ch.start = start
    ch.peers = <const DocC**>malloc((n + 1) * sizeof(DocC*))
    ch.roff = <Py_ssize_t*>malloc((n + 1) * sizeof(Py_ssize_t))
    ch.refs = <const DocC**>malloc(_CHUNK_REFS(n) * sizeof(DocC*))
    if ch.peers == NULL or ch.roff == NULL or ch.refs == NULL:
        raise MemoryError()
    ch.roff[0] = 0
    return ch


cdef class _Engine:
    cdef VEntry* vt
    cdef Py_ssize_t vcap
    cdef int vshift            # 64 - log2(vcap): a type's slot is its hash's top bits (_vhash)
    cdef Py_ssize_t vcount
    cdef uint8_t* arena
    cdef Py_ssize_t arena_n
    cdef Py_ssize_t arena_cap
    cdef StrMap finals         # final token (stemmed) -> final id
    cdef StrMap stops          # the stopword list (values unused)
    cdef bint use_stops
    cdef int stem_kind         # STEM_NONE / STEM_ROUGE155 / STEM_NLTK
    cdef s155_Exc exc          # the WordNet exception table (STEM_ROUGE155)
    cdef bint drop_empty       # rouge-score drops a token whose stem is empty
    cdef bint unicode_lower    # str.lower() a non-ASCII text before the byte-level tokenizer
    cdef uint8_t* sbuf         # stemming buffer
    cdef Py_ssize_t sbuf_cap
    cdef int word_limit
    cdef int byte_limit
    cdef object cache
    cdef Py_ssize_t cache_size
    cdef MeasureC* ms
    cdef int nm
    cdef bint mode_b
    cdef bint mode_max         # multi_ref="max": the reference with the best rounded F
    cdef double alpha
    cdef IntBuf jt
    cdef IntBuf st
    cdef IntBuf so
    cdef const uint8_t* text_end   # end of the text being tokenized (for the 8-byte loads)
    cdef Buf fold              # a new type's lower-cased bytes
    cdef Buf spans
    cdef Buf bits              # uint64: the [A-Za-z0-9] bitmap of the segment being tokenized
    cdef object move_to_end
    cdef Py_ssize_t cache_lookups  # references looked up in the cache since the last check
    cdef Py_ssize_t cache_hits     # ... and found there
    cdef int cache_skip            # chunks left that bypass the cache (it was not finding anything)
    cdef object to_text        # a summary that is not a str -> str (default: its sentences joined by newlines)
    cdef IdMap idm             # token ids -> dense ids (summaries given as ids, ids.pxi)
    cdef Slab slab             # token memory of the summaries of the chunk being scored (buffers.pxi)
    cdef public Py_ssize_t empty_summaries  # summaries read (or found in the cache) with no token
    # summaries read (or found in the cache) whose text holds a character outside ASCII, or a '<' (a
    # sentence marker may follow): when none does, the front ends skip their own passes over the texts
    cdef public Py_ssize_t non_ascii_summaries, marked_summaries

    def __cinit__(self, list measures, stopwords, int stem_kind, exceptions, int word_limit, int byte_limit,
                  bint mode_b, double alpha, Py_ssize_t cache_size, bint unicode_lower=False,
                  bint drop_empty=False, to_text=None, bint mode_max=False):
        """``measures``: (kind code, n/skip, weight) tuples (``KernelSpec.batch``: the kinds
        ``_score_pair`` counts, N, L, W, S, SU, LSEQ, ND and LD of kinds.pxi; any other code is refused),
        or (kind code, n/skip, weight, fold): fold 1 adds the row's counts to the next row's before the
        multi-reference rule (score.pxi; a split ROUGE-SU), both rows then get the folded numbers.

        ``stopwords``: an iterable of ASCII words, or None. ``stem_kind``: 0 none, 1 ROUGE-1.5.5's
        ``-m`` (``exceptions``: the WordNet exception dict), 2 NLTK's Porter (rouge-score).
        """
        from collections import OrderedDict
        cdef int i
        cdef bytes b
        self.nm = len(measures)
        self.ms = <MeasureC*>calloc(self.nm + 1, sizeof(MeasureC))
        self.vcap = _VOCAB_SLOTS
        self.vshift = _vshift(_VOCAB_SLOTS)
        self.vt = <VEntry*>rkb_big_alloc(self.vcap * _VSLOT)
        self.arena_cap = 1 << 16
        self.arena = <uint8_t*>malloc(self.arena_cap)
        self.sbuf_cap = 256
        self.sbuf = <uint8_t*>malloc(self.sbuf_cap)
        if self.ms == NULL or self.vt == NULL or self.arena == NULL or self.sbuf == NULL:
            raise MemoryError()
        for row in measures:   # every kind first: a folded row reads the next one's
            if row[0] not in KINDS:
                raise ValueError(f"kind code {row[0]!r} is not one the batch scorer counts (kinds.BATCH_KINDS)")
        for i in range(self.nm):
            kind, n, w, *fold = measures[i]
            if fold and fold[0]:
                if i + 1 == self.nm or KIND_ROWS[kind].flags & ROW_LAST or KIND_ROWS[measures[i + 1][0]].flags & ROW_LAST:
                    raise ValueError("a folded row needs a next row, both counted in the first pass")
                self.ms[i].fold = 1
            self.ms[i].kind = kind
            self.ms[i].n = n
            self.ms[i].w = w
            self.ms[i].inv_w = (1.0 / w) if w != 0 else 0.0
        if stopwords is not None:
            self.use_stops = True
            for word in stopwords:
                b = word.encode("ascii")
                if _smap_get(&self.stops, b, len(b), _str_hash(b, len(b)), -2) == -2:
                    if _smap_put(&self.stops, b, len(b), _str_hash(b, len(b)), 0) < 0:
                        raise MemoryError()
        if stem_kind not in (STEM_NONE, STEM_ROUGE155, STEM_NLTK):
            raise ValueError(f"unknown stemmer code {stem_kind}")
        self.stem_kind = stem_kind
        if stem_kind == STEM_ROUGE155:
            s155_exc_init(&self.exc, exceptions)
        self.drop_empty = drop_empty
        self.unicode_lower = unicode_lower
        self.to_text = to_text if to_text is not None else "\n".join
        if _smap_reserve(&self.finals, _VOCAB_SLOTS) < 0:
            raise MemoryError()
        self.word_limit = word_limit
        self.byte_limit = byte_limit
        self.mode_b = mode_b and not mode_max
        self.mode_max = mode_max
        self.alpha = alpha
        self.cache = OrderedDict()
        self.move_to_end = self.cache.move_to_end
        self.cache_size = cache_size

    def __dealloc__(self):
        rkb_big_free(self.vt, self.vcap * _VSLOT)
        free(self.arena)
        free(self.ms)
        free(self.sbuf)
        free(self.jt.data)
        free(self.st.data)
        free(self.so.data)
        free(self.fold.p)
        free(self.spans.p)
        free(self.bits.p)
        _smap_free(&self.finals)
        _smap_free(&self.stops)
        s155_exc_free(&self.exc)
        _idmap_free(&self.idm)
        _slab_free(&self.slab)

    @property
    def vocabulary_size(self):
        return self.vcount

    @property
    def id_count(self):
        """Distinct token ids seen (summaries given as ids)."""
        return self.idm.count

    @property
    def cached_references(self):
        return len(self.cache)

    def clear_cache(self):
        """Forget the cached references and the cache's hit statistics."""
        self.cache.clear()
        self.cache_lookups = self.cache_hits = self.cache_skip = 0

    def reset_vocabulary(self):
        """Forget every interned token, token id and cached reference (bounds the memory of an engine
        kept for an endless stream; nothing scored keeps ids across chunks)."""
        cdef VEntry* vt = <VEntry*>rkb_big_alloc(_VOCAB_SLOTS * _VSLOT)
        cdef uint8_t* arena = <uint8_t*>malloc(1 << 16)
        if vt == NULL or arena == NULL:
            rkb_big_free(vt, _VOCAB_SLOTS * _VSLOT)
            free(arena)
            raise MemoryError()
        rkb_big_free(self.vt, self.vcap * _VSLOT)
        free(self.arena)
        self.vt, self.vcap, self.vcount = vt, _VOCAB_SLOTS, 0
        self.vshift = _vshift(_VOCAB_SLOTS)
        self.arena, self.arena_cap, self.arena_n = arena, 1 << 16, 0
        _smap_free(&self.finals)
        if _smap_reserve(&self.finals, _VOCAB_SLOTS) < 0:
            raise MemoryError()
        _idmap_free(&self.idm)
        self.clear_cache()

    # ------------------------------------------------------------------ interning

    cdef int32_t _final_id(self, const uint8_t* p, Py_ssize_t n) except -2 nogil:
        """Final id of a new type p[:n]: -1 for a stopword, else the id of its stem (types longer
        than 3 characters are stemmed, as both ROUGE-1.5.5 and rouge-score do)."""
        cdef Py_ssize_t m = n, k
        cdef const uint8_t* key
        cdef uint64_t h
        cdef int32_t fid
        cdef uint8_t* q
        if _need(&self.fold, n + 1, 1) < 0:
            with gil:
                raise MemoryError()
        q = <uint8_t*>self.fold.p
        for k in range(n):
            q[k] = p[k] | 0x20
        p = q
        key = p
        if self.use_stops and _smap_get(&self.stops, p, n, _str_hash(p, n), -2) != -2:
            return -1
        if self.stem_kind != STEM_NONE and n > 3:
            while True:
                if n + 16 > self.sbuf_cap or m > self.sbuf_cap:
                    self.sbuf_cap = 2 * (n + 16 if n + 16 > m else m)
                    q = <uint8_t*>realloc(self.sbuf, self.sbuf_cap)
                    if q == NULL:
                        with gil:
                            raise MemoryError()
                    self.sbuf = q
                if self.stem_kind == STEM_ROUGE155:
                    m = s155_morph(&self.exc, p, n, self.sbuf, self.sbuf_cap)
                else:
                    memcpy(self.sbuf, p, n)
                    m = snl_stem(self.sbuf, n, self.sbuf_cap)
                if m >= 0:
                    break
                m = -m
            key = self.sbuf
            if m == 0 and self.drop_empty:
                return -1
        h = _str_hash(key, m)
        fid = _smap_get(&self.finals, key, m, h, -2)
        if fid == -2:
            fid = <int32_t>self.finals.count
            if _smap_put(&self.finals, key, m, h, fid) < 0:
                with gil:
                    raise MemoryError()
        return fid

    cdef int32_t _intern(self, const uint8_t* p, Py_ssize_t n, uint64_t w0, uint64_t w1,
                         uint64_t h) except -2 nogil:
        """Final id of the (lowercased) token p[:n] (words w0, w1 and hash h: _vhash); -1 for a dropped
        token.  The slow path of _tokenize: a new type, or a token longer than 16 bytes, whose type
        has the same two words and its remaining bytes in the arena."""
        cdef Py_ssize_t s, msk = self.vcap - 1
        cdef VEntry* e
        cdef int32_t fid
        s = <Py_ssize_t>(h >> self.vshift)
        while True:
            e = &self.vt[s]
            if e.w0 == w0 and e.w1 == w1:
                if (w1 >> 63) == 0 or (
                        (<uint32_t*>(self.arena + e.off))[0] == n
                        and _eq_folded(self.arena + e.off + 4, p, n, self.arena_cap - e.off - 4, self.text_end - p)):
                    return e.id
            elif e.w0 == 0:
                break
            s = (s + 1) & msk
        fid = self._final_id(p, n)   # a new type: stopwords and the stemmer, once per type
        _vocab_insert(self, p, n, w0, w1, fid, h)
        return fid

    cdef int _tokenize(self, const uint8_t* p, Py_ssize_t i, Py_ssize_t e, IntBuf* out) except -1 nogil:
        """Append the ids of the tokens of p[i:e] (runs of [A-Za-z0-9], lower-cased).

        Three passes: a bitmap of the token bytes (16 or 8 bytes per step, no branch per byte);
        the tokens from its runs (their first and last bits, a word at a time), keyed and hashed
        with no branch on their length, their table slots prefetched; then the lookups (their
        cache misses overlap instead of queueing one after another): a type of at most 16 bytes
        met before is the slot whose two words equal the token's.
        """
        cdef Py_ssize_t j, cap, k, ntok = 0, need = (e - i) // 2 + 1, n = e - i, ns = 0, w, nw
        cdef uint64_t x, st, en, below, above
        cdef const uint8_t* seg = p + i
        cdef const uint64_t* bits
        cdef int32_t tid
        cdef int32_t* q
        cdef int32_t* dst
        cdef Py_ssize_t cnt
        cdef TokSpan* sp
        cdef uint64_t w0, w1, h
        # the table and the text's end in locals (the compiler keeps them in registers: through
        # ``self`` they were loaded again for every token)
        cdef int shift = self.vshift
        cdef Py_ssize_t msk = self.vcap - 1, s
        cdef VEntry* vt = self.vt
        cdef VEntry* ve
        cdef const uint8_t* tend = self.text_end
        if out.n + need > out.cap:
            cap = out.cap * 2 if out.cap > 0 else 256
            while cap < out.n + need:
                cap *= 2
            q = <int32_t*>realloc(out.data, cap * sizeof(int32_t))
            if q == NULL:
                with gil:
                    raise MemoryError()
            out.data = q
            out.cap = cap
        if _need(&self.spans, need, sizeof(TokSpan)) < 0:
            with gil:
                raise MemoryError()
        if _need(&self.bits, ((n + 63) >> 6) + 1, 8) < 0:
            with gil:
                raise MemoryError()
        sp = <TokSpan*>self.spans.p
        bits = <const uint64_t*>self.bits.p
        _alnum_bitmap(seg, n, <uint64_t*>self.bits.p, self.text_end - seg)
        # a token is a run of set bits: its first bit has a clear bit below it (the previous
        # word's top bit for bit 0), its last one a clear bit above it; both sets come out in
        # order, a word at a time, and a token's start is always seen before its end
        nw = (n + 63) >> 6
        below = 0
        for w in range(nw):
            x = bits[w]
            above = (bits[w + 1] & 1) << 63 if w + 1 < nw else 0
            st = x & ~((x << 1) | below)
            en = x & ~((x >> 1) | above)
            below = x >> 63
            while st:
                sp[ns].start = (w << 6) + RKB_CTZ64(st)
                ns += 1
                st &= st - 1
            while en:
                i = sp[ntok].start
                j = (w << 6) + RKB_CTZ64(en) + 1
                en &= en - 1
                if tend - (seg + i) >= 16:
                    w0 = rkb_key16(seg + i, j - i, &w1)
                else:   # the text's last bytes
                    w0 = _word0(seg + i, j - i, tend - (seg + i))
                    w1 = _word1(seg + i, j - i, tend - (seg + i))
                h = _vhash(w0, w1, seg + i, j - i, tend - (seg + i))
                sp[ntok].n = j - i
                sp[ntok].w0 = w0
                sp[ntok].w1 = w1
                sp[ntok].h = h
                RKB_PREFETCH(&vt[h >> shift])
                ntok += 1
        dst = out.data
        cnt = out.n
        for k in range(ntok):
            w0 = sp[k].w0
            w1 = sp[k].w1
            s = <Py_ssize_t>(sp[k].h >> shift)
            while True:
                ve = &vt[s]
                if ((ve.w0 ^ w0) | (ve.w1 ^ w1)) == 0:
                    tid = ve.id
                    break
                if ve.w0 == 0:
                    tid = -2
                    break
                s = (s + 1) & msk
            if tid == -2 or (w1 >> 63):   # a new type, or one longer than 16 bytes (its other bytes)
                tid = self._intern(seg + sp[k].start, sp[k].n, w0, w1, sp[k].h)
                vt = self.vt   # a new type may have grown the table
                msk = self.vcap - 1
                shift = self.vshift
            dst[cnt] = tid     # kept unless -1 (a stopword, or an empty stem)
            cnt += tid != -1
        out.n = cnt
        return 0

    # ------------------------------------------------------------------ summaries

    cdef _Doc _make_doc(self, object summary):
        """(GIL) One summary (a str, or a sequence of sentences) tokenized into a new _Doc."""
        cdef Py_ssize_t n = 0
        cdef const uint8_t* p
        cdef bytes b
        cdef _Doc doc = _Doc.__new__(_Doc)
        if not isinstance(summary, str):
            summary = self.to_text(summary)
        if self.unicode_lower and not summary.isascii():
            summary = summary.lower()
        try:
            p = <const uint8_t*>PyUnicode_AsUTF8AndSize(summary, &n)
        except UnicodeEncodeError:
            b = self._surrogate_bytes(summary)
            p = <const uint8_t*><char*>b
            n = len(b)
        with nogil:
            self._build_into(p, n, &doc.d, &doc.mem)
        return doc

    cdef int _build(self, const uint8_t* src, Py_ssize_t n) except -1 nogil:
        """Split into sentences, apply the limits and tokenize into jt / st / so.

        Returns 1 when the joined tokens (jt) differ from the sentence tokens (with -b), else 0.
        """
        cdef Py_ssize_t pos, e, s, used, k, ln
        cdef const uint8_t* p
        cdef bint separate = False, stop
        p = src
        self.text_end = src + n
        self.jt.n = 0
        self.st.n = 0
        self.so.n = 0
        _push(&self.so, 0)
        pos = 0
        used = 0
        stop = False
        # readText_LCS: the sentence units
        while not stop and _next_line(p, n, &pos, &s, &e):
            if self.word_limit > 0:
                k = _field_count(p, s, e)
                if used + k < self.word_limit:
                    used += k
                else:
                    e = _field_prefix_end(p, s, e, self.word_limit - used)
                    stop = True
            elif self.byte_limit > 0:
                if e - s >= self.byte_limit:
                    e = s + self.byte_limit
                    stop = True
            self._tokenize(p, s, e, &self.st)
            _push(&self.so, <int32_t>self.st.n)
        if self.byte_limit > 0:
            # readText: the joined text, cut to the byte limit (its own walk)
            separate = True
            pos = 0
            used = 0
            stop = False
            while not stop and _next_line(p, n, &pos, &s, &e):
                ln = e - s
                if used + ln < self.byte_limit:
                    used += ln
                else:
                    e = s + (self.byte_limit - used)
                    stop = True
                self._tokenize(p, s, e, &self.jt)
        return 1 if separate else 0

    def process(self, summary):
        """(joined token ids, sentence token ids) of one summary (for tests)."""
        cdef _Doc d = self._make_doc(summary)
        return d.tokens(), d.sentences()

    cdef int _build_into(self, const uint8_t* p, Py_ssize_t n, DocC* d, int32_t** slot) except -1 nogil:
        """Tokenize one summary and store it in ``d``; its memory goes to ``slot`` (owned by a _Doc)."""
        return self._store(self._build(p, n), d, slot)

    cdef int _store(self, bint separate, DocC* d, int32_t** slot) except -1 nogil:
        """Copy the summary built in st / so (and jt when ``separate``) into ``d``: its memory goes to
        ``slot`` (owned by a _Doc), or with ``slot`` NULL comes from the chunk's slab (valid until
        the engine's next chunk)."""
        cdef Py_ssize_t ln = self.st.n + self.so.n + (self.jt.n if separate else 0)
        cdef int32_t* mem
        cdef int32_t* tok
        if slot == NULL:
            mem = _slab_take(&self.slab, ln + 1)
        else:
            mem = <int32_t*>malloc((ln + 1) * sizeof(int32_t))
        if mem == NULL:
            with gil:
                raise MemoryError()
        if slot != NULL:
            slot[0] = mem
        if self.st.n:  # memcpy from NULL is undefined even for 0 bytes (UBSan)
            memcpy(mem, self.st.data, self.st.n * sizeof(int32_t))
        if self.so.n:
            memcpy(mem + self.st.n, self.so.data, self.so.n * sizeof(int32_t))
        tok = mem
        if separate:
            tok = mem + self.st.n + self.so.n
            if self.jt.n:
                memcpy(tok, self.jt.data, self.jt.n * sizeof(int32_t))
        _doc_set(d, tok, self.jt.n if separate else self.st.n, mem, self.st.n, mem + self.st.n, self.so.n - 1)
        self.empty_summaries += d.ntok == 0 and d.nstok == 0
        return 0

    cdef str _as_text(self, object summary, Py_ssize_t pair, int ref):
        """A summary that is not a str through ``to_text``; when it cannot be text, the TypeError of the
        readable path, naming the summary (``pair 2: reference 3``) and a missing value or bytes as such."""
        try:
            return self.to_text(summary)
        except TypeError:
            where = _where(pair, ref)
        _inputs.check_kind(summary, "text", where)   # token ids in a text call: said so
        raise TypeError(_inputs.not_text(summary, where))

    cdef bytes _surrogate_bytes(self, str text):
        """The bytes tokenized for a text with surrogates (no UTF-8 of its own). rouge-score's
        mode (``unicode_lower``): every surrogate as its three bytes (surrogatepass), non-ASCII
        bytes, so a separator, as rouge-score's tokenizer reads any character outside [a-z0-9].
        ROUGE-1.5.5's: the bytes they escape (surrogateescape, a text read from a file); a lone
        surrogate that escapes no byte raises UnicodeEncodeError, which the front ends name (the
        pure twins refuse the same texts)."""
        return text.encode("utf-8", "surrogatepass" if self.unicode_lower else "surrogateescape")

    cdef inline void _count_flags(self, unsigned char flags) noexcept:
        self.non_ascii_summaries += (flags & TEXT_NON_ASCII) != 0
        self.marked_summaries += (flags & TEXT_MARKED) != 0

    cdef _Doc _pend_add(self, object text, Pend* pp, list keep_src, bint owned):
        """(GIL) A new _Doc for ``text`` (a str), its UTF-8 bytes queued for tokenizing; its tokens
        in memory of its own (``owned``) or in the engine's slab for this chunk."""
        cdef _Doc d = _Doc.__new__(_Doc)
        cdef Py_ssize_t ln = 0
        cdef const uint8_t* p
        cdef bytes b
        cdef bint ascii = text.isascii()  # of the text as given (lower-casing can make it ASCII)
        if self.unicode_lower and not ascii:
            text = text.lower()   # rouge-score lower-cases the str first (the Kelvin sign becomes "k")
        try:
            p = <const uint8_t*>PyUnicode_AsUTF8AndSize(text, &ln)
            keep_src.append(text)
        except UnicodeEncodeError:
            b = self._surrogate_bytes(text)
            keep_src.append(b)
            p = <const uint8_t*><char*>b
            ln = len(b)
        d.flags = (0 if ascii else TEXT_NON_ASCII) | (TEXT_MARKED if memchr(p, 60, ln) != NULL else 0)
        self._count_flags(d.flags)
        if pp.n == pp.cap:
            _pend_grow(pp)
        pp.src[pp.n] = p
        pp.len[pp.n] = ln
        pp.dst[pp.n] = &d.d
        pp.slot[pp.n] = &d.mem if owned else NULL
        pp.n += 1
        return d

    def prepare(self, candidates, references, Py_ssize_t start, Py_ssize_t end, _Work wk not None,
                double[:, :, ::1] out):
        """Read pairs ``start:end`` and score them into ``out`` with workspace ``wk``, in the same
        GIL-free section (one hand-over of the GIL per chunk, not two: a thread waiting for the
        GIL may miss a short release).

        Steps: (GIL) collect the UTF-8 bytes of the candidates and of the references not in the
        cache; (no GIL) tokenize them all, new token types getting pending ids; (GIL, once) map
        the new types through the stopwords and the stemmer; (no GIL) put the final ids in the
        table and the summaries; (GIL) file the new references in the cache.  Only the short
        Python parts hold the GIL, so the engines of several jobs tokenize in parallel.
        An engine must not be used by two threads at once.
        """
        cdef _Chunk ch
        cdef Py_ssize_t i, n = end - start, nr = 0, cap, k
        cdef int j
        cdef _Doc d
        cdef void* q
        cdef PyObject* hit
        cdef list keep = []
        cdef list keep_src = []
        cdef dict pending = {}
        cdef Pend pp
        # the reference cache pays when references repeat; when under 1/32 of 4,096 lookups hit,
        # the next 8 chunks bypass it (no lookup, no insertion, no duplicate check within the
        # chunk), then it is tried again: a cache of unique texts only costs (hashing every text,
        # keeping its tokens alive), about a third of the time on 100,000 unique references
        cdef bint use_cache = self.cache_size > 0 and self.cache_skip == 0
        cdef bint dedupe = use_cache or self.cache_size <= 0
        cdef object cache = self.cache
        cdef object mte = self.move_to_end
        cdef double* base = self._out_base(start, n, wk, out)
        cdef int rc = 0
        cdef Py_ssize_t at = 0
        memset(&pp, 0, sizeof(Pend))
        # the chunk's summaries live only for this call, so their tokens go to the slab (cached
        # references excepted: they own theirs)
        _slab_reset(&self.slab)
        ch = _new_chunk(start, n)
        cap = _CHUNK_REFS(n)
        try:
            pp.cap = 0
            while pp.cap < 3 * n + 16:
                _pend_grow(&pp)
            for i in range(n):
                text = candidates[start + i]
                if not isinstance(text, str):
                    text = self._as_text(text, start + i, -1)
                d = self._pend_add(text, &pp, keep_src, False)
                keep.append(d)
                ch.peers[i] = &d.d
                refs = references[start + i]
                if isinstance(refs, (str, bytes)):
                    refs = (refs,)
                j = 0
                for text in refs:
                    if not isinstance(text, str):
                        text = self._as_text(text, start + i, j)
                    j += 1
                    hit = PyDict_GetItem(cache, text) if use_cache else NULL
                    if hit != NULL:
                        d = <_Doc>hit
                        mte(text)
                        self.cache_hits += 1
                        self.empty_summaries += d.d.ntok == 0 and d.d.nstok == 0
                        self._count_flags(d.flags)
                    else:
                        hit = PyDict_GetItem(pending, text) if dedupe else NULL
                        if hit != NULL:
                            d = <_Doc>hit
                        else:
                            d = self._pend_add(text, &pp, keep_src, use_cache)
                            if dedupe:
                                pending[text] = d
                    self.cache_lookups += use_cache
                    keep.append(d)
                    cap = ch.put_ref(nr, cap, &d.d)
                    nr += 1
                ch.roff[i + 1] = nr
            with nogil:
                for k in range(pp.n):
                    self._build_into(pp.src[k], pp.len[k], pp.dst[k], pp.slot[k])
                if n > 0:
                    rc = self._score_chunk(ch.peers, ch.refs, ch.roff, n, start, &wk.w, base, &at)
        finally:
            _pend_free(&pp)
        for text, d in pending.items():
            if use_cache:
                cache[text] = d
                if len(cache) > self.cache_size:
                    cache.popitem(last=False)
        if self.cache_skip > 0:
            self.cache_skip -= 1
        elif self.cache_lookups >= 4096:
            if self.cache_hits * 32 < self.cache_lookups:
                self.cache_skip = 8
            self.cache_lookups = 0
            self.cache_hits = 0
        _count_error(rc, start + at)

    def prepare_ids(self, candidates, references, Py_ssize_t start, Py_ssize_t end, _Work wk not None,
                    double[:, :, ::1] out):
        """Pairs ``start:end`` given as token ids (see inputs.py), read and scored into ``out`` with
        workspace ``wk`` (in the GIL-free section that reads the arrays).

        No tokenizer, stemmer, stopwords or reference cache: the ids are read, cut to the word
        limit and mapped to dense ids (ids.pxi).  Contiguous int32 arrays are read without the
        GIL (their buffers got first, then all read at once); other inputs with it, in order.
        """
        cdef _Chunk ch
        cdef Py_ssize_t n = end - start
        cdef IdPend pend
        cdef _IdPrep prep = _IdPrep.__new__(_IdPrep)
        cdef double* base = self._out_base(start, n, wk, out)
        memset(&pend, 0, sizeof(IdPend))
        ch = _new_chunk(start, n)
        prep.cap = _CHUNK_REFS(n)
        prep.eng, prep.pend, prep.ch, prep.keep = self, &pend, ch, []   # the pairs' summaries: idjob.pxi
        try:
            try:
                prep.walk(candidates, references, start, end, True)
            except BaseException:
                self._id_flush(&pend, None, NULL, NULL)   # a summary queued before this one reports its error first
                raise
            self._id_flush(&pend, ch, &wk.w, base)
        finally:
            _idpend_free(&pend)

    def run_id_job(self, _IdJob job, _Work wk):
        """Claim chunks of ``job`` and read and score them, without the GIL, until none is left
        (every job's engine runs this at once; errors wait in ``job``, see raise_first_error)."""
        cdef Buf docs
        cdef Buf ptrs
        if wk.nm != self.nm or job.out.shape[1] != self.nm or job.out.shape[2] != 6:
            raise ValueError("workspace or output made for another engine")
        memset(&docs, 0, sizeof(Buf))
        memset(&ptrs, 0, sizeof(Buf))
        try:
            with nogil:
                _id_job_loop(self, job, &wk.w, &docs, &ptrs)
        finally:
            free(docs.p)
            free(ptrs.p)

    cdef _Doc _id_doc_queued(self, object summary, IdPend* pend, Py_ssize_t pair, int ref):
        """(GIL) A new _Doc for a token-id summary: queued when it is an int32 array, else read now
        (after the queue, so that errors come in the order of the summaries)."""
        cdef _Doc doc = _Doc.__new__(_Doc)
        if _idpend_add(pend, summary, &doc.d, &doc.mem, pair, ref):
            return doc
        self._id_flush(pend, None, NULL, NULL)
        _read_id_summary(&self.idm, summary, self.word_limit, &self.st, &self.so, pair, ref)
        self._store(False, &doc.d, &doc.mem)
        return doc

    cdef int _id_flush(self, IdPend* pend, _Chunk ch, Work* w, double* base) except -1:
        """Read the queued int32 arrays into their docs without the GIL, release them; the first
        id out of range raises (the queue's order).  With ``ch``: then score it into ``base`` with
        workspace ``w``."""
        cdef Py_ssize_t bad = -1, at = 0
        cdef int64_t badv = 0
        cdef int rc = 0, src = 0
        if ch is None:
            w = NULL
        if pend.n == 0 and w == NULL:
            return 0
        try:
            with nogil:
                rc = _read_queued(self, pend, 0, pend.n, NULL, &badv, &bad)
                if rc == 0 and w != NULL and ch.n > 0:
                    src = self._score_chunk(ch.peers, ch.refs, ch.roff, ch.n, ch.start, w, base, &at)
            if rc == 1:
                _out_of_range(badv, pend.pair[bad], pend.ref[bad])
            if rc != 0:
                raise MemoryError()
        finally:
            _idpend_release(pend)
        _count_error(src, ch.start + at if ch is not None else 0)
        return 0

    cdef _Doc _id_doc(self, object summary, Py_ssize_t pair, int ref):
        """(GIL) One token-id summary read into a new _Doc."""
        cdef _Doc doc = _Doc.__new__(_Doc)
        _read_id_summary(&self.idm, summary, self.word_limit, &self.st, &self.so, pair, ref)
        self._store(False, &doc.d, &doc.mem)
        return doc

    def process_ids(self, summary):
        """(joined dense ids, sentence dense ids) of one token-id summary (for tests)."""
        cdef _Doc d = self._id_doc(summary, 0, -1)
        return d.tokens(), d.sentences()

    cdef double* _out_base(self, Py_ssize_t start, Py_ssize_t n, _Work wk, double[:, :, ::1] out) except NULL:
        """(GIL) Check ``out`` and the workspace for pairs start:start+n; the address of out[0, 0, 0]."""
        if out.shape[1] != self.nm or out.shape[2] != 6 or out.shape[0] < start + n:
            raise ValueError("output array has the wrong shape")
        if wk.nm != self.nm:
            raise ValueError("workspace made for another engine")
        if out.shape[0] == 0 or self.nm == 0:   # nothing to write (no element to take the address of)
            return &_NO_OUTPUT
        return &out[0, 0, 0]

    cdef int _score_chunk(self, const DocC** peers, const DocC** refs, const Py_ssize_t* roff, Py_ssize_t n,
                          Py_ssize_t start, Work* w, double* base, Py_ssize_t* at, Py_ssize_t nvocab=-1) noexcept nogil:
        """(no GIL) Every pair of a chunk (score_docs); 0, or _score_pair's error code with the pair in ``at``.
        ``nvocab``: a bound on the chunk's token ids (default: every id this engine gave out)."""
        if nvocab < 0:
            nvocab = self.finals.count if self.finals.count > self.idm.count else self.idm.count
        return score_docs(w, self.ms, self.nm, self.mode_b, self.mode_max, self.alpha, peers, refs, roff, n,
                          base + start * self.nm * 6, nvocab, NULL, at)


include "limits.pxi"
include "work.pxi"
include "grams.pxi"
include "lcs.pxi"
include "score.pxi"
include "pair.pxi"
include "textids.pxi"
include "vocab.pxi"
include "marks.pxi"
include "idjob.pxi"
include "arrowtext.pxi"
