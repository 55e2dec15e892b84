/* switch_tables.c — indirect jumps through tables.
 *
 * Dense switches whose cases do different arithmetic (so the compilers emit
 * a jump table, not a lookup table of constants): in a leaf function with
 * no frame at all, and in a function that has a frame, callee-saved
 * registers live across calls in several cases, and a common tail.  Also a
 * bytecode interpreter dispatched with computed goto (the GCC labels-as-
 * values extension), where every handler ends in its own `jmp *reg`.
 */
#include <stdio.h>

/* gcc would otherwise clone these functions for constant arguments and,
 * through IPA-RA, see which registers a callee really clobbers and keep
 * values in caller-saved registers across the call; noipa keeps every call
 * a full ABI call.  clang does neither by default. */
#if defined(__GNUC__) && !defined(__clang__)
#define NOIPA __attribute__((noipa))
#else
#define NOIPA __attribute__((noinline))
#endif

static volatile unsigned long sink;

/* Leaf: no calls, no frame; the table jump happens at the CFA = rsp+8 row. */
NOIPA static unsigned long leaf_switch(unsigned op, unsigned long x)
{
	switch (op) {
	case 0: return x * 3 + 1;
	case 1: return x ^ 0x5555;
	case 2: return x << 3;
	case 3: return x >> 2;
	case 4: return x * x;
	case 5: return ~x;
	case 6: return x + 0x1234567;
	case 7: return x - 99;
	case 8: return (x << 7) | (x >> 57);
	case 9: return x / 7;
	case 10: return x % 13;
	case 11: return x & 0xff00ff;
	case 12: return x * 0x9e3779b97f4a7c15ul;
	case 13: return (unsigned long)__builtin_popcountl(x);
	case 14: return x | 0xf0f0;
	case 15: return x * 5 - 3;
	default: return 0;
	}
}

NOIPA static unsigned long helper_a(unsigned long v) { sink += v; return v + 1; }
NOIPA static unsigned long helper_b(unsigned long v) { sink ^= v; return v * 2; }
NOIPA static unsigned long helper_c(unsigned long v, unsigned long w) { sink -= w; return v + w; }

/* A frame, callee-saved registers, and calls inside the cases. */
NOIPA static unsigned long framed_switch(unsigned op, unsigned long x, unsigned long y)
{
	unsigned long keep1 = x * 17 + y;
	unsigned long keep2 = y * 31 + x;
	unsigned long keep3 = x ^ y;
	unsigned long r;

	switch (op) {
	case 0: r = helper_a(x) + keep1; break;
	case 1: r = helper_b(y) + keep2; break;
	case 2: r = helper_c(x, y) + keep3; break;
	case 3: r = helper_a(helper_b(x)) + keep1 + keep2; break;
	case 4: r = helper_c(keep1, keep2) * keep3; break;
	case 5: r = helper_b(keep3) - keep1; break;
	case 6: r = helper_a(y) ^ keep2; break;
	case 7: r = helper_c(helper_a(x), helper_b(y)) + keep3; break;
	case 8: r = helper_a(keep1 + keep2 + keep3); break;
	case 9: r = helper_b(x + y) + keep1 * keep3; break;
	case 10: r = keep1 + keep2; break;
	case 11: r = helper_c(y, x) - keep2; break;
	default: r = 0; break;
	}
	/* Common tail that still needs the saved values. */
	return r + helper_a(keep1 ^ keep2 ^ keep3);
}

/* Computed goto interpreter. */
enum { OP_PUSH, OP_ADD, OP_MUL, OP_DUP, OP_SWAP, OP_CALL, OP_JNZ, OP_DEC, OP_HALT };

NOIPA static long interpret(const int *code)
{
	static void *const dispatch[] = {
		&&do_push, &&do_add, &&do_mul, &&do_dup, &&do_swap,
		&&do_call, &&do_jnz, &&do_dec, &&do_halt,
	};
	long stack[32];
	int sp = 0;
	const int *pc = code;

#define NEXT goto *dispatch[*pc++]
	NEXT;
do_push:
	stack[sp++] = *pc++;
	NEXT;
do_add:
	sp--;
	stack[sp - 1] += stack[sp];
	NEXT;
do_mul:
	sp--;
	stack[sp - 1] *= stack[sp];
	NEXT;
do_dup:
	stack[sp] = stack[sp - 1];
	sp++;
	NEXT;
do_swap: {
	long t = stack[sp - 1];
	stack[sp - 1] = stack[sp - 2];
	stack[sp - 2] = t;
	NEXT;
}
do_call:
	stack[sp - 1] = (long)helper_a((unsigned long)stack[sp - 1]);
	NEXT;
do_jnz: {
	int target = *pc++;
	if (stack[--sp])
		pc = code + target;
	NEXT;
}
do_dec:
	stack[sp - 1]--;
	NEXT;
do_halt:
	return stack[sp - 1];
#undef NEXT
}

int main(void)
{
	unsigned long acc = 0;
	/* ((2 + 3) * 4) + 1 via OP_CALL = 21, then a counter from 3 down to 0
	 * (the loop body starts at pc 11), then 21 + 0 = 21. */
	static const int prog[] = {
		OP_PUSH, 2, OP_PUSH, 3, OP_ADD, OP_PUSH, 4, OP_MUL, OP_CALL,
		OP_PUSH, 3,
		OP_DEC, OP_DUP, OP_JNZ, 11,
		OP_ADD, OP_HALT,
	};

	for (unsigned op = 0; op < 17; op++)
		acc += leaf_switch(op, 1000 + op);
	for (unsigned op = 0; op < 13; op++)
		acc += framed_switch(op, 7 + op, 11 * op);
	if (leaf_switch(0, 5) != 16 || leaf_switch(16, 5) != 0 ||
	    interpret(prog) != 21) {
		fprintf(stderr, "switch_tables: wrong result\n");
		return 1;
	}
	sink = acc;
	return 0;
}
/* SPDX-License-Identifier: Apache-2.0 */
