# ROUGE-1.5.5 stemmer (``-m``) at C level: a nogil twin of ``rougekit.text.stemming``.
#
# Included (``include "stem155.pxi"``) by modules that stem without the GIL; every name
# starts with ``s155_``.  The Python code stays the definition:
#
# * ``s155_porter``  == ``rougekit.text.porter.porter_stem``
# * ``s155_morph``   == ``rougekit.text.stemming.morph_stem`` (WordNet exceptions, else Porter)
#
# Words are byte strings; for ASCII words the result is exactly the Python one (the batch
# scorer only passes lowercase ``[a-z0-9]`` tokens).  Each regular expression of porter.py
# is reproduced by the language it accepts (``re.match`` semantics: some prefix matches,
# or the whole word where the pattern ends in ``\Z``), not by textbook Porter rules.

from libc.stdint cimport uint8_t, uint32_t, uint64_t
from libc.stdlib cimport malloc, calloc, free
from libc.string cimport memcpy, memset


# ------------------------------------------------------------------ measure tests
#
# porter.py's measure patterns are all "(?:C)? V C V C ..." with
#     C = [^aeiou][^aeiouy]*      V = [aeiouy][aeiou]*
# We run them as one NFA whose states are the positions in that chain:
#     0 = start, 1 = inside the optional leading C, 2 = inside V1, 3 = inside C1,
#     4 = inside V2, 5 = inside C2, ...
# A state set (bit s = state s) is advanced one byte at a time.  Byte classes:
#     vowel a e i o u : starts V, continues V
#     'y'             : starts C, starts V (continues neither)
#     anything else   : starts C, continues C   (this includes the upper-cased leading 'Y')
# Odd states are "inside a C", even states >= 2 "inside a V".

cdef enum:
    s155_ODD = 0x2AAAAAAA        # states 1, 3, 5, ... (30 states are plenty)
    s155_EVEN = 0x15555554       # states 2, 4, 6, ... (not the start state 0)
    s155_MAX_RULES = 32          # room in a suffix-rule table
    s155_STACK = 64              # s155_morph's stack buffer


cdef inline bint s155_is_vowel(uint8_t c) noexcept nogil:
    return c == c'a' or c == c'e' or c == c'i' or c == c'o' or c == c'u'


cdef inline uint32_t s155_nfa_step(uint32_t st, uint8_t c) noexcept nogil:
    """The state set after reading byte ``c`` from state set ``st``."""
    cdef uint32_t odd = st & s155_ODD
    cdef uint32_t even = st & s155_EVEN
    cdef uint32_t nxt
    if s155_is_vowel(c):
        nxt = (odd << 1) | even          # a C ends, a V starts / a V continues
        if st & 1:
            nxt |= 0b100                 # start -> V1 (no leading C)
    elif c == c'y':
        nxt = (odd << 1) | (even << 1)   # a V starts after a C / a C starts after a V
        if st & 1:
            nxt |= 0b110                 # start -> leading C, or start -> V1
    else:
        nxt = odd | (even << 1)          # a C continues / a C starts after a V
        if st & 1:
            nxt |= 0b010                 # start -> leading C
    return nxt


cdef inline bint s155_prefix_reaches(const uint8_t* w, Py_ssize_t n, int k) noexcept nogil:
    """True if some prefix of w[0:n] takes the chain to state ``k`` (re.match, no anchor)."""
    cdef uint32_t st = 1
    cdef uint32_t keep = (<uint32_t>2 << k) - 1   # states 0..k
    cdef Py_ssize_t i
    for i in range(n):
        st = s155_nfa_step(st, w[i]) & keep
        if st >> k & 1:
            return True
        if st == 0:
            return False
    return False


cdef inline bint s155_has_vowel(const uint8_t* w, Py_ssize_t n) noexcept nogil:
    # (?:C)?[aeiouy]  == entering V1
    return s155_prefix_reaches(w, n, 2)


cdef inline bint s155_m_gt0(const uint8_t* w, Py_ssize_t n) noexcept nogil:
    # (?:C)?VC  == entering C1
    return s155_prefix_reaches(w, n, 3)


cdef inline bint s155_m_gt1(const uint8_t* w, Py_ssize_t n) noexcept nogil:
    # (?:C)?VCVC  == entering C2
    return s155_prefix_reaches(w, n, 5)


cdef inline bint s155_m_eq1(const uint8_t* w, Py_ssize_t n) noexcept nogil:
    # (?:C)?VC(?:V)?\Z  == the whole word ends inside C1 or inside V2
    cdef uint32_t st = 1
    cdef Py_ssize_t i
    for i in range(n):
        st = s155_nfa_step(st, w[i]) & 0x1F   # states 0..4; C2 is outside this pattern
        if st == 0:
            return False
    return (st & 0b11000) != 0     # state 3 or 4


cdef inline bint s155_is_cvc(const uint8_t* w, Py_ssize_t n) noexcept nogil:
    # C[aeiouy][^aeiouwxy]\Z on the whole word: the last two bytes are fixed by \Z,
    # the rest (at least one byte) must be one C = [^aeiou][^aeiouy]*.
    cdef Py_ssize_t i
    cdef uint8_t c
    if n < 3:
        return False
    c = w[n - 1]
    if s155_is_vowel(c) or c == c'w' or c == c'x' or c == c'y':
        return False
    c = w[n - 2]
    if not (s155_is_vowel(c) or c == c'y'):
        return False
    if s155_is_vowel(w[0]):
        return False
    for i in range(1, n - 2):
        if s155_is_vowel(w[i]) or w[i] == c'y':
            return False
    return True


# ------------------------------------------------------------------ suffix rules

cdef inline bint s155_ends(const uint8_t* w, Py_ssize_t n, const char* s, Py_ssize_t k) noexcept nogil:
    """w[0:n].endswith(s[0:k]), compared from the last byte (which usually differs)"""
    cdef Py_ssize_t i
    if n < k:
        return False
    for i in range(1, k + 1):
        if w[n - i] != <uint8_t>s[k - i]:
            return False
    return True


cdef struct s155_Rule:
    const char* suf      # points into a static C string literal
    const char* rep
    int slen
    int rlen

cdef struct s155_Rules:
    # one suffix table of porter.py, grouped by the suffix's last byte, each group
    # longest suffix first: the first rule of group w[n-1] that ends the word is
    # porter.py's "longest matching suffix"
    s155_Rule rule[s155_MAX_RULES]
    int nrules
    uint8_t first[256]   # group of byte c: rule[first[c] : first[c] + count[c]]
    uint8_t count[256]

# steps 2, 3 and 4 (first rule), filled once at import by s155_parse_rules
cdef s155_Rules s155_step2_rules
cdef s155_Rules s155_step3_rules
cdef s155_Rules s155_step4_rules


cdef inline bint s155_rule_before(const s155_Rule* a, const s155_Rule* b) noexcept nogil:
    # order: by last byte, then longest first
    cdef uint8_t la = <uint8_t>a.suf[a.slen - 1], lb = <uint8_t>b.suf[b.slen - 1]
    return la < lb or (la == lb and a.slen > b.slen)


cdef void s155_parse_rules(s155_Rules* t, const char* src) noexcept nogil:
    """Parse "suf:rep suf:rep ..." (static text, non-empty suffixes) into ``t``.

    Replacements are never longer than their suffixes, so stemming never grows a word.
    """
    cdef int n = 0, j
    cdef const char* p = src
    cdef s155_Rule r
    cdef uint8_t last
    memset(t, 0, sizeof(s155_Rules))
    while p[0] != 0 and n < s155_MAX_RULES:
        r.suf = p
        r.slen = 0
        while p[r.slen] != c':':
            r.slen += 1
        p += r.slen + 1
        r.rep = p
        r.rlen = 0
        while p[r.rlen] != c' ' and p[r.rlen] != 0:
            r.rlen += 1
        p += r.rlen
        if p[0] == c' ':
            p += 1
        j = n                        # insertion sort
        while j > 0 and s155_rule_before(&r, &t.rule[j - 1]):
            t.rule[j] = t.rule[j - 1]
            j -= 1
        t.rule[j] = r
        n += 1
    t.nrules = n
    for j in range(n - 1, -1, -1):
        last = <uint8_t>t.rule[j].suf[t.rule[j].slen - 1]
        t.first[last] = <uint8_t>j
        t.count[last] += 1


s155_parse_rules(&s155_step2_rules,
    b"ational:ate tional:tion enci:ence anci:ance izer:ize bli:ble alli:al entli:ent "
    b"eli:e ousli:ous ization:ize ation:ate ator:ate alism:al iveness:ive fulness:ful "
    b"ousness:ous aliti:al iviti:ive biliti:ble logi:log")
s155_parse_rules(&s155_step3_rules,
    b"icate:ic ative: alize:al iciti:ic ical:ic ful: ness:")
# step 4, first rule: the standard list without "ment" and "ent" (CYL 2004)
s155_parse_rules(&s155_step4_rules,
    b"al: ance: ence: er: ic: able: ible: ant: ement: ou: ism: ate: iti: ous: ive: ize:")


cdef inline Py_ssize_t s155_replace_suffix(uint8_t* w, Py_ssize_t n, const s155_Rules* t,
                                           int need_state) noexcept nogil:
    """porter.py's _replace_suffix: only the longest listed suffix is tried; it is
    replaced when the stem's prefix reaches ``need_state`` (3: m > 0, 5: m > 1)."""
    cdef int i, end
    cdef Py_ssize_t stem
    cdef const s155_Rule* r
    if n == 0:
        return n
    i = t.first[w[n - 1]]
    end = i + t.count[w[n - 1]]
    while i < end:
        r = &t.rule[i]
        if s155_ends(w, n, r.suf, r.slen):
            stem = n - r.slen
            if not s155_prefix_reaches(w, stem, need_state):
                return n
            memcpy(w + stem, r.rep, r.rlen)
            return stem + r.rlen
        i += 1
    return n


# ------------------------------------------------------------------ Porter steps

cdef Py_ssize_t s155_step1(uint8_t* w, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t k
    cdef uint8_t c
    # 1a: plurals
    if s155_ends(w, n, b"sses", 4) or s155_ends(w, n, b"ies", 3):
        n -= 2
    elif s155_ends(w, n, b"s", 1) and n >= 2 and w[n - 2] != c's':
        n -= 1
    # 1b: -eed, -ed, -ing
    if s155_ends(w, n, b"eed", 3):
        if s155_m_gt0(w, n - 3):
            n -= 1
    else:
        k = 2 if s155_ends(w, n, b"ed", 2) else (3 if s155_ends(w, n, b"ing", 3) else 0)
        if k and s155_has_vowel(w, n - k):
            n -= k
            if s155_ends(w, n, b"at", 2) or s155_ends(w, n, b"bl", 2) or s155_ends(w, n, b"iz", 2):
                w[n] = c'e'          # fits: at least two bytes were just removed
                n += 1
            elif n >= 2 and w[n - 1] == w[n - 2] and not (
                    s155_is_vowel(w[n - 1]) or w[n - 1] == c'y' or w[n - 1] == c'l'
                    or w[n - 1] == c's' or w[n - 1] == c'z'):
                n -= 1
            elif s155_is_cvc(w, n):
                w[n] = c'e'
                n += 1
    # 1c: y -> i
    if s155_ends(w, n, b"y", 1) and s155_has_vowel(w, n - 1):
        w[n - 1] = c'i'
    return n


cdef Py_ssize_t s155_step4(uint8_t* w, Py_ssize_t n) noexcept nogil:
    # CYL 2004: the tests run one after another, so several suffixes can come off
    n = s155_replace_suffix(w, n, &s155_step4_rules, 5)
    if s155_ends(w, n, b"ment", 4) and s155_m_gt1(w, n - 4):
        n -= 4
    if s155_ends(w, n, b"ent", 3):
        if s155_m_gt1(w, n - 3):
            n -= 3
    elif (s155_ends(w, n, b"sion", 4) or s155_ends(w, n, b"tion", 4)) and s155_m_gt1(w, n - 3):
        n -= 3                       # drops "ion", keeps the s / t
    return n


cdef Py_ssize_t s155_step5(uint8_t* w, Py_ssize_t n) noexcept nogil:
    if s155_ends(w, n, b"e", 1):
        if s155_m_gt1(w, n - 1) or (s155_m_eq1(w, n - 1) and not s155_is_cvc(w, n - 1)):
            n -= 1
    if s155_ends(w, n, b"ll", 2) and s155_m_gt1(w, n):
        n -= 1
    return n


cdef Py_ssize_t s155_porter(uint8_t* w, Py_ssize_t n) noexcept nogil:
    """Stem w[0:n] in place, return the new length (== porter_stem for ASCII words).

    Only w[0:n] is written: no step makes the word longer than it was.
    """
    cdef bint leading_y
    if n < 3:
        return n
    leading_y = w[0] == c'y'
    if leading_y:
        w[0] = c'Y'                  # counts as a consonant while stemming
    n = s155_step1(w, n)
    n = s155_replace_suffix(w, n, &s155_step2_rules, 3)
    n = s155_replace_suffix(w, n, &s155_step3_rules, 3)
    n = s155_step4(w, n)
    n = s155_step5(w, n)
    if leading_y and n > 0:
        w[0] = c'y'                  # the first byte is never touched by the steps
    return n


# ------------------------------------------------------------------ WordNet exceptions

cdef struct s155_ExcEntry:
    uint64_t hash
    Py_ssize_t key_off           # key bytes: blob[key_off : key_off + key_len]
    Py_ssize_t key_len
    Py_ssize_t base_off          # base form: blob[base_off : base_off + base_len]
    Py_ssize_t base_len

cdef struct s155_Exc:
    # open addressing (linear probing) over the exception keys; all bytes owned here
    uint32_t* slots              # nslots entries: 0 = empty, else entry index + 1
    Py_ssize_t mask              # nslots - 1 (nslots a power of two); 0 when empty
    s155_ExcEntry* entries
    Py_ssize_t nentries
    uint8_t* blob                # every key and base form, back to back
    Py_ssize_t max_key_len


cdef inline uint8_t s155_lower(uint8_t c) noexcept nogil:
    # str.translate(_ASCII_LOWER): only A-Z change
    return c + 32 if c'A' <= c <= c'Z' else c


cdef inline uint64_t s155_hash_lower(const uint8_t* w, Py_ssize_t n) noexcept nogil:
    # FNV-1a (64 bit) over the ASCII-lower-cased bytes
    cdef uint64_t h = 14695981039346656037ULL
    cdef Py_ssize_t i
    for i in range(n):
        h = (h ^ s155_lower(w[i])) * 1099511628211ULL
    return h


cdef void s155_exc_free(s155_Exc* t) noexcept nogil:
    free(t.slots)
    free(t.entries)
    free(t.blob)
    memset(t, 0, sizeof(s155_Exc))


cdef int s155_exc_init(s155_Exc* t, dict table) except -1:
    """(GIL) Build the table from ``{inflected: base}`` (str, stored UTF-8).

    ``t`` must be zeroed or previously built; its old content is freed only on success.
    """
    cdef s155_Exc built
    cdef list keys = [], bases = []
    cdef bytes kb, bb
    cdef Py_ssize_t i, total = 0, nslots = 8, pos, slot
    cdef s155_ExcEntry* e
    memset(&built, 0, sizeof(s155_Exc))
    for key, base in table.items():
        if not isinstance(key, str) or not isinstance(base, str):
            raise TypeError("exception table must map str to str")
        kb = (<str>key).encode("utf-8")
        bb = (<str>base).encode("utf-8")
        keys.append(kb)
        bases.append(bb)
        total += len(kb) + len(bb)
    if len(keys) >= 0x7FFFFFFF:
        raise OverflowError("exception table too large")
    while nslots < 2 * len(keys):    # load factor <= 1/2
        nslots *= 2
    try:
        built.slots = <uint32_t*>calloc(nslots, sizeof(uint32_t))
        built.entries = <s155_ExcEntry*>malloc(max(1, len(keys)) * sizeof(s155_ExcEntry))
        built.blob = <uint8_t*>malloc(max(1, total))
        if built.slots == NULL or built.entries == NULL or built.blob == NULL:
            raise MemoryError()
        built.mask = nslots - 1
        pos = 0
        for i in range(len(keys)):
            kb = keys[i]
            bb = bases[i]
            e = &built.entries[i]
            e.key_off = pos
            e.key_len = len(kb)
            memcpy(built.blob + pos, <const char*>kb, e.key_len)
            pos += e.key_len
            e.base_off = pos
            e.base_len = len(bb)
            memcpy(built.blob + pos, <const char*>bb, e.base_len)
            pos += e.base_len
            # keys are distinct (dict); a key with upper-case bytes is stored as is and,
            # like in Python (which looks up lower-cased words), can never be found
            e.hash = s155_hash_lower(built.blob + e.key_off, e.key_len)
            if e.key_len > built.max_key_len:
                built.max_key_len = e.key_len
            slot = <Py_ssize_t>(e.hash & <uint64_t>built.mask)
            while built.slots[slot] != 0:
                slot = (slot + 1) & built.mask
            built.slots[slot] = <uint32_t>(i + 1)
        built.nentries = len(keys)
    except BaseException:
        s155_exc_free(&built)
        raise
    s155_exc_free(t)
    t[0] = built
    return 0


cdef inline const uint8_t* s155_exc_find(const s155_Exc* t, const uint8_t* w, Py_ssize_t n,
                                         Py_ssize_t* base_len) noexcept nogil:
    """Base form of the ASCII-lower-cased w[0:n], or NULL when it is not listed."""
    cdef uint64_t h
    cdef Py_ssize_t slot, i
    cdef uint32_t idx
    cdef const s155_ExcEntry* e
    cdef const uint8_t* key
    if t.slots == NULL or n > t.max_key_len:
        return NULL
    h = s155_hash_lower(w, n)
    slot = <Py_ssize_t>(h & <uint64_t>t.mask)
    while True:
        idx = t.slots[slot]
        if idx == 0:
            return NULL
        e = &t.entries[idx - 1]
        if e.hash == h and e.key_len == n:
            key = t.blob + e.key_off
            i = 0
            while i < n and key[i] == s155_lower(w[i]):
                i += 1
            if i == n:
                base_len[0] = e.base_len
                return t.blob + e.base_off
        slot = (slot + 1) & t.mask


cdef Py_ssize_t s155_morph(const s155_Exc* t, const uint8_t* w, Py_ssize_t n,
                           uint8_t* out, Py_ssize_t cap) noexcept nogil:
    """morph_stem of w[0:n] written to out[0:cap]; return its length.

    When ``cap`` is too small, return -k (k > cap): calling again with ``cap >= k``
    succeeds.  k is the stem's length, except for a Porter stem of a word longer than
    the stack buffer, which needs ``cap >= n`` (the word is stemmed in ``out``).
    """
    cdef Py_ssize_t blen = 0, i, m
    cdef const uint8_t* base
    cdef uint8_t buf[s155_STACK]
    base = s155_exc_find(t, w, n, &blen)
    if base != NULL:
        if blen > cap:
            return -blen
        memcpy(out, base, blen)
        return blen
    if n <= cap:                     # stem the lower-cased word in place in out
        for i in range(n):
            out[i] = s155_lower(w[i])
        return s155_porter(out, n)
    if n > s155_STACK:
        return -n
    for i in range(n):
        buf[i] = s155_lower(w[i])
    m = s155_porter(buf, n)
    if m > cap:
        return -m
    memcpy(out, buf, m)
    return m
