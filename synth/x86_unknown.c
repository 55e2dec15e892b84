/* SPDX-License-Identifier: Apache-2.0 */
/*
 * x86_unknown: instructions Capstone 4 does not decode, from their encoding.
 */
#include "x86_unknown.h"

#include <string.h>

#define NO_REG 0xff

/* x86 register encoding (rax, rcx, rdx, rbx, rsp, rbp, rsi, rdi, r8...) to DWARF. */
static const uint8_t dwarf_of_encoding[16] = {0, 2, 1, 3, 7, 6, 4, 5, 8, 9, 10, 11, 12, 13, 14, 15};

static void writes(struct x86_unknown_insn *out, unsigned encoding)
{
    if (out->nwrites < sizeof out->writes)
        out->writes[out->nwrites++] = dwarf_of_encoding[encoding & 15];
}

/* rdssp{d,q} %r and incssp{d,q} %r: F3 [REX] 0F 1E /1 and F3 [REX] 0F AE /5. */
static unsigned shadow_stack(const uint8_t *code, size_t n, struct x86_unknown_insn *out)
{
    size_t i = 0;
    uint8_t rex = 0;
    if (n < 4 || code[i++] != 0xf3)
        return 0;
    if ((code[i] & 0xf0) == 0x40)
        rex = code[i++];
    if (i + 3 > n || code[i] != 0x0f || code[i + 2] >> 6 != 3)
        return 0;
    uint8_t op = code[i + 1], modrm = code[i + 2];
    unsigned reg = (modrm >> 3) & 7, rm = (modrm & 7) | (rex & 1 ? 8 : 0);
    if (op == 0x1e && reg == 1) {
        out->name = rex & 8 ? "rdsspq" : "rdsspd";
        writes(out, rm);
    } else if (op == 0xae && reg == 5) {
        out->name = rex & 8 ? "incsspq" : "incsspd";
    } else {
        return 0;
    }
    return out->len = (unsigned)i + 3;
}

/* WAITPKG's umonitor %r, umwait %r and tpause %r: F3, F2 and 66, then
 * [REX] 0F AE /6 with a register operand.  They write no GPR (only flags). */
static unsigned wait_package(const uint8_t *code, size_t n, struct x86_unknown_insn *out)
{
    size_t i = 0;
    if (n < 4 || (code[0] != 0xf3 && code[0] != 0xf2 && code[0] != 0x66))
        return 0;
    uint8_t prefix = code[i++];
    if ((code[i] & 0xf0) == 0x40)
        i++;
    if (i + 3 > n || code[i] != 0x0f || code[i + 1] != 0xae || code[i + 2] >> 6 != 3 ||
        ((code[i + 2] >> 3) & 7) != 6)
        return 0;
    out->name = prefix == 0xf3 ? "umonitor" : prefix == 0xf2 ? "umwait" : "tpause";
    return out->len = (unsigned)i + 3;
}

/* The fields of a VEX or EVEX prefix that matter here. */
struct vex {
    int evex;
    unsigned map, pp, r, x, b, vvvv;
};

/* Parse the prefix at CODE; returns its length, or 0. */
static unsigned vex_prefix(const uint8_t *code, size_t n, struct vex *v)
{
    memset(v, 0, sizeof *v);
    if (n >= 2 && code[0] == 0xc5) {
        v->r = !(code[1] & 0x80);
        v->vvvv = (~code[1] >> 3) & 15;
        v->pp = code[1] & 3;
        v->map = 1;
        return 2;
    }
    if (n >= 3 && code[0] == 0xc4) {
        v->r = !(code[1] & 0x80);
        v->x = !(code[1] & 0x40);
        v->b = !(code[1] & 0x20);
        v->map = code[1] & 0x1f;
        v->vvvv = (~code[2] >> 3) & 15;
        v->pp = code[2] & 3;
        return 3;
    }
    /* EVEX: P0 = R X B R' 0 0 m m, P1 = W vvvv 1 pp, P2 = z L'L b V' aaa. */
    if (n >= 4 && code[0] == 0x62 && (code[1] & 0x0c) == 0 && (code[2] & 0x04)) {
        v->evex = 1;
        v->r = !(code[1] & 0x80);
        v->x = !(code[1] & 0x40);
        v->b = !(code[1] & 0x20);
        v->map = code[1] & 3;
        v->vvvv = (~code[2] >> 3) & 15;
        v->pp = code[2] & 3;
        return 4;
    }
    return 0;
}

/* Opcodes of the 0F map that take an 8-bit immediate. */
static int map1_has_imm8(unsigned op)
{
    return (op >= 0x70 && op <= 0x73) || op == 0xc2 || op == 0xc4 || op == 0xc5 || op == 0xc6;
}

/* Opcodes that may write memory through their ModRM operand. */
static int is_store(const struct vex *v, unsigned op)
{
    switch (v->map) {
    case 1:
        return op == 0x11 || op == 0x13 || op == 0x17 || op == 0x29 || op == 0x2b || op == 0x7f || op == 0x91 ||
               op == 0xd6 || op == 0xe7 || (op == 0x7e && v->pp == 1);
    case 2:
        /* compress, masked moves, scatters, CMPccXADD, AMX's tile stores;
         * EVEX.F3 down-converting moves */
        return op == 0x8a || op == 0x8b || op == 0x8e || op == 0x2e || op == 0x2f || op == 0x63 ||
               (op >= 0xa0 && op <= 0xa3) || (op >= 0xe0 && op <= 0xef) || op == 0x49 || op == 0x4b ||
               (v->pp == 2 && (op >> 4) >= 1 && (op >> 4) <= 3 && (op & 15) <= 5);
    default:
        /* extracts */
        return (op >= 0x14 && op <= 0x17) || op == 0x19 || op == 0x1b || op == 0x1d || op == 0x39 ||
               op == 0x3b;
    }
}

/* The GPRs an instruction may write: its ModRM reg (moves of masks and
 * vector bits to GPRs, conversions to integers, the BMI group), its ModRM
 * rm when a register (extracts), its vvvv (BMI's blsr, mulx). */
static void gpr_writes(const struct vex *v, unsigned op, unsigned mod, unsigned reg, unsigned rm,
                       struct x86_unknown_insn *out)
{
    switch (v->map) {
    case 1:
        if (op == 0x50 || op == 0xd7 || op == 0x2c || op == 0x2d || op == 0x93 || op == 0xc5 ||
            (v->evex && (op == 0x78 || op == 0x79) && v->pp >= 2))
            writes(out, reg);
        if (op == 0x7e && v->pp == 1 && mod == 3)
            writes(out, rm);
        break;
    case 2:
        if (op >= 0xe0 && op <= 0xef)
            writes(out, reg);   /* CMPccXADD: the old value */
        if (op == 0xf3) {
            writes(out, v->vvvv);   /* blsr, blsmsk, blsi: reg is the opcode's extension */
        } else if (op >= 0xf2 && op <= 0xf7) {
            writes(out, reg);
            if (op == 0xf6)
                writes(out, v->vvvv);   /* mulx: the low half */
        }
        break;
    default:
        if (op >= 0x14 && op <= 0x17 && mod == 3)
            writes(out, rm);
        if (op == 0xf0)
            writes(out, reg);
        break;
    }
}

unsigned x86_modrm_parse(const uint8_t *code, size_t n, struct x86_modrm *m)
{
    memset(m, 0, sizeof *m);
    size_t i = 0;
    if (i >= n)
        return 0;
    unsigned modrm = code[i++];
    m->mod = modrm >> 6;
    m->reg = (modrm >> 3) & 7;
    m->rm = modrm & 7;
    m->base = m->rm;
    if (m->mod == 3)
        return (unsigned)i;
    m->disp_len = m->mod == 1 ? 1 : m->mod == 2 ? 4 : 0;
    if (m->rm == 4) {
        if (i >= n)
            return 0;
        unsigned sib = code[i++];
        m->has_sib = 1;
        m->base = sib & 7;
        m->index = (sib >> 3) & 7;
    }
    if (m->mod == 0 && m->base == 5) {
        m->disp_len = 4;   /* RIP-relative, or no base */
        m->base = X86_MODRM_NO_BASE;
    }
    if (i + m->disp_len > n)
        return 0;
    if (m->disp_len == 1)
        m->disp = (int8_t)code[i];
    else if (m->disp_len == 4)
        m->disp = (int32_t)((uint32_t)code[i] | (uint32_t)code[i + 1] << 8 | (uint32_t)code[i + 2] << 16 |
                            (uint32_t)code[i + 3] << 24);
    return (unsigned)(i + m->disp_len);
}

static unsigned vex_insn(const uint8_t *code, size_t n, struct x86_unknown_insn *out)
{
    struct vex v;
    size_t i = vex_prefix(code, n, &v);
    if (!i || v.map < 1 || v.map > 3 || i + 1 > n)
        return 0;
    unsigned op = code[i++];
    if (v.map == 1 && op == 0x77 && !v.evex) {   /* vzeroupper, vzeroall: no ModRM */
        out->name = "VEX instruction";
        return out->len = (unsigned)i;
    }
    struct x86_modrm m;
    unsigned used = x86_modrm_parse(code + i, n - i, &m);
    if (!used)
        return 0;
    i += used;
    unsigned reg = m.reg | (v.r << 3), rm = m.rm;
    if (m.mod != 3) {
        /* Gathers and scatters (VSIB) always index by a vector. */
        out->has_index = (m.has_sib && (m.index | (v.x << 3)) != 4) ||
                         (v.map == 2 && ((op >= 0x90 && op <= 0x93) || (op >= 0xa0 && op <= 0xa3) ||
                                         op == 0xc6 || op == 0xc7));
        out->base = m.base == X86_MODRM_NO_BASE ? NO_REG : dwarf_of_encoding[m.base | (v.b << 3)];
        out->disp = m.disp;
        out->exact_disp = !(v.evex && m.disp_len == 1);   /* EVEX scales disp8 by the operand */
        out->stores = is_store(&v, op);
        out->store_size = 64;
    }
    if (v.map == 3 || (v.map == 1 && map1_has_imm8(op)))
        i++;
    if (i > n)
        return 0;
    gpr_writes(&v, op, m.mod, reg, rm | (v.b << 3), out);
    out->name = v.evex ? "EVEX instruction" : "VEX instruction";
    return out->len = (unsigned)i;
}

unsigned x86_unknown_decode(const uint8_t *code, size_t n, struct x86_unknown_insn *out)
{
    memset(out, 0, sizeof *out);
    out->base = NO_REG;
    if (n >= 3 && code[0] == 0x0f && code[1] == 0x01 && (code[2] == 0xee || code[2] == 0xef)) {
        out->name = code[2] == 0xee ? "rdpkru" : "wrpkru";
        if (code[2] == 0xee) {
            writes(out, 0);   /* eax */
            writes(out, 2);   /* edx */
        }
        return out->len = 3;
    }
    unsigned len = shadow_stack(code, n, out);
    if (!len)
        len = wait_package(code, n, out);
    return len ? len : vex_insn(code, n, out);
}
