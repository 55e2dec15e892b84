// workload.cc — a C++ program for profiling tests: dwperf and perf script
// unwind the stacks `perf record --call-graph dwarf` copied from it.
//
// Built -O2 -fomit-frame-pointer, so every frame is found through
// .eh_frame.  It spends its time in the shapes C++ code has: template
// instances (a generic merge of sorted ranges, a small matrix type),
// std::sort with a comparator, std::map insertions and lookups, virtual
// calls through a base class, exceptions thrown through frames with
// destructors and caught in a loop, and recursion a few dozen frames deep
// (a tree walk and a mutual recursion), each step reaching main.
//
//   workload [SECONDS]    run the mix for SECONDS (default 1; fractions allowed)
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#define NOINLINE __attribute__((noinline))

namespace {

volatile unsigned long sink;

// ---- templates -----------------------------------------------------------

template <typename T, int N> struct Matrix {
    T m[N][N];
};

template <typename T, int N> NOINLINE Matrix<T, N> multiply(const Matrix<T, N> &a, const Matrix<T, N> &b)
{
    Matrix<T, N> c{};
    for (int i = 0; i < N; i++)
        for (int k = 0; k < N; k++)
            for (int j = 0; j < N; j++)
                c.m[i][j] += a.m[i][k] * b.m[k][j];
    return c;
}

template <typename T, int N> NOINLINE T power_trace(int rounds)
{
    Matrix<T, N> a{};
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            a.m[i][j] = static_cast<T>((i * 7 + j * 3) % 5) / static_cast<T>(4);
    Matrix<T, N> r = a;
    for (int k = 0; k < rounds; k++)
        r = multiply(r, a);
    T t = 0;
    for (int i = 0; i < N; i++)
        t += r.m[i][i];
    return t;
}

// ---- std::sort and std::map ------------------------------------------------

struct Record {
    std::string name;
    unsigned key;
};

NOINLINE std::vector<Record> make_records(unsigned n, unsigned seed)
{
    std::vector<Record> v;
    v.reserve(n);
    for (unsigned i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        v.push_back(Record{"r" + std::to_string(seed % 9973), seed >> 8});
    }
    return v;
}

NOINLINE unsigned long sort_records(unsigned seed)
{
    std::vector<Record> v = make_records(2000, seed);
    std::sort(v.begin(), v.end(), [](const Record &a, const Record &b) {
        return a.name != b.name ? a.name < b.name : a.key < b.key;
    });
    return v.front().key ^ v.back().key;
}

NOINLINE unsigned long map_counts(unsigned seed)
{
    std::map<std::string, unsigned> counts;
    for (unsigned i = 0; i < 3000; i++) {
        seed = seed * 1664525u + 1013904223u;
        counts["k" + std::to_string(seed % 701)]++;
    }
    unsigned long total = 0;
    for (unsigned i = 0; i < 701; i += 7) {
        auto it = counts.find("k" + std::to_string(i));
        if (it != counts.end())
            total += it->second;
    }
    return total;
}

// ---- virtual calls -----------------------------------------------------------

struct Shape {
    virtual ~Shape() = default;
    virtual double area() const = 0;
    virtual double scaled(double f) const { return area() * f; }
};

struct Square : Shape {
    double s;
    explicit Square(double x) : s(x) {}
    NOINLINE double area() const override { return s * s; }
};

struct Circle : Shape {
    double r;
    explicit Circle(double x) : r(x) {}
    NOINLINE double area() const override { return 3.14159265358979 * r * r; }
    NOINLINE double scaled(double f) const override { return area() * f * 0.5; }
};

struct Ring : Circle {
    double inner;
    Ring(double o, double i) : Circle(o), inner(i) {}
    NOINLINE double area() const override { return Circle::area() - 3.14159265358979 * inner * inner; }
};

NOINLINE double total_area(const std::vector<std::unique_ptr<Shape>> &shapes, int rounds)
{
    double t = 0;
    for (int k = 0; k < rounds; k++)
        for (const auto &s : shapes)
            t += s->scaled(1.0 + k * 1e-6);
    return t;
}

NOINLINE double virtual_calls(int rounds)
{
    std::vector<std::unique_ptr<Shape>> shapes;
    for (int i = 0; i < 300; i++) {
        if (i % 3 == 0)
            shapes.push_back(std::make_unique<Square>(i * 0.5));
        else if (i % 3 == 1)
            shapes.push_back(std::make_unique<Circle>(i * 0.25));
        else
            shapes.push_back(std::make_unique<Ring>(i * 0.25, i * 0.125));
    }
    return total_area(shapes, rounds);
}

// ---- exceptions ----------------------------------------------------------------

struct Guard {
    unsigned long tag;
    explicit Guard(unsigned long t) : tag(t) {}
    ~Guard() { sink += tag; }
    Guard(const Guard &) = delete;
    Guard &operator=(const Guard &) = delete;
};

struct Workload_error : std::runtime_error {
    int depth;
    Workload_error(const char *what, int d) : std::runtime_error(what), depth(d) {}
};

NOINLINE void throw_from(int depth, unsigned long tag)
{
    Guard g(tag);
    if (depth == 0)
        throw Workload_error("bottom", static_cast<int>(tag & 7));
    throw_from(depth - 1, tag * 3 + 1);
    sink += tag;
}

NOINLINE unsigned long exceptions(int rounds)
{
    unsigned long caught = 0;
    for (int i = 0; i < rounds; i++) {
        try {
            throw_from(4 + i % 5, static_cast<unsigned long>(i));
        } catch (const Workload_error &e) {
            caught += static_cast<unsigned long>(e.depth) + 1;
        }
    }
    return caught;
}

// ---- recursion -------------------------------------------------------------------

struct Node {
    std::unique_ptr<Node> left, right;
    unsigned value;
};

NOINLINE std::unique_ptr<Node> build_tree(int depth, unsigned value)
{
    auto n = std::make_unique<Node>();
    n->value = value;
    if (depth > 0) {
        n->left = build_tree(depth - 1, value * 2);
        n->right = build_tree(depth - 1, value * 2 + 1);
    }
    return n;
}

NOINLINE unsigned long tree_sum(const Node *n, int depth)
{
    if (!n)
        return 0;
    unsigned long local[4] = {n->value, static_cast<unsigned long>(depth), 0, 0};
    local[2] = tree_sum(n->left.get(), depth + 1);
    local[3] = tree_sum(n->right.get(), depth + 1);
    return local[0] + local[1] + local[2] + local[3];
}

NOINLINE unsigned long is_odd(unsigned n, unsigned long acc);

NOINLINE unsigned long is_even(unsigned n, unsigned long acc)
{
    if (n == 0)
        return acc;
    unsigned long r = is_odd(n - 1, acc * 31 + n);
    return r ^ n;
}

NOINLINE unsigned long is_odd(unsigned n, unsigned long acc)
{
    if (n == 0)
        return acc + 1;
    unsigned long r = is_even(n - 1, acc * 17 + n);
    return r + n;
}

NOINLINE unsigned long recursion(int rounds)
{
    auto tree = build_tree(12, 1);
    unsigned long t = 0;
    for (int i = 0; i < rounds; i++) {
        t += tree_sum(tree.get(), 0);
        t += is_even(40 + static_cast<unsigned>(i % 20), 0);
    }
    return t;
}

// ---- the mix -----------------------------------------------------------------------

double seconds_now()
{
    timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

NOINLINE void one_round(unsigned i)
{
    sink += static_cast<unsigned long>(power_trace<double, 12>(20));
    sink += static_cast<unsigned long>(power_trace<long, 9>(20));
    sink += sort_records(i);
    sink += map_counts(i);
    sink += static_cast<unsigned long>(virtual_calls(20));
    sink += exceptions(60);
    sink += recursion(3);
}

}  // namespace

int main(int argc, char **argv)
{
    double seconds = argc > 1 ? std::atof(argv[1]) : 1.0;
    double end = seconds_now() + seconds;
    unsigned rounds = 0;
    do
        one_round(rounds++);
    while (seconds_now() < end);
    std::printf("workload: %u rounds\n", rounds);
    return 0;
}
/* SPDX-License-Identifier: Apache-2.0 */
