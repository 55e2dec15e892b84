/* SPDX-License-Identifier: Apache-2.0 */
/*
 * html_text: text written into the HTML report, safe whatever its bytes.
 *
 * File names, symbol names, instructions and messages come from binaries
 * and command lines: any byte may be in them.  Written through here they
 * are always valid UTF-8 (bytes that are not well-formed UTF-8 become
 * U+FFFD, as in the JSON outputs, report/json_string; so do the control
 * characters HTML does not allow, C0 but tab and line ends, DEL, C1), and
 * the markup characters & < > " ' are escaped, so the text may stand in an
 * element or in a quoted attribute value and never ends either.  Writes to
 * a FILE and never fails on its own: callers check ferror() once.
 */
#ifndef DWCHECK_HTML_TEXT_H
#define DWCHECK_HTML_TEXT_H

#include <stdio.h>

/* S (NUL-terminated) as HTML text on OUT. */
void html_text(FILE *out, const char *s);

/* S as HTML text of a word between a shell's single quotes: ' is written
 * '\'' (escaped as HTML too). */
void html_text_shell_quoted(FILE *out, const char *s);

/* S, one of our own texts (verify/audit/finding's), as HTML text whose
 * `backquoted` spans are <code>: an unpaired ` is written as it is. */
void html_text_code(FILE *out, const char *s);

#endif
