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

#: every code above: the batch scorer counts each, kind_counts each but ROUGE-W (a new kind: its
#: code above and here, nothing else in the engine's checks)
KINDS = frozenset(range(K_N, K_LD + 1))
#: the kinds whose n is an n-gram's length (>= 1)
KINDS_WITH_N = frozenset((K_N, K_ND))

cdef enum:
    F_ALL_UNIGRAMS = 1   # SU: the unigrams of every token (not the script's: all but the last)


cdef struct MeasureC:
    int kind
    int n              # n of ROUGE-N, skip distance of ROUGE-S/SU (< 0: unlimited)
    double w
    double inv_w


def _kind_table():
    """The codes above by name ({"N": 0, ...}, {"ALL_UNIGRAMS": 1}), for the test against kinds.py."""
    return ({"N": K_N, "L": K_L, "W": K_W, "S": K_S, "SU": K_SU, "LSEQ": K_LSEQ, "ND": K_ND, "LD": K_LD},
            {"ALL_UNIGRAMS": F_ALL_UNIGRAMS})
