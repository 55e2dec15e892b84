/*
 * inject_fault: copy an ELF file with one operand of one DW_CFA_def_cfa_offset
 * or DW_CFA_offset in its .eh_frame changed, chosen at random from SEED.
 *
 *   inject_fault IN OUT SEED      prints "PC_LO PC_HI description"
 *
 * The entries and instructions are decoded here by hand, independently of
 * the code under test.  Supports the .eh_frame GCC, clang and GAS write on
 * x86_64 (CIE augmentations z, R, P, L, S; pointers absolute or pc-relative).
 * Exit status 0 with a mutation written, 2 when the file has none to offer.
 */
#include <fcntl.h>
#include <gelf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static uint8_t *buf;
static size_t buf_size;

struct cursor {
    size_t pos, end;
    int bad;
};

static uint64_t get(struct cursor *c, unsigned n)
{
    uint64_t v = 0;
    if (c->pos + n > c->end) {
        c->bad = 1;
        return 0;
    }
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)buf[c->pos + i] << (8 * i);
    c->pos += n;
    return v;
}

static uint64_t uleb(struct cursor *c)
{
    uint64_t v = 0;
    unsigned shift = 0;
    while (c->pos < c->end) {
        uint8_t b = buf[c->pos++];
        if (shift < 64)
            v |= (uint64_t)(b & 0x7f) << shift;
        shift += 7;
        if (!(b & 0x80))
            return v;
    }
    c->bad = 1;
    return 0;
}

static int64_t sleb(struct cursor *c)
{
    int64_t v = 0;
    unsigned shift = 0;
    uint8_t b = 0;
    while (c->pos < c->end) {
        b = buf[c->pos++];
        if (shift < 64)
            v |= (int64_t)(b & 0x7f) << shift;
        shift += 7;
        if (!(b & 0x80))
            break;
    }
    if (shift < 64 && (b & 0x40))
        v |= -((int64_t)1 << shift);
    return v;
}

/* Size of a pointer in encoding ENC (the low nibble). */
static unsigned enc_size(uint8_t enc)
{
    switch (enc & 0x0f) {
    case 0x02: case 0x0a: return 2;
    case 0x03: case 0x0b: return 4;
    default: return 8;
    }
}

struct cie {
    size_t offset;
    uint8_t fde_enc;
    int z;
};

struct candidate {
    size_t pos;            /* file offset of the operand's first byte */
    uint64_t lo, hi;       /* the FDE's range */
    const char *what;
    uint64_t value;
};

static struct candidate *cands;
static size_t ncands, cap;

static void add(size_t pos, uint64_t lo, uint64_t hi, const char *what, uint64_t value)
{
    if (ncands == cap) {
        cap = cap ? cap * 2 : 256;
        cands = realloc(cands, cap * sizeof *cands);
        if (!cands)
            exit(2);
    }
    cands[ncands++] = (struct candidate){pos, lo, hi, what, value};
}

/* Walk one FDE's instructions; record the operands that may be changed. */
static void scan_insns(size_t pos, size_t end, uint64_t lo, uint64_t hi, uint8_t fde_enc)
{
    struct cursor c = {pos, end, 0};
    while (c.pos < c.end && !c.bad) {
        uint8_t op = buf[c.pos++];
        size_t at;
        switch (op & 0xc0) {
        case 0x40: case 0xc0: continue;                       /* advance_loc, restore */
        case 0x80: at = c.pos; add(at, lo, hi, "DW_CFA_offset", uleb(&c)); continue;
        }
        switch (op) {
        case 0x00: case 0x0a: case 0x0b: case 0x2d: break;    /* nop, remember/restore, window */
        case 0x01: get(&c, enc_size(fde_enc)); break;         /* set_loc */
        case 0x02: get(&c, 1); break;
        case 0x03: get(&c, 2); break;
        case 0x04: get(&c, 4); break;
        case 0x05: case 0x09: case 0x0c: case 0x14: case 0x2f: uleb(&c); uleb(&c); break;
        case 0x06: case 0x07: case 0x08: case 0x0d: case 0x2e: uleb(&c); break;
        case 0x0e: at = c.pos; add(at, lo, hi, "DW_CFA_def_cfa_offset", uleb(&c)); break;
        case 0x0f: { uint64_t n = uleb(&c); c.pos += n; break; }
        case 0x10: case 0x16: { uleb(&c); uint64_t n = uleb(&c); c.pos += n; break; }
        case 0x11: case 0x12: case 0x15: uleb(&c); sleb(&c); break;
        case 0x13: sleb(&c); break;
        default: return;                                      /* unknown: stop this FDE */
        }
    }
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: inject_fault IN OUT SEED\n");
        return 2;
    }
    int fd = open(argv[1], O_RDONLY);
    if (fd < 0 || elf_version(EV_CURRENT) == EV_NONE)
        return 2;
    Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
    size_t shstrndx, eh_off = 0, eh_size = 0;
    uint64_t eh_addr = 0;
    if (!elf || elf_getshdrstrndx(elf, &shstrndx) != 0)
        return 2;
    for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn)) != NULL;) {
        GElf_Shdr sh;
        const char *name;
        if (gelf_getshdr(scn, &sh) && (name = elf_strptr(elf, shstrndx, sh.sh_name)) &&
            strcmp(name, ".eh_frame") == 0 && sh.sh_type == SHT_PROGBITS) {
            eh_off = sh.sh_offset;
            eh_size = sh.sh_size;
            eh_addr = sh.sh_addr;
        }
    }
    elf_end(elf);
    close(fd);
    FILE *in = fopen(argv[1], "rb");
    if (!eh_size || !in)
        return 2;
    fseek(in, 0, SEEK_END);
    buf_size = (size_t)ftell(in);
    rewind(in);
    buf = malloc(buf_size);
    if (!buf || fread(buf, 1, buf_size, in) != buf_size)
        return 2;
    fclose(in);

    struct cie cies[512];
    size_t ncies = 0;
    for (size_t p = eh_off; p + 8 <= eh_off + eh_size;) {
        struct cursor c = {p, eh_off + eh_size, 0};
        uint64_t len = get(&c, 4);
        if (len == 0 || len == 0xffffffffu || c.pos + len > c.end)
            break;
        size_t end = c.pos + len, id_pos = c.pos;
        uint32_t id = (uint32_t)get(&c, 4);
        if (id == 0) {                                        /* a CIE */
            struct cie cie = {p, 0, 0};
            uint8_t version = (uint8_t)get(&c, 1);
            const char *aug = (const char *)buf + c.pos;
            c.pos += strnlen(aug, end - c.pos) + 1;
            uleb(&c);
            sleb(&c);
            if (version == 1)
                get(&c, 1);
            else
                uleb(&c);
            if (aug[0] == 'z') {
                cie.z = 1;
                uleb(&c);
                for (const char *a = aug + 1; *a; a++) {
                    if (*a == 'R')
                        cie.fde_enc = (uint8_t)get(&c, 1);
                    else if (*a == 'L')
                        get(&c, 1);
                    else if (*a == 'P') {
                        uint8_t penc = (uint8_t)get(&c, 1);
                        get(&c, enc_size(penc));
                    }
                }
            }
            if (ncies < 512)
                cies[ncies++] = cie;
        } else {                                              /* an FDE */
            size_t cie_off = id_pos - id;
            const struct cie *cie = NULL;
            for (size_t i = 0; i < ncies; i++)
                if (cies[i].offset == cie_off)
                    cie = &cies[i];
            if (cie) {
                size_t field = c.pos;
                uint64_t lo = get(&c, enc_size(cie->fde_enc));
                if ((cie->fde_enc & 0x0f) == 0x0b)
                    lo = (uint64_t)(int64_t)(int32_t)lo;
                if ((cie->fde_enc & 0x70) == 0x10)
                    lo += eh_addr + (field - eh_off);
                uint64_t range = get(&c, enc_size(cie->fde_enc));
                if (cie->z)
                    c.pos += uleb(&c);
                if (!c.bad && range)
                    scan_insns(c.pos, end, lo, lo + range, cie->fde_enc);
            }
        }
        p = end;
    }
    if (!ncands) {
        fprintf(stderr, "inject_fault: %s: no operand to change\n", argv[1]);
        return 2;
    }
    uint64_t seed = strtoull(argv[3], NULL, 10) * 6364136223846793005ull + 1442695040888963407ull;
    const struct candidate *cand = &cands[(seed >> 33) % ncands];
    uint8_t old = buf[cand->pos];
    uint8_t flip = (uint8_t)(1u << ((seed >> 20) % 3));   /* change the low bits: 1, 2 or 4 */
    buf[cand->pos] = (uint8_t)((old & 0x80) | ((old ^ flip) & 0x7f));
    FILE *out = fopen(argv[2], "wb");
    if (!out || fwrite(buf, 1, buf_size, out) != buf_size || fclose(out) != 0)
        return 2;
    printf("%llu %llu %s operand %llu -> %llu at file offset 0x%zx\n", (unsigned long long)cand->lo,
           (unsigned long long)cand->hi, cand->what, (unsigned long long)cand->value,
           (unsigned long long)(cand->value ^ flip), cand->pos);
    return 0;
}
/* SPDX-License-Identifier: Apache-2.0 */
