"""The cost of minitorch's argument parser (csrc/python/argparse.c), per parse, in nanoseconds.

    python benchmarks/argparse_overhead.py

Each row parses one call many times in C with a parser built once, as an entry point's static parser is
(minitorch._C._parse_bench): the figure is the parser alone, from the argument vector to the converted C
values, without the Python call around it. For scale, the last rows time whole calls from Python: an
empty C function and today's minitorch.add on a 4-element tensor (its own hand-written parsing
included). Each figure is the best of several runs.
"""

import timeit

import minitorch

B = minitorch._C._parse_bench
t = minitorch.ones(4)

ADD = ["add(Tensor input, Tensor other, *, Scalar alpha=1, Tensor out=None)",
       "add(Tensor input, Scalar alpha, Tensor other, *, Tensor out=None)|deprecated"]
SUM = ["sum(Tensor input, *, ScalarType? dtype=None)",
       "sum(Tensor input, IntArrayRef[1]? dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor out=None)"]
MM = ["mm(Tensor input, Tensor mat2, *, Tensor out=None)",
      "mm(Tensor input, Tensor mat2, ScalarType out_dtype, *, Tensor out=None)"]
VIEW = ["view(ScalarType dtype)", "view(SymIntArrayRef size)"]
TO = ["to(Device device=None, ScalarType dtype=None, bool non_blocking=False, bool copy=False, *, "
      "MemoryFormat? memory_format=None)",
      "to(ScalarType dtype, bool non_blocking=False, bool copy=False, *, MemoryFormat? memory_format=None)",
      "to(Tensor tensor, bool non_blocking=False, bool copy=False, *, MemoryFormat? memory_format=None)"]

ROWS = [
    ("torch.add(t, t)", ADD, (t, t), {}),
    ("torch.add(t, t, alpha=2)", ADD, (t, t), {"alpha": 2}),
    ("torch.add(t, other=t)", ADD, (t,), {"other": t}),
    ("torch.add(t, 2)", ADD, (t, 2), {}),
    ("torch.mm(t, t)", MM, (t, t), {}),
    ("t.mm(t)", ["mm(Tensor mat2)"], (t,), {}),
    ("torch.sum(t, 0)", SUM, (t, 0), {}),
    ("torch.sum(t, 0, keepdim=True)", SUM, (t, 0), {"keepdim": True}),
    ("t.view(2, 2)", VIEW, (2, 2), {}),
    ("t.to(minitorch.float64)", TO, (minitorch.float64,), {}),
]


def best(f, repeat=7):
    return min(f() for _ in range(repeat))


def main():
    print("parse only (C loop, parser built once)           ns/parse")
    for label, sigs, args, kwargs in ROWS:
        print("  {:<46} {:7.1f}".format(label, best(lambda: B(sigs, args, kwargs, 500_000))))
    print("whole calls from Python, for scale                ns/call")
    n = 200_000
    empty = best(lambda: timeit.timeit(minitorch._C.get_num_threads, number=n)) / n * 1e9
    add = best(lambda: timeit.timeit(lambda: minitorch.add(t, t), number=n)) / n * 1e9
    lam = best(lambda: timeit.timeit(lambda: None, number=n)) / n * 1e9
    print("  {:<46} {:7.1f}".format("a C function without arguments", empty))
    print("  {:<46} {:7.1f}".format("minitorch.add(t, t), 4 elements (today's entry)", add - lam))


if __name__ == "__main__":
    main()
