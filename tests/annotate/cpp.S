/* A preprocessed source: macros from an included header, and a value given
 * on dwsynth annotate's command line after `--` (-DFRAME=32). */
#include "defs.h"
#ifndef FRAME
#error "FRAME is given with -DFRAME=32 after --"
#endif

	.text
ENTRY(ann_cpp)
	push	%rbx
	sub	$FRAME, %rsp        // the frame's size comes from the command line
	mov	$-21, %rbx
	call	callback
	add	$FRAME, %rsp
	pop	%rbx
	ret
END(ann_cpp)
/* SPDX-License-Identifier: Apache-2.0 */
