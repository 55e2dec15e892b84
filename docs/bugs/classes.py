#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Classify dwcheck's error findings into root-cause classes.

    python3 docs/bugs/classes.py AUDIT.jsonl

AUDIT.jsonl is the output of `dwcheck --format=json` (one object per file).
For every class the script prints the number of findings, the number of
addresses they cover (the sum of each finding's "addresses"), and the files;
then "unclassified: N" and the error findings that no class matches.
Warnings (fde-gap, call-clobbered-rule) are not classified.

Each class is one explicit rule over a finding's fields: the file's base
name, the function (with the names of a few local assembler functions that
have no symbol filled in from NAMES below), the kind, and the DWARF and
synthesised rules ("dwarf", "synth").  `delta` is synth's CFA offset minus
DWARF's when both are rsp+N.  Rules are tried in order; the first that
matches wins, so the specific classes come before the two catch-all LLVM
classes at the end.  CLASSES.md explains every class (its section is named
in the table below) with an example and the evidence.

The rules were written for Debian 12 (bookworm) on x86_64; the NAMES table
is tied to those builds (a new build moves the anonymous functions).
Standard library only.
"""
import json
import os
import re
import sys
from collections import OrderedDict

# Local functions without a symbol (dwcheck calls them .text+OFFSET), named
# from their code: each matches, instruction for instruction, a named copy
# (node exports the OpenSSL names; libc.so.6 has glibc's), or is recognised
# from its source (CLASSES.md says how).
NAMES = {
    'libcrypto.so.3': {
        '.text+0x620': '_x86_64_AES_decrypt',
        '.text+0xbe0': '_x86_64_AES_set_encrypt_key',
        '.text+0xe720': '__ocb_encrypt6',
        '.text+0xed80': '__ocb_decrypt6',
        '.text+0x5a1e0': '__rsaz_512_reduce',
        '.text+0x5a480': '__rsaz_512_mul',
        '.text+0x5d960': 'mul4x_internal',
        '.text+0x5e2a0': 'bn_sqr8x_internal',
        '.text+0x5ece0': 'mulx4x_internal',
        '.text+0x5f620': 'bn_sqrx8x_internal',
        '.text+0x60080': 'bn_gather5',
        '.text+0xff280': '__ecp_nistz256_mul_montq',
        '.text+0xff540': '__ecp_nistz256_sqr_montq',
        '.text+0xff700': '__ecp_nistz256_mul_montx',
        '.text+0x10b060': 'x25519_fe51_sqr',
        '.text+0x10b420': 'x25519_fe64_sqr',
        '.text+0x171340': '_aesni_ctr32_6x',
        '.text+0x1950c0': '__poly1305_block',
        '.text+0x195140': '__poly1305_init_avx',
        '.text+0x1b5600': 'sha1_multi_block',
    },
    'libgnutls.so.30.34.3': {
        '.text+0x103400': '_aesni_ctr32_6x',
        '.text+0x106460': '__ocb_encrypt6',
        '.text+0x106ac0': '__ocb_decrypt6',
    },
    'libgcrypt.so.20.4.1': {
        '.text+0x47ec8': '_gcry_3des_amd64_crypt_blk3',
        '.text+0x5b240': 'do_padlock',
        '.text+0x5b2d0': 'do_padlock',
        '.text+0xc9170': '_gcry_sm3_transform_amd64_avx_bmi2',
    },
    'local-extract': {                      # google-cloud-cli-local-extract
        '.text+0xfb6ae0': '_aesni_ctr32_6x',
        '.text+0xfbc6e0': '__ecp_nistz256_mul_montq',
        '.text+0xfbc9c0': '__ecp_nistz256_sqr_montq',
        '.text+0xfbcb80': '__ecp_nistz256_mul_montx',
        '.text+0xfcd600': 'mul4x_internal',
        '.text+0xfcdf60': 'bn_sqr8x_internal',
        '.text+0xfce9a0': 'mulx4x_internal',
        '.text+0xfcf2e0': 'bn_sqrx8x_internal',
        '.text+0x1057500': 'poly_hash_ad_internal',
        '.text+0x106eb90': 'abi_test_trampoline',
        '.text+0x106eeb0': 'abi_test_bad_unwind_wrong_register',
        '.text+0x106eec0': 'abi_test_bad_unwind_temporary',
        '.text+0x15d5df0': '__mpn_addmul_1',
        '.text+0x15d6ba0': '__mpn_submul_1',
        '.text+0x1661c9e': 'lazy_binding_trampoline',
    },
    'llvm-exegesis': {
        '.text+0x3be100': 'X86SavedState::X86SavedState',
        '.text+0x3c0f30': 'X86SavedState::~X86SavedState',
        '.text+0x3c0f50': 'X86SavedState::~X86SavedState',
    },
    'gdb': {'.text+0x2d0e60': 'linux_ptrace_test_ret_to_nx'},
    'shellcheck': {'.text+0x102bc80': 'StgRun'},
    'valgrind.bin': {'.text+0x1230': 'local_sys_write_stderr'},
    'libpython3.11.so.1.0': {'.text+0x33': '_PyEval_EvalFrameDefault.cold'},
}

# Private subroutines of OpenSSL/BoringSSL perlasm (and one of libgcrypt) that
# use callee-saved registers their callers saved.
PRIVATE_SUBROUTINES = {
    '_x86_64_AES_decrypt', '_x86_64_AES_set_encrypt_key', '__ocb_encrypt6',
    '__ocb_decrypt6', '__rsaz_512_reduce', '__rsaz_512_mul',
    'mul4x_internal', 'bn_sqr8x_internal', 'mulx4x_internal',
    'bn_sqrx8x_internal', '__ecp_nistz256_mul_montq',
    '__ecp_nistz256_sqr_montq', '__ecp_nistz256_mul_montx',
    '_aesni_ctr32_6x', '__poly1305_block', '__poly1305_init_avx',
    'poly_hash_ad_internal', '_gcry_3des_amd64_crypt_blk3',
}
CRYPTO_FILES = {'libcrypto.so.3', 'node', 'local-extract',
                'libgnutls.so.30.34.3', 'libgcrypt.so.20.4.1'}

# Files whose compiled code comes from LLVM (clang, rustc, or the C++ of
# local-extract): the two catch-all classes apply only to them.
LLVM_BUILT = re.compile(r'^/usr/lib/llvm-14/|/libLLVM-1[45]\.so|/libclang'
                        r'|/librsvg-2\.so|/librav1e\.so|/local-extract$')
PAD_FILES = {'librsvg-2.so.2.48.0', 'librav1e.so.0.5.1', 'libc++.so.1.0'}

# (name, section in CLASSES.md, real bug or dwcheck limitation,
#  one-line description, rule)
CLASSES = [
    ('glibc-mpn-addmul-submul', 'glibc-mpn-addmul-submul', 'real',
     'glibc __mpn_addmul_1/__mpn_submul_1: push rbx/rbp with no CFI at all',
     lambda f: f.name in ('__mpn_addmul_1', '__mpn_submul_1')),
    ('openssl-x25519-sqr-epilogue', 'openssl-x25519-sqr-epilogue', 'real',
     'OpenSSL x25519_fe64/fe51_sqr: .cfi_adjust_cfa_offset 88 that should be -88',
     lambda f: f.name in ('x25519_fe64_sqr', 'x25519_fe51_sqr')),
    ('openssl-bn-gather5', 'openssl-bn-gather5', 'real',
     'OpenSSL bn_gather5: rsp lowered and realigned with no CFI',
     lambda f: f.name == 'bn_gather5'),
    ('libmvec-sincos-avx-no-cfi', 'libmvec-sincos-avx-no-cfi', 'real',
     'libmvec AVX vvv sincos/sincosf wrappers: frame built with no CFI',
     lambda f: f.base == 'libmvec.so.1'
     and f.name in ('_ZGVcN4vvv_sincos', '_ZGVcN8vvv_sincosf')),
    ('libmvec-sincos-wrapper-realign', 'libmvec-sincos-wrapper-realign', 'real',
     'libmvec vl sincos wrappers: pushes after realignment described as if CFA were rsp-based, or not at all',
     lambda f: f.base == 'libmvec.so.1'
     and re.match(r'(__GI_)?_ZGV[cde]N\d+vl\d+l\d+_sincosf?$', f.name)),
    ('libmvec-sincos-kernel-saves', 'libmvec-sincos-kernel-saves', 'real',
     'libmvec vl sincos kernels: rbx saved with no CFI; r15 described as r14',
     lambda f: f.base == 'libmvec.so.1'
     and re.search(r'_sincosf?_(sse4|avx2|knl|skx)$', f.name)),
    ('openssl-sha1-mb-wrong-register', 'openssl-sha1-mb-wrong-register', 'real',
     'OpenSSL sha1_multi_block: push %rbp annotated as .cfi_offset %rbx',
     lambda f: f.name == 'sha1_multi_block'),
    ('perlasm-private-subroutine', 'perlasm-private-subroutine', 'real (benign)',
     'crypto assembler subroutines with a private convention change callee-saved registers the table calls unchanged',
     lambda f: f.kind == 'reg-mismatch' and f.dwarf == 'u'
     and f.base in CRYPTO_FILES and f.name in PRIVATE_SUBROUTINES),
    ('boringssl-delocate', 'boringssl-delocate', 'real',
     'BoringSSL FIPS delocate: lea -128(%rsp),%rsp; push...; with no CFI',
     lambda f: f.base == 'local-extract' and f.kind == 'cfa-mismatch'
     and f.delta == 128),
    ('boringssl-abi-test', 'boringssl-abi-test', 'real (deliberate)',
     'BoringSSL abi_test functions that break unwinding on purpose, and the pushfq of its trampoline',
     lambda f: f.name.startswith('abi_test_')),
    ('pushf-without-cfi', 'pushf-without-cfi', 'real',
     'pushf/popf (libgcrypt PadLock inline asm, llvm-exegesis EFLAGS builtins) with no CFA adjustment',
     lambda f: f.kind == 'cfa-mismatch' and f.delta == 8 and f.name in (
         'do_padlock', 'X86SavedState::X86SavedState',
         'X86SavedState::~X86SavedState')),
    ('gdb-ret-to-nx', 'gdb-ret-to-nx', 'real (deliberate)',
     'gdb linux_ptrace_test_ret_to_nx: inline asm push; ret into a non-executable page',
     lambda f: f.base == 'gdb' and f.name == 'linux_ptrace_test_ret_to_nx'),
    ('ghc-stgrun-prologue', 'ghc-stgrun', 'real',
     'GHC RTS StgRun: the frame is built before any CFI',
     lambda f: f.name == 'StgRun' and f.kind == 'cfa-mismatch'),
    ('ghc-stgrun-cfa-is-rsp', 'ghc-stgrun', 'dwcheck limitation',
     'GHC RTS StgRun: CFA defined as rsp+0 on purpose, rsp recovered by a val_expression; dwcheck judges the register rules against the true CFA',
     lambda f: f.name == 'StgRun' and f.kind in ('reg-mismatch', 'ra-mismatch')),
    ('valgrind-write-stderr', 'valgrind-write-stderr', 'real',
     'valgrind launcher local_sys_write_stderr: inline asm moves rsp and r15 with no CFI',
     lambda f: f.base == 'valgrind.bin'),
    ('libomp-invoke-microtask', 'libomp-invoke-microtask', 'real',
     'LLVM OpenMP __kmp_invoke_microtask: push %rbx with no .cfi_offset',
     lambda f: f.name == '__kmp_invoke_microtask'),
    ('sanitizer-internal-clone', 'sanitizer-internal-clone', 'real',
     'GCC libsanitizer internal_clone: child path pops with no CFI (known, commented upstream)',
     lambda f: 'internal_clone' in f.name),
    ('glibc-swapcontext-r12', 'glibc-swapcontext-r12', 'real (benign)',
     'glibc swapcontext: r12 used as scratch after being saved in the ucontext, not on the stack',
     lambda f: f.name == 'swapcontext'),
    ('ld-tlsdesc-plt', 'ld-tlsdesc-plt', 'real',
     'GNU ld: the generic .plt CFA expression does not fit the IBT TLSDESC lazy PLT entry',
     lambda f: f.name == '@plt' and f.kind == 'cfa-mismatch' and f.dwarf == 'exp'),
    ('unreachable-jump-into-cold-fragment', 'unreachable-jump-into-cold-fragment', 'dwcheck limitation',
     'libpython: a branch to __builtin_unreachable() lands on another function\'s .cold code; dwcheck follows it',
     lambda f: f.base == 'libpython3.11.so.1.0'
     and f.name == '_PyEval_EvalFrameDefault.cold'),
    ('libgcrypt-sm3-rel-offset', 'libgcrypt-sm3-rel-offset', 'real',
     'libgcrypt SM3 AVX/BMI2: saves after stack realignment described relative to rbp',
     lambda f: f.name == '_gcry_sm3_transform_amd64_avx_bmi2'),
    ('trampoline-entered-with-pushed-word', 'trampoline-entered-with-pushed-word', 'dwcheck limitation',
     'local-extract lazy-binding trampoline entered by jump with one word pushed; dwcheck enters at the padding nop the FDE starts with',
     lambda f: f.name == 'lazy_binding_trampoline'),
    ('landing-pad-args-size', 'landing-pad-args-size', 'dwcheck limitation',
     'landing pads of calls with pushed arguments: the unwinder pops DW_CFA_GNU_args_size, dwcheck does not',
     lambda f: f.kind == 'cfa-mismatch' and f.base in PAD_FILES
     and f.delta is not None and f.delta >= 16),
    ('llvm-branch-fold-epilogue', 'llvm-branch-fold-epilogue', 'real',
     'LLVM branch folding hoists the epilogue stack adjustment above a branch; its CFI stays behind',
     lambda f: f.kind == 'cfa-mismatch' and f.llvm
     and f.delta is not None and f.delta < 0),
    ('llvm-call-frame-cfi-late', 'llvm-call-frame-cfi-late', 'real',
     'LLVM call sequences: the CFI of an argument push or call-frame sub comes after later instructions',
     lambda f: f.kind == 'cfa-mismatch' and f.llvm
     and f.delta is not None and f.delta > 0),
]

CFA_OFFSET = re.compile(r'^rsp\+(\d+)$')


class Finding:
    """One error finding with the fields the rules use."""

    def __init__(self, path, raw):
        self.path = path
        self.base = os.path.basename(path)
        self.raw = raw
        self.kind = raw['kind']
        self.fn = raw['function']
        self.name = NAMES.get(self.base, {}).get(self.fn, self.fn)
        self.dwarf = raw.get('dwarf', '')
        self.synth = raw.get('synth', '')
        self.addresses = raw.get('addresses', 1)
        self.llvm = bool(LLVM_BUILT.search(path))
        d, s = CFA_OFFSET.match(self.dwarf), CFA_OFFSET.match(self.synth)
        self.delta = int(s.group(1)) - int(d.group(1)) if d and s else None


def classify(f):
    for name, section, verdict, what, rule in CLASSES:
        if rule(f):
            return name
    return None


def main(argv):
    if len(argv) != 2:
        sys.stderr.write('usage: classes.py AUDIT.jsonl\n')
        return 2
    stats = OrderedDict((c[0], {'findings': 0, 'addresses': 0, 'files': {}})
                        for c in CLASSES)
    unclassified = []
    with open(argv[1]) as fh:
        for line in fh:
            if not line.strip():
                continue
            rec = json.loads(line)
            for raw in rec.get('findings', []):
                if raw.get('severity') != 'error':
                    continue
                f = Finding(rec['file'], raw)
                c = classify(f)
                if c is None:
                    unclassified.append(f)
                    continue
                s = stats[c]
                s['findings'] += 1
                s['addresses'] += f.addresses
                s['files'][f.path] = s['files'].get(f.path, 0) + 1
    total_f = total_a = 0
    for name, section, verdict, what, rule in CLASSES:
        s = stats[name]
        total_f += s['findings']
        total_a += s['addresses']
        print('%s: %d findings, %d addresses  [%s]  (CLASSES.md#%s)'
              % (name, s['findings'], s['addresses'], verdict, section))
        print('    ' + what)
        for path, n in sorted(s['files'].items()):
            print('    %4d  %s' % (n, path))
    print('classified: %d findings, %d addresses' % (total_f, total_a))
    print('unclassified: %d' % len(unclassified))
    for f in unclassified:
        print('    %s: %s %s at %#x (%s): %s' % (f.path, f.kind, f.fn,
              f.raw['address'], f.addresses, f.raw.get('message', '')))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
