/* Entry and end macros in the style of libc's hand-written assembly. */
#define ENTRY(name) .globl name; .type name, @function; name:
#define END(name) .size name, .-name
/* SPDX-License-Identifier: Apache-2.0 */
