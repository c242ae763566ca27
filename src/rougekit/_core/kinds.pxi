# The counting kinds of the compiled engine: the Cython mirror of kinds.py (tests/test_kinds.py
# holds the two equal through _kind_table below).  Every dispatch on what a kernel counts
# (_score_pair, the per-pair entry points, the highlights) reads these codes.

cdef enum:
    K_N = 0         # ROUGE-N: n-grams of the joined tokens, clipped
    K_L = 1         # ROUGE-L: the script's union LCS
    K_W = 2         # ROUGE-W: the union WLCS
    K_S = 3         # ROUGE-S: skip-bigrams
    K_SU = 4        # ROUGE-SU: skip-bigrams and unigrams
    K_LSEQ = 5      # LCS of the two whole token sequences (rouge-score's rougeL)
    K_ND = 6        # distinct n-grams (pltrdy rouge's sets)
    K_LD = 7        # distinct tokens on the union LCS, the roles swapped (pltrdy rouge's sets)
    K_END           # one past the last code: a new kind goes just above this line

#: every code above: the batch scorer counts each, kind_counts each but ROUGE-W
KINDS = frozenset(range(K_N, K_END))
#: the kinds whose n is an n-gram's length (>= 1)
KINDS_WITH_N = frozenset((K_N, K_ND))

cdef enum:
    F_ALL_UNIGRAMS = 1   # SU: the unigrams of every token (not the script's: all but the last)


cdef struct MeasureC:
    int kind
    int n              # n of ROUGE-N, skip distance of ROUGE-S/SU (< 0: unlimited)
    double w
    double inv_w
    int fold           # 1: its counts are added to the next row's before the multi-reference rule (score.pxi)


# The count function of each kind, one signature: every reference's counts of measure ``m`` (the
# ``qn``-th of the pair's) into the PairC's rh/rm/rp/rs (rs: what -f B compares); 0, or
# _score_pair's error codes (score.pxi).  The file of the kind's unit tables (grams.pxi,
# lcs.pxi) defines the function and fills its row of KIND_ROWS, at import; _score_pair only
# calls the row (a new kind: its code above, its function and row there, nothing in score.pxi).
cdef struct Work
cdef struct PairC
ctypedef int (*CountFn)(Work* w, PairC* c, const MeasureC* m, int qn, bint mode_b) noexcept nogil

cdef enum:
    ROW_WEIGHTED = 1   # R and P through x ** (1 / w) (ROUGE-W)
    ROW_LAST = 2       # counted after the kind's without this flag (it reuses their per-pair tables)

cdef struct KindRow:
    CountFn count
    int flags
    CountFn marks      # the highlights' count: as ``count``, also marking the matched positions of
                       # both sides in the pair's Marks record (PairC.mks; one reference); NULL: the
                       # kind has no highlights (kinds.py: NO_MARKS)

cdef KindRow KIND_ROWS[K_END]


cdef int _spec_measures(int kind, int n, int flags, double weight, MeasureC* ms) noexcept:
    """The measures (at most 2, into ``ms``) one kernel spec counts, as kinds.py's ``counted``:
    the spec's own row, or with F_ALL_UNIGRAMS ROUGE-S's skip-bigrams beside ROUGE-1's units
    (every token's unigram)."""
    memset(ms, 0, 2 * sizeof(MeasureC))
    ms[0].kind = kind
    ms[0].n = n
    ms[0].w = weight
    ms[0].inv_w = 1.0 / weight if weight != 0 else 0.0
    if not flags & F_ALL_UNIGRAMS:
        return 1
    ms[0].kind = K_S
    ms[1].kind = K_N
    ms[1].n = 1
    return 2


def _kind_table():
    """The codes above by name ({"N": 0, ...}, {"ALL_UNIGRAMS": 1}), for the test against kinds.py."""
    return ({"N": K_N, "L": K_L, "W": K_W, "S": K_S, "SU": K_SU, "LSEQ": K_LSEQ, "ND": K_ND, "LD": K_LD},
            {"ALL_UNIGRAMS": F_ALL_UNIGRAMS})


def _kind_rows():
    """{code: (a count function is set, flags)} of KIND_ROWS, for the test that every kind has one."""
    return {k: (KIND_ROWS[k].count != NULL, KIND_ROWS[k].flags) for k in range(K_END)}


def _kind_marks():
    """{code: a marks function is set} of KIND_ROWS, for the test against kinds.NO_MARKS."""
    return {k: KIND_ROWS[k].marks != NULL for k in range(K_END)}
