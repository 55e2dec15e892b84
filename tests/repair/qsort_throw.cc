// An exception thrown from qsort's comparison callback, through libc's qsort
// code, caught in main: libgcc unwinds through libc with libc's table.
#include <cstdlib>
#include <cstdio>
#include <stdexcept>
static int cmp(const void *a, const void *b) { if (*(const int*)a == 3) throw std::runtime_error("from qsort"); return *(const int*)a - *(const int*)b; }
int main() { int v[] = {5, 3, 9, 1}; try { qsort(v, 4, sizeof v[0], cmp); } catch (const std::exception &e) { std::printf("caught %s\n", e.what()); return 0; } return 1; }
/* SPDX-License-Identifier: Apache-2.0 */
