#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Helpers of tests/sframe/run.sh, independent of dwcheck's C reader.

  sframe_tool.py extract FILE OUT          write FILE's .sframe bytes to OUT, print its address
  sframe_tool.py oracle JSON ORACLE        compare dwtable --sframe --format=json with
                                           libsframe_oracle's lines (see that file)
  sframe_tool.py mutants FILE DIR COUNT SEED [SECTION]
                                           write mutants of FILE's .sframe (V1) or SECTION
                                           (convert's V3) into DIR, and
                                           DIR/list: "NAME EXPECT" per mutant, EXPECT a
                                           phrase dwtable's reason must hold, or "any"
  sframe_tool.py quirks FILE DIR           V1 variants of FILE that readelf 2.40 prints through
                                           its odd paths (flags, fixed FP, RA not fixed,
                                           mangled-RA bits), into DIR
  sframe_tool.py convert FILE VERSION OUT  FILE's V1 .sframe rewritten as V2 or V3 (the
                                           FDE layouts of each version's specification,
                                           SFRAME_F_FDE_FUNC_START_PCREL set), for a section
                                           at address 0 (objcopy --add-section)

ELF sections are found by reading the section headers (ELF64 little-endian).
"""
import json
import os
import random
import struct
import sys


def sections(data):
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    heads = []
    for i in range(shnum):
        off = shoff + i * shentsize
        name, typ, flags, addr, offset, size = struct.unpack_from("<IIQQQQ", data, off)
        heads.append((name, addr, offset, size, off))
    stroff = heads[shstrndx][2]
    out = {}
    for name, addr, offset, size, hoff in heads:
        end = data.index(b"\0", stroff + name)
        out[data[stroff + name:end].decode()] = (addr, offset, size, hoff)
    return out


def sframe_of(data):
    return sections(data)[".sframe"]


# ---- the oracle comparison -------------------------------------------------

def rule_text(row):
    cfa = row["cfa"]
    text = "%s%+d" % (cfa["reg"], cfa["offset"]) if cfa["rule"] == "reg_offset" else cfa["rule"]
    fp = row["registers"]["rbp"]
    return text + (" c%+d" % fp["offset"] if fp["rule"] == "offset" else " u")


def row_at(rows, addr):
    for r in rows:
        if r["start"] <= addr < r["end"]:
            return rule_text(r)
    return "none"


def oracle(json_path, oracle_path):
    doc = json.load(open(json_path))
    entries = {e["index"]: e for e in doc["sections"][0]["entries"]}
    addresses = fres = bad = 0
    fde = None
    for line in open(oracle_path):
        f = line.split()
        if f[0] == "fde":
            fde = entries.get(int(f[1]))
            if fde is None or fde["pc_begin"] != int(f[2]) or fde["pc_end"] - fde["pc_begin"] != int(f[3]) \
                    or fde["pc_type"] != f[4]:
                print("FDE %s: libsframe %s, dwtable %s" % (f[1], f[2:], fde and
                      (fde["pc_begin"], fde["pc_end"], fde["pc_type"])))
                bad += 1
                fde = None
            continue
        if fde is None:
            continue
        want = " ".join(f[2:]) if f[0] == "fre" else " ".join(f[1:])
        if f[0] == "fre":
            fres += 1
            block, start = fde["rep_size"], int(f[1])
            for base in range(fde["pc_begin"], fde["pc_end"], block):
                if base + start < fde["pc_end"] and row_at(fde["rows"], base + start) != want:
                    print("FDE %d: FRE at +%d of the block at 0x%x: libsframe %s, dwtable %s" %
                          (fde["index"], start, base, want, row_at(fde["rows"], base + start)))
                    bad += 1
            continue
        addresses += 1
        got = row_at(fde["rows"], int(f[0]))
        if got != want:
            print("0x%x: libsframe %s, dwtable %s" % (int(f[0]), want, got))
            bad += 1
    print("%d %d %d" % (addresses, fres, bad))
    return 1 if bad else 0


# ---- mutants ------------------------------------------------------------------

def fde_offsets(sec):
    num_fdes, = struct.unpack_from("<I", sec, 8)
    hdr = 28 + sec[7]
    fdeoff, = struct.unpack_from("<I", sec, 20)
    return [hdr + fdeoff + 17 * i for i in range(num_fdes)]


def first_fre(sec, fde):
    hdr = 28 + sec[7]
    freoff, = struct.unpack_from("<I", sec, 24)
    return hdr + freoff + struct.unpack_from("<I", sec, fde + 8)[0]


def put(sec, off, fmt, value):
    struct.pack_into(fmt, sec, off, value)


def add(sec, off, fmt, delta):
    v, = struct.unpack_from(fmt, sec, off)
    struct.pack_into(fmt, sec, off, (v + delta) & ((1 << (8 * struct.calcsize(fmt))) - 1))


def targeted(sec):
    """(name, expected phrase, mutation) for a V1 section of two FDEs or more."""
    fdes = fde_offsets(sec)
    fre0 = first_fre(sec, fdes[0])
    info0 = fre0 + 1          # FRE start offsets are 1 byte in these small functions
    return [
        ("version0", "unknown SFrame version", lambda s: put(s, 2, "B", 0)),
        ("version4", "unknown SFrame version", lambda s: put(s, 2, "B", 4)),
        ("magic", "bad magic number", lambda s: put(s, 0, "<H", 0x1234)),
        ("magic_swapped", "other byte order", lambda s: put(s, 0, "<H", 0xe2de)),
        ("flag_pcrel_v1", "flag bits", lambda s: put(s, 3, "B", s[3] | 4)),
        ("flag_high", "flag bits", lambda s: put(s, 3, "B", s[3] | 0x80)),
        ("abi_aarch64", "ABI/arch", lambda s: put(s, 4, "B", 2)),
        ("auxhdr_long", "runs past", lambda s: put(s, 7, "B", 255)),
        ("num_fdes_huge", "FDE sub-section", lambda s: put(s, 8, "<I", 0xffffffff)),
        ("num_fdes_plus1", "FDE sub-section", lambda s: add(s, 8, "<I", 1)),
        ("num_fres_plus1", "do not add up", lambda s: add(s, 12, "<I", 1)),
        ("fre_len_plus1", "FRE sub-section runs past", lambda s: add(s, 16, "<I", 1)),
        ("fre_len_huge", "FRE sub-section runs past", lambda s: put(s, 16, "<I", 0xffffffff)),
        ("fdeoff_1", "FDE sub-section", lambda s: put(s, 20, "<I", 1)),
        ("fdeoff_past_freoff", "starts after", lambda s: put(s, 20, "<I", 0x7fffffff)),
        ("freoff_huge", "FRE sub-section runs past", lambda s: put(s, 24, "<I", 0xffffffff)),
        ("freoff_minus1", "FDE sub-section", lambda s: add(s, 24, "<I", -1)),
        ("fde_num_fres_huge", "FRE", lambda s: put(s, fdes[0] + 12, "<I", 0xffffffff)),
        ("fde_fre_off_huge", "past the FRE sub-section", lambda s: put(s, fdes[0] + 8, "<I", 0xffffffff)),
        ("fde_fre_type3", "unknown FRE type", lambda s: put(s, fdes[0] + 16, "B", s[fdes[0] + 16] | 3)),
        ("fde_size0", "past the function's end", lambda s: put(s, fdes[0] + 4, "<I", 0)),
        ("fde_unsorted", "not sorted", lambda s: put(s, fdes[1], "<i", struct.unpack_from("<i", s, fdes[0])[0]
                                                        - 0x100)),
        ("fre_word_size3", "data-word size", lambda s: put(s, info0, "B", s[info0] | 0x60)),
        ("fre_count15", "FRE", lambda s: put(s, info0, "B", (s[info0] & ~0x1e) | 0x1e)),
        ("fre_count0", "without data words", lambda s: put(s, info0, "B", s[info0] & ~0x1e)),
    ]


def targeted_v3(sec):
    """(name, expected phrase, mutation) for a V3 section (convert's)."""
    hdr = 28 + sec[7]
    freoff, = struct.unpack_from("<I", sec, 24)
    idx0 = hdr + struct.unpack_from("<I", sec, 20)[0]
    attr0 = hdr + freoff + struct.unpack_from("<I", sec, idx0 + 12)[0]
    return [
        ("v3_flag_frame_pointer", "flag bits", lambda s: put(s, 3, "B", s[3] | 2)),
        ("v3_as_v2", "any", lambda s: put(s, 2, "B", 2)),
        ("v3_attr_past", "attribute runs past", lambda s: put(s, idx0 + 12, "<I", 0xfffffff0)),
        ("v3_fde_type5", "unknown FDE type", lambda s: put(s, attr0 + 3, "B", 5)),
        ("v3_mask_rep0", "repetition block", lambda s: (put(s, attr0 + 2, "B", s[attr0 + 2] | 0x10),
                                                        put(s, attr0 + 4, "B", 0))),
        ("v3_flex", "flexible FRE", lambda s: put(s, attr0 + 3, "B", 1)),
        ("v3_num_fres_max", "FRE", lambda s: put(s, attr0, "<H", 0xffff)),
    ]


def mutants(path, outdir, count, seed, section=".sframe"):
    data = open(path, "rb").read()
    addr, offset, size, hoff = sections(data)[section]
    os.makedirs(outdir, exist_ok=True)
    listing = []

    def write(name, expect, sec=None, shsize=None):
        out = bytearray(data)
        if sec is not None:
            out[offset:offset + size] = sec
        if shsize is not None:
            struct.pack_into("<Q", out, hoff + 0x20, shsize)
        open(os.path.join(outdir, name), "wb").write(bytes(out))
        listing.append("%s %s" % (name, expect.replace(" ", "_")))

    base = bytearray(data[offset:offset + size])
    for name, expect, mutate in (targeted(base) if base[2] == 1 else targeted_v3(base)):
        sec = bytearray(base)
        mutate(sec)
        write(name, expect, sec)
    write("truncated_header", "shorter than the SFrame header", shsize=10)
    write("truncated_by_1", "runs past", shsize=size - 1)
    write("size_past_file", "any", shsize=1 << 40)
    rng = random.Random(seed)
    for i in range(count):
        sec = bytearray(base)
        for _ in range(rng.randint(1, 4)):
            pos = rng.randrange(size)
            sec[pos] = rng.randrange(256) if rng.random() < 0.5 else sec[pos] ^ (1 << rng.randrange(8))
        write("random%04d" % i, "any", sec)
    open(os.path.join(outdir, "list"), "w").write("\n".join(listing) + "\n")
    return 0


# ---- readelf 2.40's quirks ---------------------------------------------------

def mangle_all(sec):
    """Set the mangled-RA bit (AArch64's) of every FRE's info."""
    for fde in fde_offsets(sec):
        p, n, asize = first_fre(sec, fde), struct.unpack_from("<I", sec, fde + 12)[0], [1, 2, 4][sec[fde + 16] & 0xf]
        for _ in range(n):
            info = sec[p + asize]
            sec[p + asize] = info | 0x80
            p += asize + 1 + ((info >> 1) & 0xf) * (1 << ((info >> 5) & 3))


def quirks(path, outdir):
    """V1 sections readelf 2.40 still prints, through its odd paths."""
    data = open(path, "rb").read()
    addr, offset, size, _ = sframe_of(data)
    os.makedirs(outdir, exist_ok=True)
    variants = [
        ("flags_none", lambda s: put(s, 3, "B", 0)),
        ("flags_frame_pointer", lambda s: put(s, 3, "B", 2)),
        ("flags_both", lambda s: put(s, 3, "B", 3)),
        ("fixed_fp", lambda s: put(s, 5, "b", -16)),
        ("ra_not_fixed", lambda s: put(s, 6, "b", 0)),
        ("mangled_ra", mangle_all),
    ]
    for name, mutate in variants:
        out = bytearray(data)
        sec = out[offset:offset + size]
        mutate(sec)
        out[offset:offset + size] = sec
        open(os.path.join(outdir, name), "wb").write(bytes(out))
    return 0


# ---- V1 -> V2 / V3 ------------------------------------------------------------

def convert(path, version, out):
    data = open(path, "rb").read()
    addr, offset, size, _ = sframe_of(data)
    sec = data[offset:offset + size]
    hdr = 28 + sec[7]
    flags, abi, fixed_fp, fixed_ra = sec[3], sec[4], sec[5], sec[6]
    num_fdes, num_fres, fre_len, fdeoff, freoff = struct.unpack_from("<IIIII", sec, 8)
    fres = sec[hdr + freoff:hdr + freoff + fre_len]
    fdes = []
    for i in range(num_fdes):
        start, fsize, fre_off, nfres, info = struct.unpack_from("<iIIIB", sec, hdr + fdeoff + 17 * i)
        fdes.append((addr + start, fsize, fre_off, nfres, info))
    # Where each function's FRE bytes end: the next function's first, or the sub-section's end.
    starts = sorted(set([f[2] for f in fdes] + [fre_len]))
    ends = {s: starts[i + 1] for i, s in enumerate(starts[:-1])}
    flags = (flags & 1) | 4          # sorted as before, start addresses PC-relative
    index, body = b"", b""
    fde_size = 20 if version == 2 else 16
    for i, (pc, fsize, fre_off, nfres, info) in enumerate(fdes):
        field = 28 + fde_size * i     # the section is at address 0
        rep = 16 if (info >> 4) & 1 else 0
        mine = fres[fre_off:ends[fre_off]] if nfres else b""
        if version == 2:
            index += struct.pack("<iIIIBBH", pc - field, fsize, len(body), nfres, info, rep, 0)
            body += mine
        else:
            index += struct.pack("<qII", pc - field, fsize, len(body))
            body += struct.pack("<HBBB", nfres, info, 0, rep) + mine
    head = struct.pack("<HBBBbbBIIIII", 0xdee2, version, flags, abi, struct.unpack("b", bytes([fixed_fp]))[0],
                       struct.unpack("b", bytes([fixed_ra]))[0], 0, num_fdes, num_fres, len(body), 0, len(index))
    open(out, "wb").write(head + index + body)
    return 0


def main(argv):
    cmd = argv[1]
    if cmd == "extract":
        data = open(argv[2], "rb").read()
        addr, offset, size, _ = sframe_of(data)
        open(argv[3], "wb").write(data[offset:offset + size])
        print(addr)
        return 0
    if cmd == "oracle":
        return oracle(argv[2], argv[3])
    if cmd == "mutants":
        return mutants(argv[2], argv[3], int(argv[4]), int(argv[5]), *argv[6:7])
    if cmd == "quirks":
        return quirks(argv[2], argv[3])
    if cmd == "convert":
        return convert(argv[2], int(argv[3]), argv[4])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
