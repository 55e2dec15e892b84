/*
 * libsframe_oracle: what Debian 12's libsframe (binutils 2.40: SFrame V1
 * only) reads in an .sframe section, in the form tests/sframe/compare.py
 * sets against dwtable --sframe --format=json.
 *
 *   libsframe_oracle SECTION.bin SECTION_ADDRESS
 *
 * prints, for each FDE, "fde INDEX PC SIZE inc|mask", then
 *   - for a PCINC FDE, every address of the function as libsframe's own
 *     lookup (sframe_find_fre) answers it: "ADDRESS CFA FP", CFA "rsp+16",
 *     FP "c-16" or "u", or "ADDRESS none";
 *   - for a PCMASK FDE (the PLT's), each FRE as libsframe decodes it:
 *     "fre START CFA FP" (2.40's lookup masks PCs with 0xff, not with the
 *     16-byte block the FREs describe, so it is not asked).
 * Independent of dwcheck: libsframe decodes, looks up and interprets.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include <sframe-api.h>

static char *slurp(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t n = 0, cap = 0, got;
    do {
        if (n == cap) {
            cap = cap ? 2 * cap : 65536;
            char *b = realloc(buf, cap);
            if (!b) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = b;
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
    } while (got);
    fclose(f);
    *size = n;
    return buf;
}

/* "rsp+16 c-16" or "rsp+16 u", as compare.py writes H's rows. */
static void print_rules(sframe_decoder_ctx *ctx, sframe_frame_row_entry *fre)
{
    int err = 0;
    unsigned base = sframe_fre_get_base_reg_id(fre, &err);
    int32_t cfa = sframe_fre_get_cfa_offset(ctx, fre, &err);
    printf(" %s%+d", base == SFRAME_BASE_REG_SP ? "rsp" : "rbp", cfa);
    int fp_err = 0;
    int32_t fp = sframe_fre_get_fp_offset(ctx, fre, &fp_err);
    if (fp_err == 0)
        printf(" c%+d\n", fp);
    else
        printf(" u\n");
}

static void print_fde(sframe_decoder_ctx *ctx, unsigned i, uint64_t sec_addr)
{
    uint32_t num_fres, size;
    int32_t start;
    unsigned char info;
    if (sframe_decoder_get_funcdesc(ctx, i, &num_fres, &size, &start, &info) != 0) {
        printf("fde %u unreadable\n", i);
        return;
    }
    int mask = SFRAME_V1_FUNC_FDE_TYPE(info) == SFRAME_FDE_TYPE_PCMASK;
    uint64_t pc = sec_addr + (uint64_t)(int64_t)start;
    printf("fde %u %" PRIu64 " %" PRIu32 " %s\n", i, pc, size, mask ? "mask" : "inc");
    if (mask) {
        for (uint32_t j = 0; j < num_fres; j++) {
            sframe_frame_row_entry fre;
            if (sframe_decoder_get_fre(ctx, i, j, &fre) != 0)
                continue;
            printf("fre %" PRIu32, fre.fre_start_addr);
            print_rules(ctx, &fre);
        }
        return;
    }
    for (uint32_t off = 0; off < size; off++) {
        sframe_frame_row_entry fre;
        printf("%" PRIu64, pc + off);
        if (sframe_find_fre(ctx, start + (int32_t)off, &fre) != 0)
            printf(" none\n");
        else
            print_rules(ctx, &fre);
    }
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: libsframe_oracle SECTION.bin SECTION_ADDRESS\n");
        return 2;
    }
    size_t size;
    char *buf = slurp(argv[1], &size);
    if (!buf) {
        fprintf(stderr, "libsframe_oracle: cannot read %s\n", argv[1]);
        return 2;
    }
    uint64_t sec_addr = strtoull(argv[2], NULL, 0);
    int err = 0;
    sframe_decoder_ctx *ctx = sframe_decode(buf, size, &err);
    if (!ctx) {
        fprintf(stderr, "libsframe_oracle: sframe_decode: %s\n", sframe_errmsg(err));
        free(buf);
        return 1;
    }
    unsigned n = sframe_decoder_get_num_fidx(ctx);
    for (unsigned i = 0; i < n; i++)
        print_fde(ctx, i, sec_addr);
    sframe_decoder_free(&ctx);
    free(buf);
    return 0;
}
/* SPDX-License-Identifier: Apache-2.0 */
