#!/usr/bin/env python3
"""Derives the polynomial coefficients of kernels/common/gpux_random.h (the deterministic
log, sin and cos behind gpux's normal distribution) and prints them as C hex-float
literals. Not part of the build: the coefficients are committed; this records where they
came from. Least squares on Chebyshev nodes in 60-digit arithmetic (close to minimax),
each coefficient then rounded to the target precision. Needs mpmath.

    python3 tools/random_poly.py
"""
import mpmath as mp

mp.mp.dps = 60


def fit(fn, a, b, deg, npts=400):
    xs = [(a + b) / 2 + (b - a) / 2 * mp.cos(mp.pi * (k + mp.mpf(1) / 2) / npts) for k in range(npts)]
    A = mp.matrix(npts, deg + 1)
    y = mp.matrix(npts, 1)
    for i, x in enumerate(xs):
        for j in range(deg + 1):
            A[i, j] = x ** j
        y[i] = fn(x)
    c = mp.qr_solve(A, y)[0]
    return [c[j] for j in range(deg + 1)]


def hexf(v, double):
    f = float(v)
    if not double:
        import struct
        f = struct.unpack('f', struct.pack('f', f))[0]
    return f.hex().replace('0x', '0x').replace('p', 'p') + ('' if double else 'f')


def show(name, cs, double):
    print(name + ':')
    for j, c in enumerate(cs):
        print('  c%d = %s  /* %s */' % (j, hexf(c, double), mp.nstr(c, 20)))


sqrt2 = mp.sqrt(2)
# float32 log1p(f) = f + f^2 * R(f), f in [sqrt(1/2) - 1, sqrt(2) - 1]
R = lambda f: (mp.log1p(f) - f) / f ** 2 if f != 0 else mp.mpf(-1) / 2
show('log1p R(f), float32', fit(R, 1 / sqrt2 - 1, sqrt2 - 1, 8), False)
# sin(pi/2 y) = y * S(y^2), cos(pi/2 y) = C(y^2), y in [-1/2, 1/2]
S = lambda x: mp.sin(mp.pi / 2 * mp.sqrt(x)) / mp.sqrt(x) if x != 0 else mp.pi / 2
C = lambda x: mp.cos(mp.pi / 2 * mp.sqrt(x))
show('S(x), float32', fit(S, 0, mp.mpf(1) / 4, 4), False)
show('C(x), float32', fit(C, 0, mp.mpf(1) / 4, 4), False)
# float64 log1p(f) = 2s + s * z * T(z), s = f / (2 + f), z = s^2,
# |s| <= (sqrt2 - 1) / (sqrt2 + 1)
smax = (sqrt2 - 1) / (sqrt2 + 1)
T = lambda z: (2 * mp.atanh(mp.sqrt(z)) - 2 * mp.sqrt(z)) / mp.sqrt(z) ** 3 if z != 0 else mp.mpf(2) / 3
show('T(z), float64', fit(T, 0, smax ** 2, 6), True)
show('S(x), float64', fit(S, 0, mp.mpf(1) / 4, 8), True)
show('C(x), float64', fit(C, 0, mp.mpf(1) / 4, 8), True)
