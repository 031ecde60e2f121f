"""Argument handling of the element-wise ops and the reductions, where it used to differ from torch.

- Reductions (sum, mean, max, min, argmax, argmin, all, any) read their arguments in the order of
  torch's parser: every argument's type first (keepdim before any dim value), then the dim values (a
  dim past int64 is ValueError "Overflow when unpacking long long"), then out=; mean's dtype rule
  comes before the dims are checked against the tensor, and all dims are range-checked before any is
  checked for repeats. A dim list is read from a snapshot: an item's ``__index__`` that changes the
  list (the old use-after-free) changes nothing.
- Complex Python numbers: minitorch has no complex dtype. Where torch returns a complex tensor,
  minitorch raises NotImplementedError saying so (README, "Known differences"); where torch raises
  (in-place casts, the ordered comparisons, a complex alpha), minitorch raises the same; eq/ne, whose
  torch result is a bool tensor, are computed.
- add/sub(alpha, other) and torch.add/sub(input, alpha, other), torch's deprecated overloads, compute
  input + alpha * other with torch's UserWarning, once per process; subtract(other, alpha) is
  subtract's (Number other, Number alpha) overload, without a warning.
- torch.<comparison>/maximum/minimum check their operands before refusing out=; maximum/minimum
  refuse a Python int of any size as a TypeError.

Plain expectations run without torch; the torch-parity tests skip when torch is not installed.
"""

import gc
import json
import os
import subprocess
import sys
import textwrap
import tracemalloc
import warnings

import pytest

import minitorch as mt
from parity import compare

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE_PARENT = os.path.dirname(os.path.dirname(os.path.abspath(mt.__file__)))

try:
    import importlib.util

    HAVE_TORCH = importlib.util.find_spec("torch") is not None
except (ImportError, ValueError):
    HAVE_TORCH = False
needs_torch = pytest.mark.skipif(not HAVE_TORCH, reason="torch is not installed: no parity comparison")

OVERFLOW = r"^Overflow when unpacking long long$"


def f32():
    return mt.arange(6, dtype=mt.float32).reshape(2, 3)


def i64():
    return mt.arange(6).reshape(2, 3)


# ---- the dim list parsed from a snapshot (the use-after-free) ------------------------------------------

class _Clearer:
    """An index whose __index__ empties the list it sits in (freeing the list's storage) and returns 0."""

    def __init__(self, owner):
        self.owner = owner

    def __index__(self):
        self.owner.clear()
        self.owner.extend([object()] * 100)   # a new, larger storage ...
        self.owner.clear()                    # ... freed as well
        return 0


class _Replacer:
    """An index whose __index__ replaces the list's item 1 in place (same storage) and returns 0."""

    def __init__(self, owner):
        self.owner = owner

    def __index__(self):
        self.owner[1] = 3
        return 0


REDUCTIONS_WITH_DIM_LISTS = [
    lambda t, d: t.sum(d), lambda t, d: t.mean(d), lambda t, d: t.sum(dim=d), lambda t, d: mt.sum(t, d),
    lambda t, d: mt.mean(t, d), lambda t, d: t.any(d), lambda t, d: t.all(d), lambda t, d: mt.all(t, d),
]


@pytest.mark.parametrize("call", REDUCTIONS_WITH_DIM_LISTS)
def test_dim_list_whose_index_clears_it(call):
    # the list is read from a snapshot: dims (0, 1), whatever __index__ does to the list (the parser
    # used to keep reading the freed list storage: a heap-use-after-free under ASan)
    t = mt.ones(2, 3, 4, 5)
    evil = []
    evil.extend([_Clearer(evil), 1])
    r = call(t, evil)
    assert tuple(r.shape) == (4, 5)
    assert evil == []


@pytest.mark.parametrize("call", REDUCTIONS_WITH_DIM_LISTS)
def test_dim_list_whose_index_replaces_an_item(call):
    # the snapshot keeps the item that __index__ replaced: dims (0, 1), not (0, 3)
    t = mt.ones(2, 3, 4, 5)
    evil = [None, 1]
    evil[0] = _Replacer(evil)
    r = call(t, evil)
    assert tuple(r.shape) == (4, 5)
    assert evil[1] == 3


def test_dim_list_snapshot_values():
    t = mt.arange(120, dtype=mt.float64).reshape(2, 3, 4, 5)
    evil = [None, 1]
    evil[0] = _Replacer(evil)
    assert t.sum(evil).tolist() == t.sum((0, 1)).tolist()
    evil = []
    evil.extend([_Clearer(evil), 3])
    assert t.mean(evil, keepdim=True).tolist() == t.mean((0, 3), keepdim=True).tolist()


class _Index:
    def __init__(self, v):
        self.v = v

    def __index__(self):
        return self.v


def test_dim_list_refcounts_and_memory_after_errors():
    t = mt.ones(2, 3)
    zero, one, big, bad = _Index(0), _Index(1), _Index(2 ** 64), object()
    lists = [[zero, bad], [zero, big], [zero, zero], [zero, _Index(5)], [zero] * 70, [zero] * 70 + [bad],
             (zero, 1.5), [one, zero], [big], zero, big]
    watched = lists + [zero, one, big, bad]
    before = [sys.getrefcount(x) for x in watched]

    def round_():
        for lst in lists:
            for call in (t.sum, t.mean, t.all, mt.sum):
                try:
                    call(t, lst) if call is mt.sum else call(lst)
                except (TypeError, ValueError, IndexError, RuntimeError):
                    pass

    for _ in range(3):
        round_()
    gc.collect()
    tracemalloc.start()
    try:
        start = tracemalloc.get_traced_memory()[0]
        for _ in range(300):
            round_()
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - start
    finally:
        tracemalloc.stop()
    assert grown < 16384, grown
    assert [sys.getrefcount(x) for x in watched] == before


# ---- reductions: overflow, argument order ------------------------------------------------------------

@pytest.mark.parametrize("call", [
    lambda t, d: t.sum(d), lambda t, d: t.mean(d), lambda t, d: t.max(d), lambda t, d: t.min(d),
    lambda t, d: t.argmax(d), lambda t, d: t.argmin(d), lambda t, d: t.all(d), lambda t, d: t.any(d),
    lambda t, d: mt.sum(t, d), lambda t, d: mt.mean(t, d), lambda t, d: mt.max(t, d), lambda t, d: mt.min(t, d),
    lambda t, d: mt.argmax(t, dim=d), lambda t, d: mt.argmin(t, d), lambda t, d: mt.all(t, d),
    lambda t, d: mt.any(t, d),
])
@pytest.mark.parametrize("dim", [2 ** 63, 2 ** 64, -2 ** 63 - 1, 2 ** 100])
def test_dim_past_int64_is_value_error(call, dim):
    with pytest.raises(ValueError, match=OVERFLOW):
        call(f32(), dim)


def test_dim_list_item_past_int64():
    with pytest.raises(TypeError, match=r"^sum\(\): argument 'dim' failed to unpack the object at pos 2 with "
                                        r"error \"Overflow when unpacking long long\"$"):
        f32().sum((0, 2 ** 64))
    with pytest.raises(TypeError, match=r"^all\(\): argument 'dim' failed to unpack the object at pos 1 with "
                                        r"error \"Overflow when unpacking long long\"$"):
        f32().all([2 ** 64])
    # items are unpacked in order: the first bad one is reported
    with pytest.raises(TypeError, match=r"at pos 2 with error \"type must be tuple of ints,but got str\"$"):
        f32().sum((0, "a", 2 ** 64))


@pytest.mark.parametrize("name", ["sum", "mean", "max", "argmax"])
@pytest.mark.parametrize("dim", [2 ** 62, 2 ** 64, 1])
def test_keepdim_type_checked_before_the_dim_value(name, dim):
    with pytest.raises(TypeError, match=r"^%s\(\): argument 'keepdim' \(position 2\) must be bool, not int$"
                       % name):
        getattr(f32(), name)(dim, 2)
    with pytest.raises(TypeError, match=r"^%s\(\): argument 'keepdim' must be bool, not int$" % name):
        getattr(f32(), name)(dim=dim, keepdim=1)


def test_keepdim_type_checked_before_dim_list_items():
    with pytest.raises(TypeError, match=r"^sum\(\): argument 'keepdim' \(position 2\) must be bool, not int$"):
        f32().sum((0, "a"), 2)
    with pytest.raises(TypeError, match=r"^sum\(\): argument 'keepdim' \(position 2\) must be bool, not int$"):
        mt.ones(2).sum(1, 2)    # a 0-d/1-d tensor: the dim would be out of range


def test_mean_dtype_checked_before_the_dims():
    msg = r"^mean\(\): could not infer output dtype\. Input dtype must be either a floating point or complex " \
          r"dtype\. Got: %s$"
    with pytest.raises(RuntimeError, match=msg % "Long"):
        i64().mean(2 ** 62)
    with pytest.raises(RuntimeError, match=msg % "Bool"):
        (i64() > 2).mean((0, 0))
    with pytest.raises(RuntimeError, match=msg % "Long"):
        mt.mean(i64(), 5)
    with pytest.raises(RuntimeError, match=msg % "Long"):
        i64().mean()
    with pytest.raises(RuntimeError, match=r"Optional dtype must be either a floating point or complex dtype\. "
                                           r"Got: Long$"):
        f32().mean(2 ** 62, dtype=mt.int64)
    # unpacking comes before the dtype rule
    with pytest.raises(ValueError, match=OVERFLOW):
        i64().mean(2 ** 64)
    assert f32().mean(1).tolist() == [1.0, 4.0]


def test_dims_range_checked_before_repeats():
    for call in (lambda t: t.sum((0, 0, 5)), lambda t: t.all((5, 0, 0)), lambda t: t.mean([0] * 70 + [5])):
        with pytest.raises(IndexError, match=r"^Dimension out of range \(expected to be in range of \[-2, 1\], "
                                             r"but got 5\)$"):
            call(f32())
    with pytest.raises(RuntimeError, match=r"^dim 0 appears multiple times in the list of dims$"):
        f32().sum((0, -2))
    with pytest.raises(RuntimeError, match=r"^dim 1 appears multiple times in the list of dims$"):
        f32().sum([1] * 65)
    # a 0-d tensor takes dim 0 (or -1) once
    s = mt.tensor(1.5)
    assert s.sum((0,)).item() == 1.5 and s.sum(-1).item() == 1.5 and s.sum(()).item() == 1.5
    with pytest.raises(RuntimeError, match=r"^dim 0 appears multiple times in the list of dims$"):
        s.sum((0, -1))
    with pytest.raises(IndexError, match=r"^Dimension out of range \(expected to be in range of \[-1, 0\], "
                                         r"but got 5\)$"):
        s.sum([0] * 70 + [5])


def test_dim_list_items_after_the_first():
    # torch's overload match looks at the first item only; later ones are unpacked like ints (bools too)
    assert f32().sum((0, True)).item() == 15.0
    assert f32().all((0, True)).item() is False
    with pytest.raises(TypeError, match=r"^sum\(\) received an invalid combination of arguments - got \(tuple\)"):
        f32().sum((True,))
    # a first item that is not an int: torch 2.13 names it (the only overload of that arity is tried again)
    with pytest.raises(TypeError, match=r"^sum\(\): argument 'dim' \(position 1\) must be tuple of ints, but "
                                        r"found element of type str at pos 0$"):
        f32().sum(("a", 0), True)


def test_out_refused_after_the_argument_checks():
    t = f32()
    with pytest.raises(TypeError, match=r"^sum\(\): argument 'keepdim' \(position 3\) must be bool, not int$"):
        mt.sum(t, 0, 2, out=t)
    with pytest.raises(ValueError, match=OVERFLOW):
        mt.sum(t, 2 ** 64, out=t)
    with pytest.raises(ValueError, match=OVERFLOW):
        mt.argmax(t, 2 ** 64, out=t)
    out = mt.empty(0)
    assert mt.sum(t, 0, out=out) is out and out.tolist() == t.sum(0).tolist()


@needs_torch
def test_reduction_errors_match_torch():
    compare("""
        t = torch.arange(6, dtype=torch.float32).reshape(2, 3)
        ti = torch.arange(6).reshape(2, 3)
        s = torch.tensor(1.5)
        for f in (t.sum, t.mean, t.max, t.min, t.argmax, t.argmin, t.all, t.any):
            for args in ((2 ** 64,), (2 ** 63,), (-2 ** 63 - 1,), (2 ** 64, 2), (2 ** 62, 0), (1, 2), (0, True)):
                try:
                    r = f(*args)
                    print(f.__name__, args, r)
                except Exception as e:
                    print(f.__name__, args, type(e).__name__, str(e).split(chr(10))[0])
        ti.mean(2 ** 62)
        ti.mean((0, 0))
        (ti > 2).mean(2 ** 62)
        t.mean(2 ** 62, dtype=torch.int64)
        s.mean(1, 2)
        s.sum((0, 0))
        s.sum((0, -1))
        s.sum([0] * 70 + [5])
        t.sum((0, 0, 5))
        t.sum([0] * 65)
        t.sum((0, True))
        t.all((0, True))
        t.sum((0, 'a'), True)
        t.sum((0, 1.5))
        torch.sum(t, 0, 2, out=t)
        torch.argmax(t, 2 ** 64, 2)
    """)


# ---- complex Python numbers ----------------------------------------------------------------------------

NO_COMPLEX = r"^%s\(\): a complex operand gives a %s result, which minitorch does not support \(it has no " \
             r"complex dtype\)$"


@pytest.mark.parametrize("name", ["add", "sub", "subtract", "mul", "multiply", "div", "divide", "true_divide"])
def test_complex_result_is_a_documented_gap(name):
    with pytest.raises(NotImplementedError, match=NO_COMPLEX % (name, "complex64")):
        getattr(f32(), name)(1j)
    with pytest.raises(NotImplementedError, match=NO_COMPLEX % (name, "complex64")):
        getattr(mt, name)(f32(), 1j)
    with pytest.raises(NotImplementedError, match=NO_COMPLEX % (name, "complex64")):
        getattr(mt, name)(1j, i64())
    with pytest.raises(NotImplementedError, match=NO_COMPLEX % (name, "complex128")):
        getattr(f32().double(), name)(2 + 1j)


def test_complex_operators():
    t = f32()
    for op, name in ((lambda: t + 1j, "add"), (lambda: 1j + t, "add"), (lambda: t - 1j, "sub"),
                     (lambda: 1j - t, "sub"), (lambda: t * 1j, "mul"), (lambda: 1j * t, "mul"),
                     (lambda: t / 1j, "div"), (lambda: 1j / t, "div")):
        with pytest.raises(NotImplementedError, match=NO_COMPLEX % (name, "complex64")):
            op()
    with pytest.raises(RuntimeError, match=r"^Subtraction, the `-` operator, with a bool tensor is not supported"):
        (i64() > 2) - 1j


@pytest.mark.parametrize("name", ["add_", "sub_", "subtract_", "mul_", "multiply_", "div_", "divide_",
                                  "true_divide_"])
def test_complex_in_place_cannot_cast(name):
    with pytest.raises(RuntimeError, match=r"^result type ComplexFloat can't be cast to the desired output type "
                                           r"Float$"):
        getattr(f32(), name)(1j)
    with pytest.raises(RuntimeError, match=r"^result type ComplexDouble can't be cast to the desired output type "
                                           r"Double$"):
        getattr(f32().double(), name)(1j)
    with pytest.raises(RuntimeError, match=r"^result type ComplexFloat can't be cast to the desired output type "
                                           r"Long$"):
        getattr(i64(), name)(1j)


def test_complex_in_place_operators():
    t = f32()
    for name in ("__iadd__", "__isub__", "__imul__", "__itruediv__"):
        with pytest.raises(RuntimeError, match=r"^result type ComplexFloat can't be cast to the desired output "
                                               r"type Float$"):
            getattr(t, name)(1j)
    with pytest.raises(RuntimeError, match="can't be cast"):
        t += 1j
    # the written-to tensor's overlap is checked first
    ex = mt.ones(3, 1).expand(3, 4)
    with pytest.raises(RuntimeError, match=r"^unsupported operation: more than one element of the written-to"):
        ex.add_(1j)
    assert t.tolist() == f32().tolist()


@pytest.mark.parametrize("name,kernel", [("lt", "lt"), ("le", "le"), ("gt", "gt"), ("ge", "ge"), ("less", "lt"),
                                         ("less_equal", "le"), ("greater", "gt"), ("greater_equal", "ge")])
def test_complex_ordered_comparison_not_implemented(name, kernel):
    msg = r"^\"%s_cpu\" not implemented for '%s'$"
    with pytest.raises(NotImplementedError, match=msg % (kernel, "ComplexFloat")):
        getattr(f32(), name)(1j)
    with pytest.raises(NotImplementedError, match=msg % (kernel, "ComplexFloat")):
        getattr(mt, name)(i64(), 1j)
    with pytest.raises(NotImplementedError, match=msg % (kernel, "ComplexDouble")):
        getattr(f32().double(), name)(0j)
    if hasattr(mt.Tensor, name + "_"):
        with pytest.raises(NotImplementedError, match=msg % (kernel, "ComplexFloat")):
            getattr(f32(), name + "_")(1j)
    with pytest.raises(NotImplementedError, match=msg % (kernel, "ComplexFloat")):
        getattr(mt.zeros(0), name)(1j)


def test_complex_ordered_comparison_operators():
    t = f32()
    with pytest.raises(NotImplementedError, match=r"^\"lt_cpu\" not implemented for 'ComplexFloat'$"):
        t < 1j
    with pytest.raises(NotImplementedError, match=r"^\"gt_cpu\" not implemented for 'ComplexFloat'$"):
        1j < t    # reflected: t > 1j
    with pytest.raises(TypeError, match=r"^ge\(\) received an invalid combination of arguments"):
        mt.ge(1j, t)


def test_complex_eq_ne_computed():
    t = f32()
    assert t.eq(1j).tolist() == [[False] * 3] * 2 and t.eq(1j).dtype == mt.bool
    assert t.ne(1j).tolist() == [[True] * 3] * 2
    assert t.eq(2 + 0j).tolist() == [[False, False, True], [False, False, False]]
    assert t.not_equal(2 + 0j).tolist() == [[True, True, False], [True, True, True]]
    assert mt.eq(i64(), complex(4, 0)).tolist() == [[False, False, False], [False, True, False]]
    assert mt.ne(t, 1j).tolist() == [[True] * 3] * 2
    assert (i64() > 2).eq(complex(1, 0)).tolist() == [[False] * 3, [True] * 3]
    assert (t == 1j).tolist() == [[False] * 3] * 2
    assert (1j == t).tolist() == [[False] * 3] * 2
    assert (t != complex(5, 0)).tolist() == [[True] * 3, [True, True, False]]
    assert t.eq(complex(float("nan"), 0)).tolist() == [[False] * 3] * 2
    assert mt.full((2,), float("inf")).eq(complex(float("inf"), 0)).tolist() == [True, True]
    # in place: stored in self's dtype
    a = f32()
    assert a.eq_(1j) is a and a.tolist() == [[0.0] * 3] * 2
    b = i64()
    assert b.ne_(1j).tolist() == [[1] * 3] * 2 and b.dtype == mt.int64
    c = f32()
    assert c.eq_(complex(3, 0)).tolist() == [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0]]


def test_complex_eq_precision_of_the_complex_dtype():
    # float32 against complex64: the number's real part rounded to float32; float64 against complex128
    assert mt.tensor([0.1]).eq(complex(0.1, 0)).tolist() == [True]
    assert mt.tensor([0.1]).ne(complex(0.1, 0)).tolist() == [False]
    assert mt.tensor([0.1], dtype=mt.float64).eq(complex(0.1, 0)).tolist() == [True]
    assert mt.tensor([0.1], dtype=mt.float64).eq(complex(0.1 + 1e-17, 0)).tolist() == [False]
    assert mt.tensor([2 ** 53 + 1]).eq(complex(2 ** 53, 0)).tolist() == [True]     # int64 compared in float32


def test_complex_alpha():
    t = f32()
    with pytest.raises(RuntimeError, match=r"^For non-complex input tensors, argument alpha must not be a complex "
                                           r"number\.$"):
        t.add(t, alpha=1j)
    with pytest.raises(RuntimeError, match=r"^For non-complex input tensors, argument alpha must not be a complex"):
        mt.sub(t, 1, alpha=2j)
    with pytest.raises(RuntimeError, match=r"^For integral input tensors, argument alpha must not be a floating"):
        i64().add(i64(), alpha=1j)
    with pytest.raises(RuntimeError, match=r"^Boolean alpha only supported for Boolean results\.$"):
        i64().add(1j, alpha=True)
    # a complex result takes a complex alpha (then it is the documented gap)
    with pytest.raises(NotImplementedError, match=NO_COMPLEX % ("add", "complex64")):
        t.add(1j, alpha=1j)


def test_complex_maximum_minimum_are_type_errors():
    with pytest.raises(TypeError, match=r"^maximum\(\): argument 'other' \(position 1\) must be Tensor, not complex$"):
        f32().maximum(1j)
    with pytest.raises(TypeError, match=r"^minimum\(\): argument 'other' \(position 2\) must be Tensor, not complex$"):
        mt.minimum(f32(), 1j)


def test_complex_refcounts():
    t = f32()
    z = complex(2.5, 1.0)
    calls = [lambda: t.add(z), lambda: t.add_(z), lambda: t.ge(z), lambda: t.eq(z), lambda: t == z,
             lambda: t + z, lambda: t.add(t, alpha=z), lambda: t.add(2, z), lambda: mt.add(t, 2, z)]
    before = sys.getrefcount(z), sys.getrefcount(t)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")     # the deprecated overload's warning
        for _ in range(200):
            for c in calls:
                try:
                    c()
                except (NotImplementedError, RuntimeError):
                    pass
    gc.collect()
    assert (sys.getrefcount(z), sys.getrefcount(t)) == before


@needs_torch
def test_complex_matches_torch():
    compare("""
        t = torch.arange(6, dtype=torch.float32).reshape(2, 3)
        ti = torch.arange(6).reshape(2, 3)
        td = t.double()
        tb = ti > 2
        for x in (t, ti, td, tb):
            for name in ('add_', 'sub_', 'mul_', 'div_', 'true_divide_', 'subtract_', 'multiply_', 'divide_',
                         'lt', 'le', 'gt', 'ge', 'lt_', 'ge_', 'less', 'less_equal', 'greater', 'greater_equal',
                         'eq', 'ne', 'not_equal', 'eq_', 'ne_'):
                for z in (1j, 2 + 0j, complex(float('nan'), 0)):
                    try:
                        print(name, z, getattr(x.clone(), name)(z))
                    except Exception as e:
                        print(name, z, type(e).__name__, e)
        print(t == 1j, t != 1j, 1j == t, t == 2 + 0j)
        t < 1j
        1j < t
        tb - 1j
        t.add(t, alpha=1j)
        ti.add(ti, alpha=1j)
        ti.add(1j, alpha=True)
        t.maximum(1j)
        torch.minimum(t, 1j)
        torch.ge(1j, t)
        torch.eq(t, 1j)
        x = t.clone()
        x += 1j
        t.__iadd__(1j)
        t.__imul__(1j)
        torch.ones(3, 1).expand(3, 4).add_(1j)
        torch.ones(3, 1).expand(3, 4).ge_(1j)
        torch.zeros(0).gt(1j)
    """)


# ---- the deprecated add/sub overloads and subtract's number overload ----------------------------------

def _run(module, code):
    """Runs code in a fresh interpreter (the deprecation warning is emitted once per process) with
    `torch` bound to `module`; returns what it printed as JSON."""
    prog = "import json, warnings, sys\nimport %s as torch\n" % module + textwrap.dedent(code)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (PACKAGE_PARENT, env.get("PYTHONPATH")) if p)
    p = subprocess.run([sys.executable, "-c", prog], capture_output=True, text=True, env=env, cwd=HERE,
                       timeout=300)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


WARNING_PROGRAM = """
    out = []
    t = torch.arange(6, dtype=torch.float32).reshape(2, 3)
    def call(f):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            try:
                r = f()
                res = [str(r.dtype).split(".")[-1], r.tolist()]
            except Exception as e:
                res = [type(e).__name__, str(e)]
        out.append([res, [[x.category.__name__, str(x.message).split(" (Triggered internally")[0],
                           x.filename == __file__ if "__file__" in globals() else True] for x in w]])
    for f in FUNCS:
        call(f)
    print(json.dumps(out))
"""


def _warning_run(module, funcs):
    return _run(module, "FUNCS = [%s]\n" % ", ".join("lambda: " + f for f in funcs) + textwrap.dedent(WARNING_PROGRAM))


def test_deprecated_add_warns_once_per_process():
    got = _warning_run("minitorch", ["t.subtract(2, 3)", "t.add(2, 3)", "t.add(2, 3)", "t.sub(2, 3)",
                                     "torch.add(t, 2, 3)"])
    assert got[0] == [["float32", [[-6.0, -5.0, -4.0], [-3.0, -2.0, -1.0]]], []]    # subtract: no warning
    assert got[1] == [["float32", [[6.0, 7.0, 8.0], [9.0, 10.0, 11.0]]],
                      [["UserWarning", "This overload of add is deprecated:\n\tadd(Number alpha, Tensor other)\n"
                                       "Consider using one of the following signatures instead:\n"
                                       "\tadd(Tensor other, *, Number alpha = 1)", True]]]
    assert [w for _, w in got[2:]] == [[], [], []]


def test_deprecated_warning_texts():
    got = _warning_run("minitorch", ["torch.sub(t, 2, t)"])
    assert got[0][1][0][1] == ("This overload of sub is deprecated:\n"
                               "\tsub(Tensor input, Number alpha, Tensor other, *, Tensor out = None)\n"
                               "Consider using one of the following signatures instead:\n"
                               "\tsub(Tensor input, Tensor other, *, Number alpha = 1, Tensor out = None)")
    got = _warning_run("minitorch", ["t.add_(2, t)"])
    assert got[0][1][0][1].startswith("This overload of add_ is deprecated:\n\tadd_(Number alpha, Tensor other)\n")
    # an error after the overload matched still uses up the warning
    got = _warning_run("minitorch", ["(t > 2).sub(0, 1)", "t.add(1, 1)"])
    assert got[0][0][0] == "RuntimeError" and len(got[0][1]) == 1 and got[1][1] == []


def test_deprecated_warning_as_error():
    got = _run("minitorch", """
        warnings.simplefilter("error")
        try:
            torch.ones(2).add(2, 3)
            print(json.dumps("returned"))
        except UserWarning as e:
            print(json.dumps(str(e).split(chr(10))[0]))
    """)
    assert got == "This overload of add is deprecated:"


def test_deprecated_overload_values():
    t = f32()
    ti = i64()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert t.add(2, 3).tolist() == [[6.0, 7.0, 8.0], [9.0, 10.0, 11.0]]
        assert t.add(2, t).tolist() == [[0.0, 3.0, 6.0], [9.0, 12.0, 15.0]]
        assert t.add(2, other=3).tolist() == t.add(6).tolist()
        assert t.sub(2, t).tolist() == [[0.0, -1.0, -2.0], [-3.0, -4.0, -5.0]]
        assert mt.add(t, 2, 3).tolist() == t.add(6).tolist()
        assert mt.add(t, 2, other=t).tolist() == t.mul(3).tolist()
        assert mt.sub(ti, 3, ti).tolist() == ti.mul(-2).tolist() and mt.sub(ti, 3, ti).dtype == mt.int64
        r = mt.add(2 ** 31, 2 ** 31, 4)
        assert r.item() == 10737418240 and r.dtype == mt.int64 and r.dim() == 0
        assert t.add(mt.tensor(2.0), t).tolist() == t.mul(3).tolist()     # a 0-d tensor is a Number
        assert ti.add(2.5, t).dtype == mt.float32
        a = f32()
        assert a.add_(2, 3) is a and a.tolist() == [[6.0, 7.0, 8.0], [9.0, 10.0, 11.0]]
        assert a.sub_(1, a).tolist() == [[0.0] * 3] * 2
        # the checks of the op itself
        with pytest.raises(RuntimeError, match=r"^For integral input tensors, argument alpha must not be a floating"):
            ti.add(2.5, ti)
        with pytest.raises(RuntimeError, match=r"^Boolean alpha only supported for Boolean results\.$"):
            ti.add(True, ti)
        with pytest.raises(RuntimeError, match=r"^Subtraction, the `-` operator, with a bool tensor"):
            (ti > 2).sub(0, 1)
        with pytest.raises(RuntimeError, match=r"^result type Long can't be cast to the desired output type Bool$"):
            (ti > 2).add_(0, 1)
        with pytest.raises(RuntimeError, match=r"^unsupported operation: more than one element of the written-to"):
            mt.ones(3, 1).expand(3, 4).add_(0, 1)
        with pytest.raises(NotImplementedError, match=NO_COMPLEX % ("add", "complex64")):
            t.add(2, 1j)
        with pytest.raises(RuntimeError, match=r"^result type ComplexFloat can't be cast"):
            t.add_(2, 1j)
        with pytest.raises(RuntimeError, match=r"^For non-complex input tensors, argument alpha must not be a "
                                               r"complex number\.$"):
            t.add(1j, t)


def test_arguments_that_fit_no_add_overload():
    t = f32()
    with pytest.raises(TypeError, match=r"^add\(\) takes 1 positional argument but 2 were given$"):
        t.add(t, t)                                # a 2-d alpha is not a Number
    with pytest.raises(TypeError, match=r"^add\(\) takes 1 positional argument but 2 were given$"):
        t.add(mt.tensor([2.0]), t)
    with pytest.raises(TypeError, match=r"^add_\(\) takes 1 positional argument but 2 were given$"):
        t.add_(2, "a")
    with pytest.raises(TypeError, match=r"^add\(\) takes 2 positional arguments but 3 were given$"):
        mt.add(t, t, 2)
    with pytest.raises(TypeError, match=r"^add\(\) got multiple values for argument 'other'$"):
        t.add(t, other=t)
    assert t.tolist() == f32().tolist()


def test_subtract_number_overload():
    t = f32()
    ti = i64()
    assert t.subtract(2, 3).tolist() == t.sub(6).tolist()
    assert ti.subtract(2.5, 2).tolist() == [[-5.0, -4.0, -3.0], [-2.0, -1.0, 0.0]]
    assert ti.subtract(2.5, 2).dtype == mt.float32          # other=2.5, alpha=2 (not the deprecated order)
    assert mt.subtract(ti, 2.5, 2).dtype == mt.float32
    assert mt.subtract(2 ** 31, 2 ** 31, 4).item() == -6442450944
    # a 0-d tensor `other` is read as a Python number
    assert ti.subtract(mt.tensor(2.5, dtype=mt.float64), 1).dtype == mt.float32
    a = f32()
    assert a.subtract_(1, 2) is a and a.tolist() == t.sub(2).tolist()
    with pytest.raises(RuntimeError, match=r"^For integral input tensors, argument alpha must not be a floating"):
        ti.subtract(2, 2.5)
    with pytest.raises(RuntimeError, match=r"^For non-complex input tensors, argument alpha must not be a complex"):
        t.subtract(2, 1j)
    with pytest.raises(NotImplementedError, match=NO_COMPLEX % ("subtract", "complex64")):
        t.subtract(1j, 2)
    sigs = " \\* \\(Tensor other, \\*, Number alpha = 1\\)\n \\* \\(Number other, Number alpha = 1\\)\n"
    with pytest.raises(TypeError, match="^subtract\\(\\) received an invalid combination of arguments - got "
                                        "\\(Tensor, int\\), but expected one of:\n" + sigs +
                                        "      didn't match because some of the arguments have invalid types: "
                                        "\\(!Tensor!, !int!\\)\n$"):
        t.subtract(t, 2)
    with pytest.raises(TypeError, match="^subtract_\\(\\) received an invalid combination of arguments - got "
                                        "\\(int, Tensor\\)"):
        t.subtract_(2, t)
    with pytest.raises(TypeError, match="^subtract\\(\\) received an invalid combination of arguments - got "
                                        "\\(\\), but expected one of:\n" + sigs + "$"):
        t.subtract()
    with pytest.raises(TypeError, match="didn't match because some of the arguments have invalid types: "
                                        "\\(Tensor, !int!, !Tensor!\\)\n$"):
        mt.subtract(t, 2, t)


@needs_torch
def test_deprecated_overloads_match_torch():
    funcs = ["t.sub(2, 3)", "t.add(2, 3)", "torch.add(t, 2, 3)", "t.subtract(2, 3)", "torch.subtract(t, 2, 3)",
             "t.sub_(2, t)", "t.add(2, other=3)", "torch.add(t, 2, other=t)", "torch.add(2**31, 2**31, 4)",
             "torch.sub(2**31, 2**31, 4)", "torch.subtract(2**31, 2**31, 4)", "t.add(2**32, 2**32)",
             "t.add(0, -2**63)", "(t > 2).add(True, t > 1)", "(t > 2).sub(0, 1)", "(t > 2).add_(0, 1)",
             "t.long().add(2.5, t)", "t.long().subtract(2.5, 2)", "t.long().subtract(2, 2.5)",
             "t.add(torch.tensor(2.), t)", "t.add(torch.tensor([2.]), t)", "t.add(t, t)", "t.subtract(t, 2)",
             "torch.subtract(t, 2, t)", "t.subtract()", "t.subtract('a')", "torch.subtract(t)", "t.add(2, 'a')",
             "torch.add(t, t, 2)", "t.add(t, other=t)", "t.add(1j, t)", "t.subtract(2, 1j)", "t.add_(2, 1j)",
             "t.subtract_(2, t)", "torch.sub(t, 2, t)", "t.add_(2, t)"]
    assert _warning_run("minitorch", funcs) == _warning_run("torch", funcs)


# ---- out= after the operands; maximum/minimum refuse numbers as TypeErrors ----------------------------

@pytest.mark.parametrize("name", ["eq", "ne", "lt", "le", "gt", "ge", "not_equal", "less", "less_equal", "greater",
                                  "greater_equal"])
def test_comparison_out_checked_after_the_operands(name):
    t = f32()
    with pytest.raises(TypeError, match=r"^%s\(\) received an invalid combination of arguments - got "
                                        r"\(int, int, out=Tensor\)" % name):
        getattr(mt, name)(2, 3, out=t)
    with pytest.raises(TypeError, match=r"^%s\(\) received an invalid combination of arguments - got "
                                        r"\(Tensor, str, out=Tensor\)" % name):
        getattr(mt, name)(t, "a", out=t)
    out = mt.empty(0, dtype=mt.bool)
    assert getattr(mt, name)(t, 3, out=out) is out and out.tolist() == getattr(t, name)(3).tolist()


@pytest.mark.parametrize("name", ["maximum", "minimum"])
def test_maximum_minimum_take_tensors_only(name):
    t = f32()
    for n in (2 ** 64, 2 ** 63, 1, 2.5):
        with pytest.raises(TypeError, match=r"^%s\(\): argument 'other' \(position 1\) must be Tensor, not %s$"
                           % (name, type(n).__name__)):
            getattr(t, name)(n)
        with pytest.raises(TypeError, match=r"^%s\(\): argument 'other' \(position 2\) must be Tensor, not %s$"
                           % (name, type(n).__name__)):
            getattr(mt, name)(t, n)
    with pytest.raises(TypeError, match=r"^%s\(\): argument 'input' \(position 1\) must be Tensor, not int$" % name):
        getattr(mt, name)(2, 3, out=t)
    with pytest.raises(TypeError, match=r"^%s\(\): argument 'input' \(position 1\) must be Tensor, not int$" % name):
        getattr(mt, name)(2 ** 64, t)
    assert getattr(mt, name)(t, t, out=t) is t


def test_alpha_ops_out_checked_after_the_operands():
    t = f32()
    with pytest.raises(TypeError, match=r"^add\(\): argument 'other' \(position 2\) must be Tensor, not str$"):
        mt.add(t, "a", out=t)
    with pytest.raises(TypeError, match=r"^mul\(\): argument 'input' \(position 1\) must be Tensor, not str$"):
        mt.mul("a", t, out=t)
    with pytest.raises(TypeError, match=r"^add\(\): argument 'alpha' must be Number, not str$"):
        mt.add(t, 1, alpha="a", out=t)


@needs_torch
def test_out_and_maximum_errors_match_torch():
    compare("""
        t = torch.arange(6, dtype=torch.float32).reshape(2, 3)
        for name in ('eq', 'ne', 'lt', 'le', 'gt', 'ge', 'not_equal', 'less', 'less_equal', 'greater',
                     'greater_equal', 'maximum', 'minimum'):
            for args in ((2, 3), (t, 'a'), (2 ** 64, t)):
                try:
                    getattr(torch, name)(*args, out=t)
                except Exception as e:
                    print(name, type(e).__name__, e)
        t.maximum(2 ** 64)
        t.minimum(2 ** 64)
        torch.maximum(t, 2 ** 64)
        torch.minimum(t, 2 ** 63)
        t.maximum(1.5)
        torch.add(t, 'a', out=t)
        torch.mul('a', t, out=t)
    """)


@pytest.mark.parametrize("expr, want", [
    ("mt.ones(2) + 2**63", [9.223372036854776e18] * 2),
    ("mt.ones(2, dtype=mt.float64) * (2**64 - 1)", [1.8446744073709552e19] * 2),
    ("2**63 - mt.ones(2)", [9.223372036854776e18] * 2),
    ("mt.ones(2) > 2**63", [False, False]),
    ("mt.ones(2, dtype=mt.int64) + 2**63", [-9223372036854775807] * 2),
])
def test_python_ints_past_int64_keep_their_value_in_float_math(expr, want):
    """torch holds an int in [2**63, 2**64) as uint64: a float result sees its value; int64 math wraps."""
    assert eval(expr).tolist() == want


def test_alpha_takes_a_0d_tensor_but_no_other_tensor():
    t = mt.ones(2)
    assert t.add(t, alpha=mt.tensor(2.0)).tolist() == [3.0, 3.0]
    for bad in (mt.tensor([2.0]), mt.tensor([[2]])):
        with pytest.raises(TypeError, match=r"^add\(\): argument 'alpha' must be Number, not Tensor$"):
            t.add(t, alpha=bad)


@needs_torch
def test_div_rounding_mode():
    compare("""
        x = torch.tensor([-7.5, 7.5, 3., -0.5], requires_grad=True)
        y = torch.tensor([2., -2., 0., 1.], requires_grad=True)
        print(torch.div(x, y, rounding_mode='trunc'), torch.div(x, 2, rounding_mode='floor'))
        print(x.divide(y, rounding_mode='floor'), x.div(-2.5, rounding_mode='trunc'))
        torch.div(x, y, rounding_mode='trunc').sum().backward()
        print(x.grad, y.grad)
        print(torch.div(3, y, rounding_mode='floor'), torch.div(x, y[:1], rounding_mode='trunc').grad_fn.name())
        i = torch.tensor([-7, 7, 3, -2**63, 2**62])
        print(torch.div(i, 2, rounding_mode='trunc'), torch.div(i, -2, rounding_mode='floor'))
        print(torch.div(7, i, rounding_mode='trunc'), torch.div(i.int(), 3, rounding_mode='trunc'))
        print(torch.div(i, 2.5, rounding_mode='trunc'), torch.div(i, torch.tensor(3), rounding_mode='floor'))
        torch.div(x, y, rounding_mode='xyz')
        torch.div(i, 0, rounding_mode='trunc')
        torch.div(i, 0, rounding_mode='floor')
        i.div_(2.5, rounding_mode='trunc')
        torch.div(torch.tensor([True]), torch.tensor([True]), rounding_mode='trunc')
        torch.div(torch.tensor([True]), torch.tensor([True]), rounding_mode='floor')
        x.div_(2, rounding_mode='floor')
        torch.true_divide(x, 2, rounding_mode='floor')
        a = torch.tensor([5., 6.])
        print(a.div_(4, rounding_mode='floor'), a._version)
        print(torch.div(torch.tensor([1e30]), 3e-10, rounding_mode='trunc'))
        b = torch.tensor([1., 2.], requires_grad=True).clone()
        b.div_(3, rounding_mode='trunc')
        print(b)
        out = torch.empty(0, dtype=torch.int32)
        print(torch.div(torch.tensor([7, -7]), 2, rounding_mode='floor', out=out), out.dtype)
        torch.manual_seed(0)
        u = torch.randn(1000, dtype=torch.float64) * 100
        v = torch.randn(1000, dtype=torch.float64)
        print(torch.div(u, v, rounding_mode='floor').sum().item(), torch.div(u.float(), v.float(), rounding_mode='trunc').tolist()[:20])
    """)
