# cython: boundscheck=False, wraparound=False
"""The bootstrap's sums in C: each resample's statistics summed over the sentences it
drew. NumPy did it as counts of the draws (bincount), a float copy and a matrix product:
four passes over a resamples x sentences array, two thirds of ``compare``'s resampling.
The sums run without the GIL, so the next batch is drawn beside them."""

from libc.stdint cimport int64_t

import numpy as np


def resample_sums(const int64_t[:, ::1] drawn, const double[:, ::1] stats):
    """For each row of DRAWN (sentence numbers drawn with replacement), the column sums
    of those rows of STATS."""
    cdef Py_ssize_t k = drawn.shape[0], n = drawn.shape[1], c = stats.shape[1]
    cdef Py_ssize_t r, j, col
    cdef int64_t i
    out = np.zeros((k, c), dtype=np.float64)
    cdef double[:, ::1] o = out
    with nogil:
        for r in range(k):
            for j in range(n):
                i = drawn[r, j]
                for col in range(c):
                    o[r, col] += stats[i, col]
    return out
