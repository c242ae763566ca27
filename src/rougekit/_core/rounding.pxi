# R/P rounded like the script's ``%7.5f`` (exactly: round-half-even on the binary value, as printf
# and Python do) and F from the rounded values (docs/rouge155/rounding-and-f.md).

cdef double _round5_slow(double x) noexcept nogil:
    cdef char buf[512]
    snprintf(buf, sizeof(buf), "%7.5f", x)
    return strtod(buf, NULL)


cdef inline double _round5(double x) noexcept nogil:
    """``float("%7.5f" % x)``: round x*1e5 to an integer on the exact binary value (ties to even)."""
    cdef double y, err, t, d, r
    if not (x >= 0.0 and x < 1e9):
        return _round5_slow(x)
    y = x * 1e5
    err = fma(x, 1e5, -y)          # x * 1e5 == y + err exactly
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
