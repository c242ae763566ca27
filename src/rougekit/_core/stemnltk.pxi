# Porter stemmer, NLTK's default mode (NLTK_EXTENSIONS), in C-level Cython without the GIL.
#
# A twin of rougekit.compat._porter_nltk.stem (the readable definition; keep the two in
# step).  Every name here starts with ``snl_`` so that this file can be ``include``d next to
# other stemmers.  The word is stemmed in place in a byte buffer: no Python objects, no
# allocation, no stack buffers (the consonant test is computed from the bytes on demand, so a
# word of any length works).
#
# Facts the code relies on:
# * a consonant flag depends only on the letters before it, so the flags of a prefix (a stem)
#   are those of the whole word -- the measure of ``w[:k]`` is just a scan of w[0:k];
# * no rule lengthens the word (each replacement is at most as long as the suffix it
#   replaces, and the ``e`` of step 1b follows a removed ``ed``/``ing``), so every write
#   stays inside w[0:n] and the stem is never longer than the word.

from libc.stdint cimport uint8_t
from libc.string cimport memcmp, memcpy


# --------------------------------------------------------------------------- predicates


cdef inline bint snl_vowel_letter(uint8_t c) noexcept nogil:
    return c == b'a' or c == b'e' or c == b'i' or c == b'o' or c == b'u'


cdef bint snl_cons(const uint8_t* w, Py_ssize_t i) noexcept nogil:
    """Is w[i] a consonant?  aeiou are vowels; a y is a vowel after a consonant and a
    consonant at the start or after a vowel; anything else (digits too) is a consonant."""
    cdef Py_ssize_t k = i
    cdef bint first
    if snl_vowel_letter(w[i]):
        return False
    if w[i] != b'y':
        return True
    # A y: walk back to the start of its run of y's; along the run the flags alternate.
    while k > 0 and w[k - 1] == b'y':
        k -= 1
    # w[k] is the first y of the run: a consonant at the start of the word or after a vowel.
    first = True if k == 0 else snl_vowel_letter(w[k - 1])
    return first if (i - k) % 2 == 0 else not first


cdef int snl_measure(const uint8_t* w, Py_ssize_t k) noexcept nogil:
    """Porter's m of w[0:k] (vowel-to-consonant transitions), capped at 2 (callers only ask
    m > 0, m == 1, m > 1)."""
    cdef int m = 0
    cdef Py_ssize_t i
    cdef uint8_t c
    cdef bint cons
    cdef bint prev_cons = False  # so that a leading y ("not prev_cons") is a consonant
    cdef bint prev_vowel = False
    for i in range(k):
        c = w[i]
        if snl_vowel_letter(c):
            cons = False
        elif c == b'y':
            cons = not prev_cons
        else:
            cons = True
        if cons and prev_vowel:
            m += 1
            if m >= 2:
                return 2
        prev_vowel = not cons
        prev_cons = cons
    return m


cdef bint snl_has_vowel(const uint8_t* w, Py_ssize_t k) noexcept nogil:
    """Does w[0:k] contain a vowel (in the y-aware sense)?"""
    cdef Py_ssize_t i
    cdef uint8_t c
    cdef bint prev_cons = False
    for i in range(k):
        c = w[i]
        if snl_vowel_letter(c):
            return True
        if c == b'y':
            if prev_cons:
                return True  # y after a consonant is a vowel
            prev_cons = True
        else:
            prev_cons = True
    return False


cdef inline bint snl_ends(const uint8_t* w, Py_ssize_t n, const char* suf, Py_ssize_t sl) noexcept nogil:
    """Does w[0:n] end with the sl-byte suffix suf?"""
    return n >= sl and w[n - 1] == <uint8_t>suf[sl - 1] and memcmp(w + n - sl, suf, sl) == 0


cdef inline bint snl_ends_double_cons(const uint8_t* w, Py_ssize_t n) noexcept nogil:
    return n >= 2 and w[n - 1] == w[n - 2] and snl_cons(w, n - 1)


cdef bint snl_ends_cvc(const uint8_t* w, Py_ssize_t n) noexcept nogil:
    """Porter's *o: consonant-vowel-consonant, the last not w/x/y; NLTK also accepts a
    two-letter vowel-consonant word (there a final y counts)."""
    cdef uint8_t c
    if n >= 3:
        c = w[n - 1]
        return (snl_cons(w, n - 3) and not snl_cons(w, n - 2) and snl_cons(w, n - 1)
                and c != b'w' and c != b'x' and c != b'y')
    if n == 2:
        return not snl_cons(w, 0) and snl_cons(w, 1)
    return False


# --------------------------------------------------------------------------- rule helpers


cdef inline Py_ssize_t snl_rule(uint8_t* w, Py_ssize_t n, const char* suf, Py_ssize_t sl,
                                const char* rep, Py_ssize_t rl) noexcept nogil:
    """One (suffix, replacement) rule with condition m(stem) > 0 (steps 2 and 3).

    -1 if the suffix does not match (try the next rule); else the new length: replaced if
    the condition holds, n unchanged if not (the first matching rule decides).  rl <= sl.
    """
    if not snl_ends(w, n, suf, sl):
        return -1
    if snl_measure(w, n - sl) > 0:
        memcpy(w + n - sl, rep, rl)
        return n - sl + rl
    return n


cdef inline Py_ssize_t snl_drop(const uint8_t* w, Py_ssize_t n, const char* suf, Py_ssize_t sl) noexcept nogil:
    """A step 4 rule: remove suf when m(stem) > 1; -1 if no match, else the new length."""
    if not snl_ends(w, n, suf, sl):
        return -1
    return n - sl if snl_measure(w, n - sl) > 1 else n


cdef inline bint snl_is(const uint8_t* w, Py_ssize_t n, const char* s, Py_ssize_t sl) noexcept nogil:
    return n == sl and memcmp(w, s, sl) == 0


cdef inline Py_ssize_t snl_put(uint8_t* w, const char* s, Py_ssize_t sl) noexcept nogil:
    memcpy(w, s, sl)
    return sl


# --------------------------------------------------------------------------- steps


cdef Py_ssize_t snl_irregular(uint8_t* w, Py_ssize_t n) noexcept nogil:
    """The irregular-forms pool: the new length, or -1 if w is not one of the forms."""
    if n < 3 or n > 8:
        return -1
    if snl_is(w, n, b"sky", 3) or snl_is(w, n, b"skies", 5):
        return snl_put(w, b"sky", 3)
    if snl_is(w, n, b"dying", 5):
        return snl_put(w, b"die", 3)
    if snl_is(w, n, b"lying", 5):
        return snl_put(w, b"lie", 3)
    if snl_is(w, n, b"tying", 5):
        return snl_put(w, b"tie", 3)
    if snl_is(w, n, b"news", 4):
        return n
    if snl_is(w, n, b"innings", 7) or snl_is(w, n, b"inning", 6):
        return snl_put(w, b"inning", 6)
    if snl_is(w, n, b"outings", 7) or snl_is(w, n, b"outing", 6):
        return snl_put(w, b"outing", 6)
    if snl_is(w, n, b"cannings", 8) or snl_is(w, n, b"canning", 7):
        return snl_put(w, b"canning", 7)
    if (snl_is(w, n, b"howe", 4) or snl_is(w, n, b"proceed", 7) or snl_is(w, n, b"exceed", 6)
            or snl_is(w, n, b"succeed", 7)):
        return n  # these map to themselves
    return -1


cdef Py_ssize_t snl_step1a(const uint8_t* w, Py_ssize_t n) noexcept nogil:
    if n == 4 and snl_ends(w, n, b"ies", 3):
        return n - 1  # "ties" -> "tie"
    if snl_ends(w, n, b"sses", 4) or snl_ends(w, n, b"ies", 3):
        return n - 2
    if snl_ends(w, n, b"ss", 2):
        return n
    if snl_ends(w, n, b"s", 1):
        return n - 1
    return n


cdef Py_ssize_t snl_step1b(uint8_t* w, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t s
    cdef uint8_t c
    if snl_ends(w, n, b"ied", 3):
        return n - 1 if n == 4 else n - 2  # "died" -> "die", "spied" -> "spi"
    if snl_ends(w, n, b"eed", 3):
        return n - 1 if snl_measure(w, n - 3) > 0 else n
    if snl_ends(w, n, b"ed", 2) and snl_has_vowel(w, n - 2):
        s = n - 2
    elif snl_ends(w, n, b"ing", 3) and snl_has_vowel(w, n - 3):
        s = n - 3
    else:
        return n
    # Tidy-up of the stem w[0:s] left by "ed" / "ing" (w[s] is inside the old word).
    if snl_ends(w, s, b"at", 2) or snl_ends(w, s, b"bl", 2) or snl_ends(w, s, b"iz", 2):
        w[s] = b'e'
        return s + 1
    if snl_ends_double_cons(w, s):
        c = w[s - 1]
        return s if (c == b'l' or c == b's' or c == b'z') else s - 1
    if snl_measure(w, s) == 1 and snl_ends_cvc(w, s):
        w[s] = b'e'
        return s + 1
    return s


cdef Py_ssize_t snl_step1c(uint8_t* w, Py_ssize_t n) noexcept nogil:
    # final y -> i after a consonant that is not the first letter
    if n > 2 and w[n - 1] == b'y' and snl_cons(w, n - 2):
        w[n - 1] = b'i'
    return n


cdef Py_ssize_t snl_step2(uint8_t* w, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t r
    if snl_ends(w, n, b"alli", 4) and snl_measure(w, n - 4) > 0:
        n -= 2  # "...alli" -> "...al", then step 2 once more (it cannot match "alli" again)
    # Porter's table in order; the first suffix that matches decides.
    r = snl_rule(w, n, b"ational", 7, b"ate", 3)
    if r < 0: r = snl_rule(w, n, b"tional", 6, b"tion", 4)
    if r < 0: r = snl_rule(w, n, b"enci", 4, b"ence", 4)
    if r < 0: r = snl_rule(w, n, b"anci", 4, b"ance", 4)
    if r < 0: r = snl_rule(w, n, b"izer", 4, b"ize", 3)
    if r < 0: r = snl_rule(w, n, b"bli", 3, b"ble", 3)
    if r < 0: r = snl_rule(w, n, b"alli", 4, b"al", 2)
    if r < 0: r = snl_rule(w, n, b"entli", 5, b"ent", 3)
    if r < 0: r = snl_rule(w, n, b"eli", 3, b"e", 1)
    if r < 0: r = snl_rule(w, n, b"ousli", 5, b"ous", 3)
    if r < 0: r = snl_rule(w, n, b"ization", 7, b"ize", 3)
    if r < 0: r = snl_rule(w, n, b"ation", 5, b"ate", 3)
    if r < 0: r = snl_rule(w, n, b"ator", 4, b"ate", 3)
    if r < 0: r = snl_rule(w, n, b"alism", 5, b"al", 2)
    if r < 0: r = snl_rule(w, n, b"iveness", 7, b"ive", 3)
    if r < 0: r = snl_rule(w, n, b"fulness", 7, b"ful", 3)
    if r < 0: r = snl_rule(w, n, b"ousness", 7, b"ous", 3)
    if r < 0: r = snl_rule(w, n, b"aliti", 5, b"al", 2)
    if r < 0: r = snl_rule(w, n, b"iviti", 5, b"ive", 3)
    if r < 0: r = snl_rule(w, n, b"biliti", 6, b"ble", 3)
    if r < 0: r = snl_rule(w, n, b"fulli", 5, b"ful", 3)
    if r < 0 and snl_ends(w, n, b"logi", 4):
        # "logi" -> "log": the condition is measured on the stem that keeps the 'l'
        r = n - 1 if snl_measure(w, n - 3) > 0 else n
    return n if r < 0 else r


cdef Py_ssize_t snl_step3(uint8_t* w, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t r
    r = snl_rule(w, n, b"icate", 5, b"ic", 2)
    if r < 0: r = snl_rule(w, n, b"ative", 5, b"", 0)
    if r < 0: r = snl_rule(w, n, b"alize", 5, b"al", 2)
    if r < 0: r = snl_rule(w, n, b"iciti", 5, b"ic", 2)
    if r < 0: r = snl_rule(w, n, b"ical", 4, b"ic", 2)
    if r < 0: r = snl_rule(w, n, b"ful", 3, b"", 0)
    if r < 0: r = snl_rule(w, n, b"ness", 4, b"", 0)
    return n if r < 0 else r


cdef Py_ssize_t snl_step4(const uint8_t* w, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t r
    r = snl_drop(w, n, b"al", 2)
    if r < 0: r = snl_drop(w, n, b"ance", 4)
    if r < 0: r = snl_drop(w, n, b"ence", 4)
    if r < 0: r = snl_drop(w, n, b"er", 2)
    if r < 0: r = snl_drop(w, n, b"ic", 2)
    if r < 0: r = snl_drop(w, n, b"able", 4)
    if r < 0: r = snl_drop(w, n, b"ible", 4)
    if r < 0: r = snl_drop(w, n, b"ant", 3)
    if r < 0: r = snl_drop(w, n, b"ement", 5)
    if r < 0: r = snl_drop(w, n, b"ment", 4)
    if r < 0: r = snl_drop(w, n, b"ent", 3)
    if r < 0 and snl_ends(w, n, b"ion", 3):
        # "ion" also needs the stem to end in s or t (m > 1 implies the stem is not empty)
        r = n - 3 if (snl_measure(w, n - 3) > 1 and (w[n - 4] == b's' or w[n - 4] == b't')) else n
    if r < 0: r = snl_drop(w, n, b"ou", 2)
    if r < 0: r = snl_drop(w, n, b"ism", 3)
    if r < 0: r = snl_drop(w, n, b"ate", 3)
    if r < 0: r = snl_drop(w, n, b"iti", 3)
    if r < 0: r = snl_drop(w, n, b"ous", 3)
    if r < 0: r = snl_drop(w, n, b"ive", 3)
    if r < 0: r = snl_drop(w, n, b"ize", 3)
    return n if r < 0 else r


cdef Py_ssize_t snl_step5a(const uint8_t* w, Py_ssize_t n) noexcept nogil:
    cdef int m
    if snl_ends(w, n, b"e", 1):
        m = snl_measure(w, n - 1)
        if m > 1 or (m == 1 and not snl_ends_cvc(w, n - 1)):
            return n - 1
    return n


cdef Py_ssize_t snl_step5b(const uint8_t* w, Py_ssize_t n) noexcept nogil:
    if snl_ends(w, n, b"ll", 2) and snl_measure(w, n - 1) > 1:
        return n - 1
    return n


# --------------------------------------------------------------------------- entry point


cdef Py_ssize_t snl_stem(uint8_t* w, Py_ssize_t n, Py_ssize_t cap) noexcept nogil:
    """Stem w[0:n] in place, as rougekit.compat._porter_nltk.stem does; return the new length.

    ASCII A-Z are lower-cased first (the Python twin lower-cases; for [a-z0-9] input this is
    a no-op).  The stem is never longer than the word, so with cap >= n (the contract: the
    buffer holds cap >= n + 8 bytes) the result is >= 0; -(stem length) would be returned if
    the stem did not fit in cap.
    """
    cdef Py_ssize_t i, r
    for i in range(n):
        if b'A' <= w[i] <= b'Z':
            w[i] += 32
    r = snl_irregular(w, n)
    if r >= 0:
        n = r
    elif n > 2:  # words of at most two letters are kept as they are
        n = snl_step1a(w, n)
        n = snl_step1b(w, n)
        n = snl_step1c(w, n)
        n = snl_step2(w, n)
        n = snl_step3(w, n)
        n = snl_step4(w, n)
        n = snl_step5a(w, n)
        n = snl_step5b(w, n)
    return n if n <= cap else -n
