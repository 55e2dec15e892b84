/* SPDX-License-Identifier: Apache-2.0 */
/*
 * json_string: the one JSON string escaper of every JSON output (dwcheck's
 * JSON Lines and SARIF, dwtable's and dwsynth's tables).
 *
 * A string is written with its quotes, `"` and `\` escaped, control
 * characters as \u00XX, and always as valid UTF-8: bytes that are not
 * well-formed UTF-8 (a path or a symbol name in another encoding) become
 * U+FFFD, one for each maximal subpart of a sequence, as Python's and
 * browsers' decoders do.  It writes to a FILE and never fails on its own;
 * callers check ferror() once at the end.
 */
#ifndef DWCHECK_JSON_STRING_H
#define DWCHECK_JSON_STRING_H

#include <stddef.h>
#include <stdio.h>

/* S (NUL-terminated) as a JSON string literal on OUT. */
void json_string_print(FILE *out, const char *s);

/* The length of the UTF-8 sequence that starts at S, a byte above 0x7f
 * (of a NUL-terminated string): a well-formed one (RFC 3629: no overlong
 * form, no surrogate, nothing past U+10FFFF), *VALID set; or else the
 * maximal subpart of one (at least the byte S), which one U+FFFD replaces
 * as the Unicode standard recommends.  (The HTML report's escaper uses it
 * too.) */
size_t json_string_utf8_sequence(const unsigned char *s, int *valid);

#endif
