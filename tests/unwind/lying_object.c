/*
 * lying_object: a shared object for tests/unwind/run.sh, which enlarges
 * its PT_NOTE or PT_GNU_EH_FRAME segment to 1 GiB after linking it (with
 * --build-id=none, so that the runtime takes its identity from the notes it
 * walks, then from a hash of its .eh_frame_hdr).  Loaded into the test
 * program, it must not make the runtime read past what the loader mapped.
 */

/* A note that is not a build-id comes first: the notes are walked on. */
__attribute__((used, section(".note.dwcheck"), aligned(4))) static const struct {
    unsigned namesz, descsz, type;
    char name[8];
} note = {7, 0, 1, "dwtest"};

int lying_object(void);

int lying_object(void)
{
    return 1;
}
/* SPDX-License-Identifier: Apache-2.0 */
