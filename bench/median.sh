# SPDX-License-Identifier: Apache-2.0
# bench/median.sh: what the benchmark scripts' awk programs share (sourced):
#   median_awk   an awk function, med(A, N): the median of A[0..N-1] (sorts A);
#                put it before a program: awk "$median_awk"' ... '
median_awk='
    function med(a, n,   i, j, t) { for (i = 0; i < n; i++) for (j = i + 1; j < n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
        return n ? (n % 2 ? a[int(n / 2)] : (a[n / 2 - 1] + a[n / 2]) / 2) : 0 }'
