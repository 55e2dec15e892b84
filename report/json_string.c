/* SPDX-License-Identifier: Apache-2.0 */
/*
 * json_string: JSON string literals that are always valid UTF-8.
 */
#include "json_string.h"

size_t json_string_utf8_sequence(const unsigned char *s, int *valid)
{
    size_t len;
    unsigned char lo = 0x80, hi = 0xbf;   /* the range of the second byte */
    *valid = 0;
    if (s[0] >= 0xc2 && s[0] <= 0xdf) {
        len = 2;
    } else if (s[0] >= 0xe0 && s[0] <= 0xef) {
        len = 3;
        lo = s[0] == 0xe0 ? 0xa0 : 0x80;
        hi = s[0] == 0xed ? 0x9f : 0xbf;
    } else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
        len = 4;
        lo = s[0] == 0xf0 ? 0x90 : 0x80;
        hi = s[0] == 0xf4 ? 0x8f : 0xbf;
    } else {
        return 1;
    }
    if (s[1] < lo || s[1] > hi)
        return 1;
    for (size_t i = 2; i < len; i++)
        if (s[i] < 0x80 || s[i] > 0xbf)   /* also stops at the terminating NUL */
            return i;
    *valid = 1;
    return len;
}

void json_string_print(FILE *out, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    fputc('"', out);
    while (*p) {
        int valid = 1;
        size_t len = *p < 0x80 ? 1 : json_string_utf8_sequence(p, &valid);
        if (!valid)
            fputs("\\ufffd", out);
        else if (*p == '"' || *p == '\\')
            fprintf(out, "\\%c", *p);
        else if (*p < 0x20)
            fprintf(out, "\\u%04x", *p);
        else
            fwrite(p, 1, len, out);
        p += len;
    }
    fputc('"', out);
}
