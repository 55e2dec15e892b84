// exceptions.cc — C++ exceptions unwinding through real frames.
//
// Every throw here is unwound by libgcc's unwinder using .eh_frame, so a
// wrong CFA or register rule makes this program crash or misbehave.
// Covered: throw/catch with destructors to run (landing pads and cleanup
// blocks, resumed with _Unwind_Resume), rethrow with `throw;`, nested try
// blocks, catch by base class, std::exception from the library, noexcept
// functions (a throw reaching them would call std::terminate; here they
// only call code that does not throw), and exceptions travelling through
// several non-inlined frames that hold callee-saved registers and locals.
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

volatile unsigned long sink;
int live_guards;

struct Guard {
	unsigned long tag;
	explicit Guard(unsigned long t) : tag(t) { live_guards++; }
	~Guard() { live_guards--; sink += tag; }
	Guard(const Guard &) = delete;
	Guard &operator=(const Guard &) = delete;
};

struct Base_error {
	int code;
	explicit Base_error(int c) : code(c) {}
	virtual ~Base_error() = default;
};

struct Derived_error : Base_error {
	explicit Derived_error(int c) : Base_error(c) {}
};

__attribute__((noinline)) void thrower(int kind)
{
	Guard g(1);
	switch (kind) {
	case 0: throw 42;
	case 1: throw Derived_error(7);
	case 2: throw std::runtime_error("boom");
	case 3: throw std::string("text");
	default: break;
	}
}

// Several frames between the throw and the catch, each with a destructor
// and values in callee-saved registers.
__attribute__((noinline)) unsigned long level3(int kind, unsigned long a)
{
	Guard g(a);
	unsigned long x = a * 3, y = a ^ 5, z = a + 11;
	thrower(kind);
	return x + y + z;
}

__attribute__((noinline)) unsigned long level2(int kind, unsigned long a)
{
	Guard g(a + 1);
	std::vector<int> v(16, static_cast<int>(a));
	unsigned long r = level3(kind, a + 1);
	return r + static_cast<unsigned long>(v[3]);
}

__attribute__((noinline)) unsigned long level1(int kind, unsigned long a)
{
	Guard g(a + 2);
	char buf[200];
	std::memset(buf, static_cast<int>(a), sizeof buf);
	unsigned long r = level2(kind, a + 2);
	return r + static_cast<unsigned char>(buf[a % 200]);
}

__attribute__((noinline)) int catch_by_kind(int kind)
{
	try {
		level1(kind, 10);
	} catch (int v) {
		return v;
	} catch (const Base_error &e) {
		return 100 + e.code;
	} catch (const std::exception &e) {
		return 200 + static_cast<int>(std::strlen(e.what()));
	} catch (...) {
		return 300;
	}
	return -1;
}

// catch, clean up, rethrow the same object.
__attribute__((noinline)) int rethrower(int kind)
{
	Guard g(3);
	try {
		thrower(kind);
	} catch (...) {
		sink++;
		throw;
	}
	return 0;
}

// nested try: the inner handler rethrows a different exception.
__attribute__((noinline)) int nested(int kind)
{
	try {
		Guard outer(4);
		try {
			Guard inner(5);
			rethrower(kind);
		} catch (int v) {
			throw Derived_error(v + 1);
		}
	} catch (const Derived_error &e) {
		return e.code;
	} catch (const Base_error &e) {
		return -e.code;
	}
	return -1;
}

__attribute__((noinline)) unsigned long safe_sum(unsigned n) noexcept
{
	unsigned long s = 0;
	for (unsigned i = 0; i < n; i++)
		s += i;
	sink = s;
	return s;
}

// noexcept function calling a function that may throw, but catches inside.
__attribute__((noinline)) int noexcept_wrapper(int kind) noexcept
{
	try {
		thrower(kind);
	} catch (...) {
		return 1;
	}
	return 0;
}

// A throw from a destructor-heavy loop, caught each iteration.
__attribute__((noinline)) int throw_in_loop(int n)
{
	int caught = 0;
	for (int i = 0; i < n; i++) {
		try {
			Guard g(static_cast<unsigned long>(i));
			level3(i % 4, static_cast<unsigned long>(i));
		} catch (...) {
			caught++;
		}
	}
	return caught;
}

} // namespace

int main()
{
	bool ok = true;

	ok = ok && catch_by_kind(0) == 42;
	ok = ok && catch_by_kind(1) == 107;
	ok = ok && catch_by_kind(2) == 204;
	ok = ok && catch_by_kind(3) == 300;
	ok = ok && catch_by_kind(4) == -1;
	ok = ok && nested(0) == 43;
	ok = ok && nested(1) == 7;
	ok = ok && safe_sum(10) == 45;
	ok = ok && noexcept_wrapper(2) == 1 && noexcept_wrapper(9) == 0;
	ok = ok && throw_in_loop(20) == 20;
	ok = ok && live_guards == 0;
	if (!ok) {
		std::fprintf(stderr, "exceptions: wrong result\n");
		return 1;
	}
	return 0;
}
/* SPDX-License-Identifier: Apache-2.0 */
