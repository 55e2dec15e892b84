/* SPDX-License-Identifier: Apache-2.0 */
/*
 * demangle: C++ names as perf 6.1 prints them (see the header).
 */
#include "demangle.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* libstdc++'s demangler (cxxabi.h is C++ only). */
char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

/*
 * perf 6.1 demangles with libiberty's cplus_demangle(name, 0)
 * (symbol-elf.c demangle_sym; DMGL_PARAMS only under -v): a function's
 * name without its parameters, return type or qualifiers
 * ("std::__introsort_loop<...>", "work(int)::{lambda(int, int)#1}::operator()"),
 * and anything after the name is ignored (".cold", ".constprop.0",
 * "@@GLIBCXX_3.4").  __cxa_demangle prints the whole signature; the name is
 * cut back out of it.  Checked against libbfd's cplus_demangle on the
 * 93,468 C++ symbols of libLLVM, libclang, libz3, libstdc++, libgrpc and
 * libicu, and on a program of operators, conversions, lambdas, local
 * classes, abi tags and templates returning function pointers: all agree.
 */

static int ends_with(const char *s, size_t end, const char *tail)
{
    size_t n = strlen(tail);
    return end >= n && memcmp(s + end - n, tail, n) == 0;
}

static int is_word_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* Where the bracket opening the group that S[end - 1] closes is; END when
 * it is unbalanced.  Angle brackets count outside parentheses only
 * (libiberty prints "(a)>(b)" in a template's arguments in parentheses). */
static size_t group_start(const char *s, size_t end, char open, char close)
{
    int depth = 0, parens = 0;
    for (size_t i = end; i-- > 0;) {
        char c = s[i];
        if (open == '<' && (c == ')' || c == '(')) {
            parens += c == ')' ? 1 : -1;
            continue;
        }
        if (open == '<' && parens)
            continue;
        if (c == close)
            depth++;
        else if (c == open && --depth == 0)
            return i;
    }
    return end;
}

/* When S[0, end) ends with an operator's name ("operator<<", "operator()",
 * "operator new[]"): where "operator" starts; else END. */
static size_t operator_start(const char *s, size_t end)
{
    static const char symbols[] = "+-*/%^&|~!=<>,()[]?";
    size_t i = end;
    while (i > 0 && s[i - 1] && strchr(symbols, s[i - 1]) && end - i < 3)
        i--;
    for (; i < end; i++)   /* the longest run of symbols after "operator" */
        if (ends_with(s, i, "operator") && (i == 8 || !is_word_char(s[i - 9])))
            return i - 8;
    static const char *const words[] = {"operator new", "operator new[]", "operator delete",
                                        "operator delete[]", "operator co_await"};
    for (size_t k = 0; k < sizeof words / sizeof words[0]; k++)
        if (ends_with(s, end, words[k])) {
            size_t at = end - strlen(words[k]);
            if (at == 0 || !is_word_char(s[at - 1]))
                return at;
        }
    return end;
}

/* Where the component of a qualified name that ends at END starts: "foo",
 * "foo<int>", "foo[abi:cxx11]", "operator<< <char>", "(anonymous
 * namespace)", "main()" (a local name's function), "{lambda(int)#1}". */
static size_t component_start(const char *s, size_t end)
{
    size_t i = end;
    while (i > 0) {
        size_t op = operator_start(s, i);
        if (op < i)
            return op;
        char c = s[i - 1];
        size_t j;
        if (c == '>')
            j = group_start(s, i, '<', '>');
        else if (c == ')')
            j = group_start(s, i, '(', ')');
        else if (c == ']')
            j = group_start(s, i, '[', ']');
        else if (c == '}')
            j = group_start(s, i, '{', '}');
        else
            break;
        if (j == i)
            return end;   /* unbalanced: not a name */
        i = j;
        if (c == '>' && i >= 2 && s[i - 1] == ' ' && s[i - 2] == '<')
            i--;   /* "operator<< <char>" */
    }
    while (i > 0 && (is_word_char(s[i - 1]) || s[i - 1] == '$' || s[i - 1] == '~' || s[i - 1] == '.'))
        i--;
    return i;
}

/* Where the qualified name that ends at END starts. */
static size_t qualified_name_start(const char *s, size_t end)
{
    size_t i = end;
    for (;;) {
        size_t j = component_start(s, i);
        if (j == i)
            return i;
        i = j;
        if (i >= 2 && s[i - 1] == ':' && s[i - 2] == ':')
            i -= 2;
        else if (i >= 9 && s[i - 1] == ' ' && ends_with(s, i - 1, "operator"))
            i -= 9;   /* a conversion: "operator std::string" */
        else if (i >= 11 && s[i - 1] == ' ' && ends_with(s, i - 1, "operator\"\""))
            i -= 11;   /* a literal operator: operator"" _km */
        else
            return i;
    }
}

/* Cut the top-level function's qualifiers, parameters and return type off
 * D, __cxa_demangle's output. */
static void function_name_only(char *d)
{
    static const char *const quals[] = {" const", " volatile", " restrict", " &&", " &", " transaction_safe",
                                        " noexcept"};
    size_t n = strlen(d);
    for (int again = 1; again;) {
        again = 0;
        for (size_t k = 0; k < sizeof quals / sizeof quals[0]; k++)
            if (ends_with(d, n, quals[k])) {
                n -= strlen(quals[k]);
                again = 1;
            }
        if (n && d[n - 1] == ')') {   /* " noexcept(...)", " throw(...)" */
            size_t open = group_start(d, n, '(', ')');
            if (open < n && (ends_with(d, open, " noexcept") || ends_with(d, open, " throw"))) {
                n = open - (ends_with(d, open, " throw") ? 6 : 9);
                again = 1;
            }
        }
    }
    d[n] = '\0';
    if (n == 0 || d[n - 1] != ')')
        return;   /* not a function: a variable's name */
    size_t open = group_start(d, n, '(', ')');
    if (open == n)
        return;
    n = open;
    d[n] = '\0';
    /* A template returning a function pointer: "void (*ns::f<int>(int))(int)". */
    if (n && d[n - 1] == ')' && operator_start(d, n) == n) {
        size_t inner = group_start(d, n, '(', ')');
        if (inner < n && (d[inner + 1] == '*' || d[inner + 1] == '&')) {
            size_t skip = inner + 2 + (d[inner + 2] == '&');
            d[n - 1] = '\0';
            memmove(d, d + skip, n - 1 - skip + 1);
            function_name_only(d);
            return;
        }
    }
    /* Only a template's return type is printed, before its name:
     * "void std::sort<int*>". */
    if (n && d[n - 1] == '>' && operator_start(d, n) == n) {
        size_t start = qualified_name_start(d, n);
        if (start > 0 && start < n && d[start - 1] == ' ')
            memmove(d, d + start, n - start + 1);
    }
}

char *demangle_symbol(const char *name)
{
    if (name[0] != '_' || name[1] != 'Z')
        return NULL;
    size_t n = strcspn(name + 2, ".@") + 2;
    char *cut = strndup(name, n);
    if (!cut)
        return NULL;
    int status;
    char *d = __cxa_demangle(cut, NULL, NULL, &status);
    free(cut);
    if (!d)
        return NULL;
    if (name[2] != 'T' && name[2] != 'G') {
        function_name_only(d);
    } else if (name[n] == '@' && (strncmp(name, "_ZTh", 4) == 0 || strncmp(name, "_ZTv", 4) == 0 ||
                                  strncmp(name, "_ZTc", 4) == 0 || strncmp(name, "_ZGA", 4) == 0 ||
                                  strncmp(name, "_ZGT", 4) == 0)) {
        /* A thunk's or clone's target is demangled with its parameters,
         * and libiberty reads "@VERSION" as one: it fails. */
        free(d);
        return NULL;
    }
    return d;
}

