/* SPDX-License-Identifier: Apache-2.0 */
/*
 * html_text: escaping for the HTML report (see the header).
 */
#include "html_text.h"

#include <string.h>

#include "report/json_string.h"

/* The first N bytes of S (N bounds a sequence cut by it), escaped. */
static void escape(FILE *out, const char *s, size_t n, int shell_quoted)
{
    const unsigned char *p = (const unsigned char *)s, *end = p + n;
    while (p < end && *p) {
        int valid = 1;
        size_t len = *p < 0x80 ? 1 : json_string_utf8_sequence(p, &valid);
        if (len > (size_t)(end - p)) {
            len = (size_t)(end - p);
            valid = 0;
        }
        int control = (*p < 0x20 && *p != '\t' && *p != '\n' && *p != '\r') || *p == 0x7f ||
                      (valid && len == 2 && p[0] == 0xc2 && p[1] < 0xa0);   /* C1: U+0080-U+009F */
        if (!valid || control)
            fputs("\xef\xbf\xbd", out);   /* U+FFFD */
        else if (*p == '&')
            fputs("&amp;", out);
        else if (*p == '<')
            fputs("&lt;", out);
        else if (*p == '>')
            fputs("&gt;", out);
        else if (*p == '"')
            fputs("&quot;", out);
        else if (*p == '\'')
            fputs(shell_quoted ? "&#39;\\&#39;&#39;" : "&#39;", out);
        else
            fwrite(p, 1, len, out);
        p += len;
    }
}

void html_text(FILE *out, const char *s)
{
    escape(out, s, strlen(s), 0);
}

void html_text_shell_quoted(FILE *out, const char *s)
{
    escape(out, s, strlen(s), 1);
}

void html_text_code(FILE *out, const char *s)
{
    const char *open, *close;
    while ((open = strchr(s, '`')) && (close = strchr(open + 1, '`'))) {
        escape(out, s, (size_t)(open - s), 0);
        fputs("<code>", out);
        escape(out, open + 1, (size_t)(close - open - 1), 0);
        fputs("</code>", out);
        s = close + 1;
    }
    html_text(out, s);
}
