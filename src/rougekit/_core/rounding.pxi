# R/P rounded like the script's ``%7.5f`` (exactly: round-half-even on the binary value, as printf
# and Python do) and F from the rounded values (docs/rouge155/rounding-and-f.md).

cdef double _round5_slow(double x) noexcept nogil:
    cdef char buf[512]
    snprintf(buf, sizeof(buf), "%7.5f", x)
    return strtod(buf, NULL)


cdef inline double _hi41(double x) noexcept nogil:
    """``x`` with the low 12 bits of its significand cleared."""
    cdef uint64_t b
    memcpy(&b, &x, 8)
    b &= ~(<uint64_t>0xFFF)
    memcpy(&x, &b, 8)
    return x


cdef inline double _round5(double x) noexcept nogil:
    """``float("%7.5f" % x)``: round x*1e5 to an integer on the exact binary value (ties to even)."""
    cdef double y, err, t, d, r, xh
    if not (x >= 0.0 and x < 1e9):
        return _round5_slow(x)
    y = x * 1e5
    # x * 1e5 - y exactly, without fma (a libm call here): x's top 41 significant bits (xh) and the
    # rest (xl, at most 12) times 1e5 (3125 * 2^5: 12 significant bits) are exact, and
    # xh * 1e5 >= xl * 1e5, so (y - xh * 1e5) is exact and so is the error (Fast2Sum)
    xh = _hi41(x)
    err = (x - xh) * 1e5 - (y - xh * 1e5)
    t = floor(y)
    d = y - (t + 0.5)              # exact where it matters (Sterbenz)
    if d > -err:
        r = t + 1.0
    elif d < -err:
        r = t
    else:                          # an exact tie: half to even, as printf and Python do
        r = t if fmod(t, 2.0) == 0.0 else t + 1.0
    return r / 1e5


cdef inline double _f_measure(double r, double p, double alpha) noexcept nogil:
    cdef double denom = (1.0 - alpha) * p + alpha * r
    if denom > 0:
        return (p * r) / denom
    return 0.0


def _round5_py(double x):
    """Test hook: the C rounding of ``_round5``."""
    return _round5(x)
