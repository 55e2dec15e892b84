/* SPDX-License-Identifier: Apache-2.0 */
/*
 * symbol_tree: the red-black tree perf 6.1 keeps an object's symbols in,
 * rebuilt node for node, the fix-ups perf applies to it, and the ranges of
 * its descent (see symbol_table.c's header for why the tree's shape matters).
 */
#include "symbol_table_private.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>

int symbol_table_add_name(struct symbol_table *t, const char *name, size_t len, size_t *at)
{
    if (t->names_len + len + 1 > t->names_cap) {
        size_t cap = t->names_cap ? t->names_cap : 4096;
        while (t->names_len + len + 1 > cap)
            cap *= 2;
        char *n = realloc(t->names, cap);
        if (!n)
            return -1;
        t->names = n;
        t->names_cap = cap;
    }
    memcpy(t->names + t->names_len, name, len);
    t->names[t->names_len + len] = '\0';
    *at = t->names_len;
    t->names_len += len + 1;
    return 0;
}

static const char *symbols_name_of(const struct symbol_table *t, int32_t i)
{
    return t->names + t->symbols[i].name;
}

/* ---- perf's red-black tree ----------------------------------------------------- */

/*
 * The kernel's rbtree (lib/rbtree.c) is the textbook red-black tree:
 * insertion recolours or rotates as in CLRS's RB-INSERT-FIXUP, erasure
 * replaces a node that has two children by its successor and rebalances as
 * RB-DELETE-FIXUP.  The same operations in the same order give the same
 * shape.  Equal starts go right (__symbols__insert), so the in-order walk
 * keeps them in insertion order.
 */

static int is_red(const struct symbol_table *t, int32_t i)
{
    return i != NONE && t->symbols[i].red;
}

static void set_child(struct symbol_table *t, int32_t parent, int32_t old, int32_t new)
{
    if (parent == NONE)
        t->root = new;
    else if (t->symbols[parent].left == old)
        t->symbols[parent].left = new;
    else
        t->symbols[parent].right = new;
}

static void rotate_left(struct symbol_table *t, int32_t x)
{
    struct symbol *s = t->symbols;
    int32_t y = s[x].right;
    s[x].right = s[y].left;
    if (s[y].left != NONE)
        s[s[y].left].parent = x;
    s[y].parent = s[x].parent;
    set_child(t, s[x].parent, x, y);
    s[y].left = x;
    s[x].parent = y;
}

static void rotate_right(struct symbol_table *t, int32_t x)
{
    struct symbol *s = t->symbols;
    int32_t y = s[x].left;
    s[x].left = s[y].right;
    if (s[y].right != NONE)
        s[s[y].right].parent = x;
    s[y].parent = s[x].parent;
    set_child(t, s[x].parent, x, y);
    s[y].right = x;
    s[x].parent = y;
}

static void symbols_tree_insert(struct symbol_table *t, int32_t z)
{
    struct symbol *s = t->symbols;
    int32_t parent = NONE, *link = &t->root;
    while (*link != NONE) {
        parent = *link;
        link = s[z].start < s[parent].start ? &s[parent].left : &s[parent].right;
    }
    *link = z;
    s[z].parent = parent;
    s[z].left = s[z].right = NONE;
    s[z].red = 1;
    t->in_tree++;
    while (is_red(t, s[z].parent)) {
        int32_t p = s[z].parent, g = s[p].parent;
        if (p == s[g].left) {
            int32_t uncle = s[g].right;
            if (is_red(t, uncle)) {
                s[p].red = s[uncle].red = 0;
                s[g].red = 1;
                z = g;
                continue;
            }
            if (z == s[p].right) {
                z = p;
                rotate_left(t, z);
                p = s[z].parent;
            }
            s[p].red = 0;
            s[g].red = 1;
            rotate_right(t, g);
        } else {
            int32_t uncle = s[g].left;
            if (is_red(t, uncle)) {
                s[p].red = s[uncle].red = 0;
                s[g].red = 1;
                z = g;
                continue;
            }
            if (z == s[p].left) {
                z = p;
                rotate_right(t, z);
                p = s[z].parent;
            }
            s[p].red = 0;
            s[g].red = 1;
            rotate_left(t, g);
        }
    }
    s[t->root].red = 0;
}

static int32_t symbols_leftmost(const struct symbol_table *t, int32_t i)
{
    while (i != NONE && t->symbols[i].left != NONE)
        i = t->symbols[i].left;
    return i;
}

static int32_t symbols_next_in_order(const struct symbol_table *t, int32_t i)
{
    const struct symbol *s = t->symbols;
    if (s[i].right != NONE)
        return symbols_leftmost(t, s[i].right);
    while (s[i].parent != NONE && i == s[s[i].parent].right)
        i = s[i].parent;
    return s[i].parent;
}

/* Put V where U is (U's subtree links stay U's). */
static void transplant(struct symbol_table *t, int32_t u, int32_t v)
{
    set_child(t, t->symbols[u].parent, u, v);
    if (v != NONE)
        t->symbols[v].parent = t->symbols[u].parent;
}

static void erase_fixup(struct symbol_table *t, int32_t x, int32_t xp)
{
    struct symbol *s = t->symbols;
    while (x != t->root && !is_red(t, x) && xp != NONE) {
        if (x == s[xp].left) {
            int32_t w = s[xp].right;
            if (is_red(t, w)) {
                s[w].red = 0;
                s[xp].red = 1;
                rotate_left(t, xp);
                w = s[xp].right;
            }
            if (!is_red(t, s[w].left) && !is_red(t, s[w].right)) {
                s[w].red = 1;
                x = xp;
                xp = s[x].parent;
                continue;
            }
            if (!is_red(t, s[w].right)) {
                s[s[w].left].red = 0;
                s[w].red = 1;
                rotate_right(t, w);
                w = s[xp].right;
            }
            s[w].red = s[xp].red;
            s[xp].red = 0;
            s[s[w].right].red = 0;
            rotate_left(t, xp);
        } else {
            int32_t w = s[xp].left;
            if (is_red(t, w)) {
                s[w].red = 0;
                s[xp].red = 1;
                rotate_right(t, xp);
                w = s[xp].left;
            }
            if (!is_red(t, s[w].left) && !is_red(t, s[w].right)) {
                s[w].red = 1;
                x = xp;
                xp = s[x].parent;
                continue;
            }
            if (!is_red(t, s[w].left)) {
                s[s[w].right].red = 0;
                s[w].red = 1;
                rotate_left(t, w);
                w = s[xp].left;
            }
            s[w].red = s[xp].red;
            s[xp].red = 0;
            s[s[w].left].red = 0;
            rotate_right(t, xp);
        }
        x = t->root;
        break;
    }
    if (x != NONE)
        s[x].red = 0;
}

static void symbols_tree_erase(struct symbol_table *t, int32_t z)
{
    struct symbol *s = t->symbols;
    int32_t x, xp, y = z;
    int y_red = s[y].red;
    if (s[z].left == NONE) {
        x = s[z].right;
        xp = s[z].parent;
        transplant(t, z, x);
    } else if (s[z].right == NONE) {
        x = s[z].left;
        xp = s[z].parent;
        transplant(t, z, x);
    } else {
        y = symbols_leftmost(t, s[z].right);
        y_red = s[y].red;
        x = s[y].right;
        if (s[y].parent == z) {
            xp = y;
        } else {
            xp = s[y].parent;
            transplant(t, y, x);
            s[y].right = s[z].right;
            s[s[y].right].parent = y;
        }
        transplant(t, z, y);
        s[y].left = s[z].left;
        s[s[y].left].parent = y;
        s[y].red = s[z].red;
    }
    s[z].left = s[z].right = s[z].parent = NONE;
    t->in_tree--;
    if (!y_red)
        erase_fixup(t, x, xp);
}

/* symbols__find: the descent.  A symbol holds [start, end), and a symbol
 * of no length its start. */
static int32_t symbols_tree_find(const struct symbol_table *t, uint64_t ip)
{
    int32_t n = t->root;
    while (n != NONE) {
        const struct symbol *s = &t->symbols[n];
        if (ip < s->start)
            n = s->left;
        else if (ip > s->end || (ip == s->end && ip != s->start))
            n = s->right;
        else
            return n;
    }
    return NONE;
}

/* ---- symbols: perf's rules -------------------------------------------------------- */

int symbol_table_add(struct symbol_table *t, uint64_t start, uint64_t size, uint8_t bind, uint8_t type,
                      const char *name, size_t len)
{
    if (t->nsymbols == t->symbols_cap) {
        size_t cap = t->symbols_cap ? 2 * t->symbols_cap : 1024;
        if (cap > INT32_MAX)
            return -1;
        struct symbol *n = realloc(t->symbols, cap * sizeof *n);
        if (!n)
            return -1;
        t->symbols = n;
        t->symbols_cap = cap;
    }
    struct symbol *s = &t->symbols[t->nsymbols];
    *s = (struct symbol){.start = start, .end = size ? start + size : start, .type = type, .bind = bind};
    if (symbol_table_add_name(t, name, len, &s->name) != 0)
        return -1;
    symbols_tree_insert(t, (int32_t)t->nsymbols++);
    return 0;
}

static uint64_t round_up_page(uint64_t v)
{
    return (v + PERF_PAGE - 1) / PERF_PAGE * PERF_PAGE;
}

/* symbols__fixup_end: a symbol without a size ends where the next one
 * starts; the last ends at the page after the one it starts in.  In
 * kallsyms, one followed by a symbol on the other side of the kernel's and
 * the modules' edge ("name\t[module]") ends at roundup(start + 4096, 4096)
 * instead. */
void symbol_table_fixup_end(struct symbol_table *t, int kallsyms)
{
    int32_t prev = symbols_leftmost(t, t->root);
    if (prev == NONE)
        return;
    struct symbol *s = t->symbols;
    for (int32_t curr = symbols_next_in_order(t, prev); curr != NONE; prev = curr, curr = symbols_next_in_order(t, curr)) {
        if (s[prev].end != s[prev].start)
            continue;
        if (kallsyms && !strchr(symbols_name_of(t, prev), '[') != !strchr(symbols_name_of(t, curr), '['))
            s[prev].end = round_up_page(s[prev].end + PERF_PAGE);
        else
            s[prev].end = s[curr].start;
    }
    if (s[prev].end == s[prev].start)
        s[prev].end = round_up_page(s[prev].start) + PERF_PAGE;
}

static size_t leading_underscores(const char *s)
{
    size_t n = 0;
    while (s[n] == '_')
        n++;
    return n;
}

/* choose_best_symbol: of two symbols at one address, whether perf keeps A.
 * It prefers one with a length, then one not weak, then a global one, then
 * fewer leading underscores, then the longer name, then A. */
static int keep_first(const struct symbol_table *t, int32_t a, int32_t b)
{
    const struct symbol *x = &t->symbols[a], *y = &t->symbols[b];
    int la = x->end != x->start, lb = y->end != y->start;
    if (la != lb)
        return la;
    int wa = x->bind == STB_WEAK, wb = y->bind == STB_WEAK;
    if (wa != wb)
        return wb;
    int ga = x->bind == STB_GLOBAL, gb = y->bind == STB_GLOBAL;
    if (ga != gb)
        return ga;
    size_t ua = leading_underscores(symbols_name_of(t, a)), ub = leading_underscores(symbols_name_of(t, b));
    if (ua != ub)
        return ua < ub;
    return strlen(symbols_name_of(t, a)) >= strlen(symbols_name_of(t, b));
}

/* symbols__fixup_duplicate: of the symbols of one start, the one
 * choose_best_symbol prefers stays, compared in in-order pairs. */
void symbol_table_fixup_duplicates(struct symbol_table *t)
{
    int32_t curr = symbols_leftmost(t, t->root);
    while (curr != NONE) {
        int32_t next = symbols_next_in_order(t, curr);
        if (next == NONE)
            break;
        if (t->symbols[curr].start != t->symbols[next].start) {
            curr = next;
            continue;
        }
        if (keep_first(t, curr, next)) {
            symbols_tree_erase(t, next);
        } else {
            symbols_tree_erase(t, curr);
            curr = next;
        }
    }
}

static int by_address(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The descent's answer at every address: it can change only at a symbol's
 * start or end, and just after them.  Returns 0, or -1 out of memory. */
int symbol_table_build_ranges(struct symbol_table *t)
{
    size_t n = 0, cap = 4 * t->nsymbols + 1;
    uint64_t *at = malloc(cap * sizeof *at);
    if (!at)
        return -1;
    for (size_t i = 0; i < t->nsymbols; i++) {
        const struct symbol *s = &t->symbols[i];
        if (s->parent == NONE && (int32_t)i != t->root)
            continue;   /* erased */
        at[n++] = s->start;
        if (s->start != UINT64_MAX)
            at[n++] = s->start + 1;
        at[n++] = s->end;
        if (s->end != UINT64_MAX)
            at[n++] = s->end + 1;
    }
    qsort(at, n, sizeof *at, by_address);
    t->ranges = malloc((n + 1) * sizeof *t->ranges);
    if (!t->ranges) {
        free(at);
        return -1;
    }
    t->nranges = 0;
    for (size_t i = 0; i < n; i++) {
        if (i && at[i] == at[i - 1])
            continue;
        int32_t found = symbols_tree_find(t, at[i]);
        if (t->nranges && t->ranges[t->nranges - 1].symbol == found)
            continue;
        if (!t->nranges && found == NONE)
            continue;
        t->ranges[t->nranges++] = (struct range){at[i], found};
    }
    free(at);
    return 0;
}
