"""Argument checking of the factories and fills (rows of csrc/python/ops.def, checks in
csrc/ops/factory.c) and the copy methods (csrc/ops/copy.c).

Each behaviour is pinned twice: expectations that run without torch (exception type and message as
torch 2.13 gives them), and, where torch is installed, a comparison that runs the same call under both
modules and checks minitorch raises torch's exception type with torch's message, or returns torch's
values.
"""

import math
import warnings

import pytest

import minitorch
from parity import same_build_as_torch

try:
    import torch

    HAVE_TORCH = True
except ImportError:  # the comparisons skip; the expectations below still run
    torch = None
    HAVE_TORCH = False

needs_torch = pytest.mark.skipif(not HAVE_TORCH, reason="torch is not installed")

OVERLAP = ("unsupported operation: more than one element of the written-to tensor refers to a single memory "
           "location. Please clone() the tensor before performing the operation.")


def inputs(mod):
    return {
        "t": mod.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]),
        "ti": mod.tensor([[1, 2, 3], [4, 5, 6]]),
        "tb": mod.tensor([True, False]),
        "s": mod.tensor(1.5),
        "si": mod.tensor(2),
        "ex": mod.tensor([[1.0], [2.0], [3.0]]).expand(3, 4),
        "torch": mod,
        "nan": math.nan,
        "inf": math.inf,
    }


def outcome(mod, expr):
    """("ok", values) or ("raise", exception type name, message)."""
    ns = inputs(mod)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = eval(expr, ns)
    except Exception as e:  # noqa: BLE001 - the exception is the outcome
        return ("raise", type(e).__name__, str(e).split("\n")[0])
    if hasattr(r, "tolist"):
        return ("ok", str(r.dtype).split(".")[-1], tuple(r.shape), r.tolist())
    return ("ok", r)


def check(expr, exc=None, msg=None):
    """Runs expr under minitorch: raises `exc` whose message starts with `msg`, or returns (exc None)."""
    got = outcome(minitorch, expr)
    if exc is None:
        assert got[0] == "ok", "%s: %r" % (expr, got)
        return got
    assert got[:2] == ("raise", exc), "%s: %r" % (expr, got)
    if msg is not None:
        assert got[2].startswith(msg), "%s: %r" % (expr, got)
    return got


def same_as_torch(expr, message=True):
    mine, theirs = outcome(minitorch, expr), outcome(torch, expr)
    if theirs[0] == "ok":
        assert mine == theirs, expr
    else:
        assert mine[:2] == theirs[:2], "%s: minitorch %r, torch %r" % (expr, mine, theirs)
        if message:
            assert mine[2] == theirs[2], "%s: minitorch %r, torch %r" % (expr, mine, theirs)


# ---- Tensor.bool/float/double/int/long/cpu: only memory_format= ----------------------------------------

@pytest.mark.parametrize("name", ["bool", "float", "double", "int", "long", "cpu"])
def test_conversion_methods_take_no_positional_arguments(name):
    check("t.%s(1)" % name, "TypeError", "%s() takes 0 positional arguments but 1 was given" % name)
    check("t.%s(1, 2)" % name, "TypeError", "%s() takes 0 positional arguments but 2 were given" % name)
    check("t.%s(bogus=1)" % name, "TypeError", "%s() got an unexpected keyword argument 'bogus'" % name)
    check("t.%s(memory_format=1)" % name, "TypeError",
          "%s(): argument 'memory_format' must be torch.memory_format, not int" % name)
    check("t.%s(bogus=2, memory_format=1)" % name, "TypeError", "%s(): argument 'memory_format'" % name)
    check("t.%s(memory_format=None)" % name)
    check("t.%s()" % name)


def test_conversion_methods_still_convert():
    t = minitorch.tensor([[1.5, 0.0]])
    assert t.int(memory_format=None).dtype == minitorch.int32
    assert t.bool().tolist() == [[True, False]]
    assert t.long().tolist() == [[1, 0]]
    assert t.cpu() is t


# ---- Tensor.copy_ ------------------------------------------------------------------------------------

def test_copy_from_a_number():
    assert check("t.copy_(1.5)")[3] == [[1.5] * 3] * 2
    assert check("ti.copy_(2.7)")[3] == [[2] * 3] * 2
    assert check("tb.copy_(5)")[3] == [True, True]
    assert check("t.copy_(True)")[3] == [[1.0] * 3] * 2
    # torch's uint64 Scalar: exact into a float tensor, the wrapped bits into an int64 one
    assert check("t.double().copy_(2**64 - 1)")[3][0][0] == 2.0 ** 64
    assert check("ti.copy_(2**64 - 1)")[3] == [[-1] * 3] * 2
    # a copy, not a checked fill: NaN into int64 is the cast's value
    assert check("ti.copy_(nan)")[3] == [[-2 ** 63] * 3] * 2
    check("t.copy_(2**64)", "OverflowError", "int too big to convert")
    check("t.copy_(-2**63 - 1)", "OverflowError", "can't convert negative int to unsigned")


def test_copy_from_a_complex_number_keeps_the_real_part_and_warns():
    t = minitorch.zeros(2)
    with pytest.warns(UserWarning, match="Casting complex values to real discards the imaginary part"):
        t.copy_(2 + 1j)
    assert t.tolist() == [2.0, 2.0]
    assert minitorch.tensor([False]).copy_(1j).tolist() == [True]


def test_copy_checks_its_arguments():
    check("t.copy_(t, t)", "TypeError", "copy_(): argument 'non_blocking' (position 2) must be bool, not Tensor")
    check("t.copy_(t, 1)", "TypeError", "copy_(): argument 'non_blocking' (position 2) must be bool, not int")
    check("t.copy_(t, non_blocking=None)", "TypeError",
          "copy_(): argument 'non_blocking' must be bool, not NoneType")
    check("t.copy_(object())", "TypeError", "copy_(): argument 'other' (position 1) must be Tensor, not object")
    check("t.copy_('abc')", "TypeError", "copy_(): argument 'other' (position 1) must be Tensor, not str")
    check("t.copy_()", "TypeError", "copy_() received an invalid combination of arguments - got (), but expected "
                                    "(Tensor other, bool non_blocking = False)")
    check("t.copy_(t, False, 3)", "TypeError", "copy_() received an invalid combination of arguments")
    check("t.copy_(src=s)", "TypeError", 'copy_() missing 1 required positional arguments: "other"')
    check("t.copy_(s, bogus=1)", "TypeError", "copy_() got an unexpected keyword argument 'bogus'")
    check("t.copy_(s, other=s)", "TypeError", "copy_() got multiple values for argument 'other'")
    assert check("t.copy_(other=s, non_blocking=True)")[3] == [[1.5] * 3] * 2


def test_copy_refuses_an_expanded_destination():
    check("ex.copy_(s)", "RuntimeError", OVERLAP)
    check("ex.copy_(1)", "RuntimeError", OVERLAP)
    check("ex[0].copy_(torch.zeros(4))", "RuntimeError", OVERLAP)
    # before the shapes are compared
    check("ex.copy_(torch.zeros(5))", "RuntimeError", OVERLAP)
    # self's own data is returned at once, as torch does
    check("ex.copy_(ex)")
    # a slice of an expanded tensor that is not itself overlapping is fine
    check("t.expand(2, 2, 3)[0].copy_(t)")


# ---- Tensor.cuda -------------------------------------------------------------------------------------

def test_cuda_checks_types_before_the_device():
    check("t.cuda(0, 2**62)", "TypeError", "cuda(): argument 'non_blocking' (position 2) must be bool, not int")
    check("t.cuda(2**62, 0)", "TypeError", "cuda(): argument 'non_blocking' (position 2) must be bool, not int")
    check("t.cuda(t, t)", "TypeError", "cuda(): argument 'device' (position 1) must be torch.device, not Tensor")
    check("t.cuda(1.5)", "TypeError", "cuda(): argument 'device' (position 1) must be torch.device, not float")
    check("t.cuda(True)", "TypeError", "cuda(): argument 'device' (position 1) must be torch.device, not bool")
    check("t.cuda(device=t)", "TypeError", "cuda(): argument 'device' must be torch.device, not Tensor")
    check("t.cuda(non_blocking=1)", "TypeError", "cuda(): argument 'non_blocking' must be bool, not int")
    check("t.cuda(1, 2, 3)", "TypeError", "cuda() takes from 0 to 2 positional arguments but 3 were given")
    check("t.cuda(-1, -1, -1)", "TypeError", "cuda() takes from 0 to 2 positional arguments but 3 were given")
    check("t.cuda(1, 2, 3, 4, 5)", "TypeError", "cuda() received an invalid combination of arguments")
    check("t.cuda(0, True, memory_format=1)", "TypeError",
          "cuda(): argument 'memory_format' must be torch.memory_format, not int")
    check("t.cuda(0, device=1)", "TypeError", "cuda() got multiple values for argument 'device'")
    check("t.cuda(0, bogus=1)", "TypeError", "cuda() got an unexpected keyword argument 'bogus'")
    check("t.cuda('cpu')", "RuntimeError", "Invalid device, must be cuda device")
    check("t.cuda(-1)", "RuntimeError", "Device index must not be negative")


# ---- Tensor.fill_ ------------------------------------------------------------------------------------

def test_fill_refuses_extra_arguments():
    for expr in ("t.fill_(1, 2)", "t.fill_(t, t)", "t.fill_()", "t.fill_(bogus=2)", "t.fill_(value=1, bogus=2)",
                 "t.fill_(object())", "t.fill_(None)", "t.fill_([1])"):
        check(expr, "TypeError", "fill_() received an invalid combination of arguments")
    assert check("t.fill_(value=2)")[3] == [[2.0] * 3] * 2


def test_fill_checks_the_value_fits():
    check("ti.fill_(nan)", "RuntimeError", "value cannot be converted to type int64_t without overflow")
    check("ti.fill_(inf)", "RuntimeError", "value cannot be converted to type int64_t without overflow")
    check("ti.fill_(2**63)", "RuntimeError", "value cannot be converted to type int64_t without overflow")
    check("ti.int().fill_(2**31)", "RuntimeError", "value cannot be converted to type int without overflow")
    check("ti.int().fill_(1e10)", "RuntimeError", "value cannot be converted to type int without overflow")
    check("t.fill_(1e300)", "RuntimeError", "value cannot be converted to type float without overflow")
    check("t.fill_(1j)", "RuntimeError", "value cannot be converted to type float without overflow")
    check("ti.fill_(2**64)", "OverflowError", "int too big to convert")
    assert check("t.fill_(inf)")[3] == [[math.inf] * 3] * 2
    assert check("t.fill_(1 + 0j)")[3] == [[1.0] * 3] * 2
    assert check("tb.fill_(nan)")[3] == [True, True]
    assert check("ti.fill_(1.9)")[3] == [[1] * 3] * 2
    # past int64 an int is a uint64: exact for the float dtypes
    assert check("t.double().fill_(2**64 - 1)")[3][0][0] == 2.0 ** 64
    assert check("t.fill_(2**63)")[3][0][0] == 2.0 ** 63
    # a 0-d tensor value is copied in (a cast, not a checked conversion)
    assert check("ti.fill_(torch.tensor(nan))")[3] == [[-2 ** 63] * 3] * 2


def test_fill_with_a_tensor_refuses_an_expanded_destination():
    check("ex.fill_(s)", "RuntimeError", OVERLAP)
    check("ex.fill_(si)", "RuntimeError", OVERLAP)
    # a number fill is idempotent: torch allows it
    assert check("ex.fill_(1)")[3] == [[1.0] * 4] * 3


# ---- Tensor.normal_ / uniform_ -----------------------------------------------------------------------

@pytest.mark.parametrize("call, msg", [
    ("t.uniform_(-1e39, 1)", "from is out of bounds for float"),
    ("t.uniform_(0, 1e39)", "to is out of bounds for float"),
    ("t.uniform_(nan, 1)", "from is out of bounds for float"),
    ("t.double().uniform_(0, inf)", "to is out of bounds for double"),
    ("t.uniform_(-3.4e38, 3.4e38)", "uniform_ expects to-from <= std::numeric_limits<Float>::max(), but found "
                                    "to=3.4e+38 and from=-3.4e+38 which result in to-from to exceed the limit"),
])
def test_uniform_bounds_are_checked_as_torchs(call, msg):
    check(call, "RuntimeError", msg)
    check("t.double().uniform_(-1e39, 1e39)")  # within double's range


@pytest.mark.parametrize("name", ["normal_", "uniform_"])
def test_random_fills_refuse_an_expanded_destination(name):
    check("ex.%s()" % name, "RuntimeError", OVERLAP)
    check("ex.%s(0, 1)" % name, "RuntimeError", OVERLAP)


def test_random_fills_take_0d_tensors_and_big_ints():
    t = minitorch.zeros(100)
    t.normal_(minitorch.tensor(5.0), minitorch.tensor(0.0))
    assert t.tolist() == [5.0] * 100
    t.uniform_(minitorch.tensor(2), minitorch.tensor(2.0))
    assert t.tolist() == [2.0] * 100
    check("t.normal_(2**64)")
    check("t.uniform_(s)", "RuntimeError", "uniform_ expects to return a [from, to) range, but found from=1.5 > to=1")
    check("t.uniform_(2**64)", "RuntimeError", "uniform_ expects to return a [from, to) range, but found "
                                                "from=1.84467e+19 > to=1")
    check("t.uniform_(2**1100)", "OverflowError", "int too large to convert to float")
    check("t.normal_(torch.tensor([1.0]))", "TypeError", "normal_(): argument 'mean' (position 1) must be float, "
                                                          "not Tensor")
    check("t.normal_('a')", "TypeError", "normal_(): argument 'mean' (position 1) must be float, not str")
    check("t.uniform_(to='a')", "TypeError", "uniform_(): argument 'to' must be float, not str")
    check("t.uniform_(0, 1, 2)", "TypeError", "uniform_() takes from 0 to 2 positional arguments but 3 were given")
    check("ti.normal_(s)", "NotImplementedError", "\"normal_kernel_cpu\" not implemented for 'Long'")


# ---- arange ------------------------------------------------------------------------------------------

def test_arange_bool_and_complex():
    check("torch.arange(2, dtype=torch.bool)", "NotImplementedError", "\"arange_cpu\" not implemented for 'Bool'")
    check("torch.arange(0, 2, dtype=torch.bool)", "NotImplementedError", "\"arange_cpu\" not implemented")
    check("torch.arange(1j)", "RuntimeError", "value cannot be converted to type double without overflow")
    check("torch.arange(0, 1j)", "RuntimeError", "value cannot be converted to type double without overflow")
    assert check("torch.arange(2 + 0j)")[1:] == ("float32", (2,), [0.0, 1.0])
    check("torch.arange(2**63)", "RuntimeError", "value cannot be converted to type int64_t without overflow")
    check("torch.arange(2, requires_grad='yes')", "TypeError", "arange() received an invalid combination")


# ---- zeros/ones/empty/rand/randn ---------------------------------------------------------------------

@pytest.mark.parametrize("name", ["zeros", "ones", "empty"])
def test_sized_factories_need_a_size(name):
    check("torch.%s()" % name, "TypeError", '%s() missing 1 required positional arguments: "size"' % name)
    check("torch.%s(dtype=torch.float32)" % name, "TypeError", "%s() missing 1 required" % name)
    check("torch.%s(2, requires_grad='yes')" % name, "TypeError",
          "%s(): argument 'requires_grad' must be bool, not str" % name)
    check("torch.%s(2, requires_grad=1)" % name, "TypeError",
          "%s(): argument 'requires_grad' must be bool, not int" % name)


@pytest.mark.parametrize("name", ["rand", "randn"])
def test_random_factories_need_a_size(name):
    check("torch.%s()" % name, "TypeError", "%s() received an invalid combination of arguments - got (), but "
                                             "expected one of:" % name)
    check("torch.%s(2, requires_grad='yes')" % name, "TypeError", "%s() received an invalid combination" % name)


@pytest.mark.parametrize("name", ["zeros", "ones", "empty", "rand", "randn"])
def test_a_one_element_int_tensor_is_a_size(name):
    assert check("torch.%s(si)" % name)[2] == (2,)
    assert check("torch.%s(torch.tensor([3]))" % name)[2] == (3,)
    assert check("torch.%s(si, 3)" % name)[2] == (2, 3)
    check("torch.%s(torch.tensor(2.0))" % name, "TypeError",
          "%s(): argument 'size' (position 1) must be tuple of ints, not Tensor" % name)
    check("torch.%s(torch.tensor([2, 3]))" % name, "TypeError")
    check("torch.%s(torch.tensor(True))" % name, "RuntimeError", "Expected scalar.isIntegral( false) to be true")


# ---- the *_like factories ----------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["empty_like", "zeros_like", "ones_like"])
def test_like_factories_take_one_positional_argument(name):
    check("torch.%s(t, object())" % name, "TypeError", "%s() takes 1 positional argument but 2 were given" % name)
    check("torch.%s(t, 1, bogus=1)" % name, "TypeError", "%s() takes 1 positional argument but 2 were given" % name)
    check("torch.%s(2, device='gpu')" % name, "TypeError",
          "%s(): argument 'input' (position 1) must be Tensor, not int" % name)
    check("torch.%s(input=2, device='gpu')" % name, "TypeError",
          "%s(): argument 'input' must be Tensor, not int" % name)
    check("torch.%s(2, bogus=1)" % name, "TypeError", "%s(): argument 'input' (position 1)" % name)
    check("torch.%s()" % name, "TypeError", '%s() missing 1 required positional arguments: "input"' % name)
    check("torch.%s(t, fill_value=1)" % name, "TypeError", "%s() got an unexpected keyword argument" % name)
    check("torch.%s(t, requires_grad='yes')" % name, "TypeError",
          "%s(): argument 'requires_grad' must be bool, not str" % name)
    assert check("torch.%s(input=t)" % name)[2] == (2, 3)


def test_full_like_arguments():
    check("torch.full_like(t, 1, 2**62)", "TypeError", "full_like() takes 2 positional arguments but 3 were given")
    check("torch.full_like(2, 1, device='gpu')", "TypeError",
          "full_like(): argument 'input' (position 1) must be Tensor, not int")
    check("torch.full_like(t, device='cuda:99')", "TypeError",
          'full_like() missing 1 required positional arguments: "fill_value"')
    check("torch.full_like(t, fill_value=None)", "TypeError",
          "full_like(): argument 'fill_value' must be Number, not NoneType")
    check("torch.full_like(ti, nan)", "RuntimeError", "value cannot be converted to type int64_t without overflow")
    assert check("torch.full_like(t, 2**63)")[3][0][0] == 2.0 ** 63


@pytest.mark.parametrize("name", ["rand_like", "randn_like"])
def test_random_like_factories(name):
    for expr in ("torch.%s(t, object())", "torch.%s(t, t)", "torch.%s(t, 'cuda:99')", "torch.%s(2, device='gpu')",
                 "torch.%s()", "torch.%s(t, requires_grad='yes')"):
        check(expr % name, "TypeError", "%s() received an invalid combination of arguments" % name)
    assert check("torch.%s(input=t)" % name)[2] == (2, 3)


# ---- eye, full, randint ------------------------------------------------------------------------------

def test_eye_arguments():
    for expr in ("torch.eye(1, 2, 3)", "torch.eye(2, None)", "torch.eye(2, m=None)", "torch.eye()",
                 "torch.eye(2, 1.5)", "torch.eye(2, requires_grad='yes')"):
        check(expr, "TypeError", "eye() received an invalid combination of arguments")
    check("torch.eye(2**63)", "ValueError", "Overflow when unpacking long long")
    check("torch.eye(2, 2**64)", "ValueError", "Overflow when unpacking long long")
    check("torch.eye(-2**63 - 1)", "ValueError", "Overflow when unpacking long long")
    check("torch.eye(1.5)", "TypeError", "eye(): argument 'n' (position 1) must be int, not float")
    check("torch.eye(True)", "TypeError", "eye(): argument 'n' (position 1) must be int, not bool")
    check("torch.eye(torch.tensor(2.0))", "TypeError", "eye(): argument 'n' (position 1) must be int, not Tensor")
    check("torch.eye(-1)", "RuntimeError", "n must be greater or equal to 0, got -1")
    assert check("torch.eye(si)")[3] == [[1.0, 0.0], [0.0, 1.0]]
    assert check("torch.eye(1, si)")[3] == [[1.0, 0.0]]
    assert check("torch.eye(n=2, m=1)")[3] == [[1.0], [0.0]]


def test_full_arguments():
    check("torch.full(2, device='gpu')", "TypeError", "full(): argument 'size' (position 1) must be tuple of ints, "
                                                      "not int")
    check("torch.full(device='gpu')", "TypeError", 'full() missing 2 required positional argument: "size", '
                                                   '"fill_value"')
    check("torch.full((2,), device='gpu')", "TypeError", 'full() missing 1 required positional arguments: '
                                                         '"fill_value"')
    check("torch.full([1] * 65)", "TypeError", 'full() missing 1 required positional arguments: "fill_value"')
    check("torch.full((2,), 1.0, requires_grad='yes')", "TypeError",
          "full(): argument 'requires_grad' must be bool, not str")
    check("torch.full((2,), 2**63)", "RuntimeError", "value cannot be converted to type int64_t without overflow")
    check("torch.full((2,), nan, dtype=torch.int64)", "RuntimeError", "value cannot be converted to type int64_t")
    check("torch.full((2,), 2**40, dtype=torch.int32)", "RuntimeError", "value cannot be converted to type int ")
    check("torch.full((2,), 1e300, dtype=torch.float32)", "RuntimeError", "value cannot be converted to type float")
    check("torch.full((2,), 2**64)", "OverflowError", "int too big to convert")
    check("torch.full((2,), 1j)", "NotImplementedError", "full(): a complex fill_value makes a complex64 tensor, "
                                                          "which minitorch does not support")
    assert check("torch.full((2,), 2**63, dtype=torch.float64)")[3] == [2.0 ** 63] * 2
    assert check("torch.full((2,), 2**64 - 1, dtype=torch.float32)")[3] == [2.0 ** 64] * 2
    assert check("torch.full((2,), 1.5, dtype=torch.int64)")[3] == [1, 1]


def test_randint_misses_the_size_before_reading_the_device():
    for dev in ("'gpu'", "-1", "2**70", "''", "'cuda:-1'"):
        check("torch.randint(2, device=%s)" % dev, "TypeError", 'randint() missing 1 required positional '
                                                                 'arguments: "size"')
    check("torch.randint(2)", "TypeError", "randint() received an invalid combination of arguments")
    check("torch.randint(2, (3,), device='gpu')", "RuntimeError")


def test_device_is_read_after_the_arguments():
    check("torch.zeros(2, device=1.5)", "TypeError", "zeros(): argument 'device' must be torch.device, not float")
    check("torch.zeros(2, device='gpu', bogus=1)", "TypeError", "zeros() got an unexpected keyword argument 'bogus'")
    check("torch.zeros(2, device='gpu')", "RuntimeError")


# ---- Python ints past int64 in the scalar parser ----------------------------------------------------

def test_uint64_scalars_are_not_negative():
    assert minitorch.full((1,), 2 ** 64 - 1, dtype=minitorch.float64).item() == 2.0 ** 64
    assert minitorch.zeros(1, dtype=minitorch.float64).fill_(2 ** 63).item() == 2.0 ** 63
    # integer tensors: refused where torch checks, wrapped where torch wraps
    with pytest.raises(RuntimeError, match="without overflow"):
        minitorch.zeros(1, dtype=minitorch.int64).fill_(2 ** 63)
    assert minitorch.zeros(1, dtype=minitorch.int64).copy_(2 ** 64 - 1).item() == -1
    assert minitorch.tensor(2 ** 63 - 1) + 2 ** 63 == -1


# ---- torch parity ------------------------------------------------------------------------------------

PARITY = [
    "t.bool(1)", "t.float(1, 2)", "t.long(bogus=1)", "t.int(memory_format=1)", "t.double(memory_format=None)",
    "t.cpu(1)", "t.cpu(bogus=2, memory_format=1)",
    "t.copy_(1.5)", "ti.copy_(1.5)", "ti.copy_(nan)", "ti.copy_(2**63)", "ti.copy_(2**64-1)", "t.copy_(2**64)",
    "tb.copy_(5)", "t.copy_(True)", "t.copy_(t, t)", "t.copy_(t, 1)", "t.copy_(t, non_blocking=1)",
    "t.copy_(object())", "t.copy_()", "t.copy_(t, False, 3)", "t.copy_(src=1.0)", "t.copy_(other=s)",
    "ex.copy_(s)", "ex.copy_(1)", "ex.copy_(torch.zeros(5))", "ex.copy_(t, t)", "ti.int().copy_(2**40)",
    "t.cuda(t, t)", "t.cuda(1.5)", "t.cuda(0, 1)", "t.cuda(0, 2**62)", "t.cuda(2**62, 0)", "t.cuda(1, 2, 3)",
    "t.cuda(non_blocking=1)", "t.cuda(device=t)", "t.cuda(0, True, memory_format=1)", "t.cuda(0, device=1)",
    "t.cuda(bogus=1)", "t.cuda('cpu')", "t.cuda(-1)",
    "t.fill_(1, 2)", "t.fill_(t, t)", "t.fill_(value=1)", "ti.fill_(nan)", "ti.fill_(inf)", "ti.fill_(2**63)",
    "ti.fill_(2**64-1)", "ti.fill_(2**64)", "ti.fill_(-2**63-1)", "ti.int().fill_(2**31)", "tb.fill_(nan)",
    "t.fill_(2**64-1)", "t.fill_(1e300)", "t.fill_(1j)", "t.fill_(1+0j)", "ti.fill_(torch.tensor(nan))",
    "ex.fill_(s)", "ex.fill_(1)", "t.fill_(t)",
    "ex.normal_()", "ex.normal_(0, 1)", "t.normal_(s).shape", "ti.normal_(s)", "ex.uniform_()", "ex.uniform_(s)",
    "t.uniform_(s)", "t.uniform_(2**64)", "t.uniform_(0, 1, 2)", "t.normal_('a')",
    "torch.arange(2, dtype=torch.bool)", "torch.arange(1j)", "torch.arange(0, 1j)", "torch.arange(1+0j)",
    "torch.arange(2**63)",
    "torch.zeros()", "torch.ones()", "torch.empty().shape", "torch.rand()", "torch.randn()",
    "torch.zeros(si)", "torch.ones(si)", "torch.zeros(torch.tensor(2.0))", "torch.zeros(2, requires_grad='yes')",
    "torch.zeros(torch.tensor(True))",
    "torch.zeros_like(t, 1)", "torch.ones_like(2, device='gpu')", "torch.empty_like(t, t).shape",
    "torch.zeros_like()", "torch.full_like(t, 1, 2)", "torch.full_like(t, device='cuda:99')",
    "torch.full_like(ti, 2**63)", "torch.rand_like(t, 1)", "torch.randn_like(2, device='gpu')",
    "torch.eye(1, 2, 3)", "torch.eye(2**63)", "torch.eye(2**64)", "torch.eye(si)", "torch.eye(2, si)",
    "torch.eye(2, None)", "torch.eye(1.5)", "torch.eye(True)",
    "torch.full(2, device='gpu')", "torch.full((2,), 2**63)", "torch.full((2,), 2**64-1)",
    "torch.full((2,), 2**63, dtype=torch.float64)", "torch.full((2,), nan, dtype=torch.int64)",
    "torch.full((2,), 1e10, dtype=torch.int32)", "torch.full(device='gpu')", "torch.full((2,), device='gpu')",
    "torch.randint(2, device='gpu')", "torch.randint(2)",
    # the rows of the op table (csrc/python/ops.def): the parser's messages for each signature
    "torch.full(t, t, t, t, t, t, t, bogus=1)", "torch.arange(t, t, t, t, t, t, t, bogus=1)",
    "torch.eye(t, t, t, t, t, t, t, bogus=1)", "torch.rand(t, t, t, t, t, t, t, bogus=1)",
    "torch.rand_like(t, t, t, t, t, t, t, bogus=1)", "torch.full_like(t, t, t, t, t, t, t, bogus=1)",
    "t.uniform_(t, t, t, bogus=1)", "t.zero_(1, bogus=1)", "t.zero_(1)", "t.fill_(t, t, bogus=1)",
    "torch.rand(2, generator=1)", "torch.randn(2, generator=None).shape", "torch.rand_like(t, bogus=1)",
    "torch.rand(2, names=None)", "t.uniform_(generator=1)", "t.normal_(0, 1, bogus=3)", "torch.arange(inf)",
    "torch.arange(0., nan)", "torch.arange(-inf, 0.)", "torch.arange(torch.tensor(inf))", "torch.arange(1, 2, 3, 4)",
    "torch.arange(end=3)", "torch.arange(start=1, end=3)", "torch.arange(1, 5, step=2)", "torch.arange(start=1)",
    "torch.arange(torch.tensor(3))", "torch.arange(si, 5, s)", "torch.arange(10.5, dtype=torch.int32)",
    "torch.arange(-1, -10, -3)", "torch.arange(0, 1, 0)", "torch.arange(0, 1, -1)", "torch.arange(5, out=1)",
    "torch.arange('a')", "torch.eye(3, m=2)", "torch.eye(2, 2, 2)", "torch.eye(2, dtype=1)", "torch.eye('a')",
    "torch.eye(-1, 2)", "torch.eye(2, -1)", "torch.randint(low=3, high=4, size=(2,))",
    "torch.randint(2, (3,), out=3)", "torch.randint(2, (3,), bogus=1)", "torch.randint(0, 2, 3)",
    "torch.randint(2.5, (3,))", "torch.randint('a')", "torch.randint(3, 3, (2,))",
    "torch.randint(0, 2**40, (2,), dtype=torch.int32)", "torch.randint(0, 2, (2,), dtype=torch.bool).shape",
    "torch.randint(si, (3,)).shape", "torch.full_like(t, 1j)", "torch.full((2,), True)", "torch.full((2,), 3)",
    "torch.full((2,), s)", "torch.full((2,), 1, bogus=2)", "torch.full((2,), 'a')", "torch.full('a', 1)",
    "torch.full((2,), 1, dtype=torch.int32, requires_grad=True)", "torch.full_like(t, 1, bogus=2)",
    "torch.full_like(1, 2)", "torch.full_like(t, s)", "torch.full_like(ti, 1.5)", "t.fill_(torch.tensor([1., 2.]))",
    "t.fill_(value=torch.tensor(3.))", "t.fill_('a')", "t.normal_(std=-1)", "t.uniform_('a')", "t.uniform_(1, 0)",
    "torch.rand_like(t, memory_format=1)", "torch.rand_like(1)", "torch.rand_like(ti)", "torch.randn_like(ti)",
    "torch.rand(2, dtype=torch.int64)", "torch.randn(2, dtype=torch.bool)", "torch.randn(2, foo=1)",
    "torch.rand('a')", "torch.rand(2, device=1.5)", "torch.rand(2, requires_grad=1)",
    "torch.rand(2, 3, requires_grad=True).requires_grad", "torch.rand(size=(2, 3)).shape", "torch.randn(size=2)",
    "torch.rand(2, size=(2,))",
    # tensor(data)
    "torch.tensor()", "torch.tensor(1, 2)", "torch.tensor(1, bogus=1)", "torch.tensor(1, names=None)",
    "torch.tensor(1, dtype=1)", "torch.tensor(1, device=1.5)",
    "torch.tensor(1, device='gpu')", "torch.tensor(1, pin_memory=None)", "torch.tensor(1, pin_memory=1)",
    "torch.tensor(1, requires_grad=None)", "torch.tensor(1, requires_grad=1)",
    "torch.tensor(data=1, requires_grad=True)", "torch.tensor(1, data=2)", "torch.tensor(1, requires_grad=True)",
    "torch.tensor(1, 2, 3, 4, 5, 6, 7)",
    "torch.tensor(1, dtype=torch.float64, device='cpu', pin_memory=False, requires_grad=True, bogus=2)",
    "torch.tensor('a')", "torch.tensor(None)", "torch.tensor(t, pin_memory=True)", "torch.tensor(1, dtype=float)",
    # Tensor.pin_memory, is_pinned
    "t.pin_memory(1, 2)", "t.pin_memory(bogus=1)", "t.pin_memory(1.5)", "t.pin_memory('cpu')", "t.is_pinned(1, 2)",
    "t.is_pinned(bogus=1)", "t.is_pinned('cpu')", "t.is_pinned(1.5)", "t.is_pinned(None)", "t.is_pinned()",
    "t.is_pinned(device='cuda')", "t.is_pinned('gpu')",
    # device() (a device given with an index is checked by hand below: its message names the class)
    "torch.device()", "torch.device(1.5)", "torch.device('cpu', 'a')", "torch.device('cpu', 0, 1)",
    "torch.device('cuda', -1)", "torch.device('cuda:0', 1)", "torch.device('cuda', 2**63)",
    "str(torch.device('cuda', None))", "str(torch.device(type='cuda', index=1))",
    "str(torch.device(device='cuda:1'))", "torch.device(bogus=1)", "torch.device('cpu', bogus=1)",
    "torch.device('gpu')", "str(torch.device(torch.device('cuda', 1)))", "torch.device('cuda', True)",
    "torch.device(-1)", "torch.device(None)", "str(torch.device('cuda', index=3))", "torch.device('cuda:0', 2**64)",
    "torch.device('gpu', 2**64)", "torch.device(type='cuda:0', index=2**64)",
    # Tensor.is_contiguous, requires_grad_
    "t.is_contiguous(1)", "t.is_contiguous(bogus=1)", "t.is_contiguous(memory_format=1)",
    "t.is_contiguous(memory_format=None)", "t.is_contiguous(memory_format=torch.channels_last)",
    "t.is_contiguous(memory_format=torch.preserve_format)", "t.is_contiguous(1, 2)",
    "t.is_contiguous(memory_format=torch.contiguous_format, bogus=2)", "t.requires_grad_(1)",
    "t.requires_grad_(None)", "t.requires_grad_(True, False)", "t.requires_grad_(bogus=1)",
    "t.requires_grad_(requires_grad=1)", "t.requires_grad_(requires_grad=False).requires_grad",
    "t.requires_grad_().requires_grad", "ti.requires_grad_()", "ti.requires_grad_(False).requires_grad",
    "t.requires_grad_(True, bogus=1)", "t.requires_grad_(t)",
]


@needs_torch
@pytest.mark.parametrize("expr", PARITY)
def test_same_as_torch(expr):
    # cuda(): a CPU build of torch asserts "not compiled with CUDA" where minitorch reaches its device layer
    same_as_torch(expr, message=not expr.startswith("t.cuda(") or "must be" in expr or "takes" in expr)


@needs_torch
def test_device_refuses_a_device_with_an_index_as_torch():
    mine, theirs = outcome(minitorch, "torch.device(torch.device('cuda', 1), 2)"), \
        outcome(torch, "torch.device(torch.device('cuda', 1), 2)")
    assert mine[:2] == theirs[:2] == ("raise", "TypeError")
    assert mine[2].replace("minitorch.", "torch.") == theirs[2]


@needs_torch
@pytest.mark.skipif(minitorch.cuda.is_available(), reason="minitorch sees a GPU here: torch is compared without one")
@pytest.mark.skipif(not same_build_as_torch(), reason="torch and minitorch are different builds (CUDA and CPU-only): "
                                                      "without a GPU each says its own build's error")
@pytest.mark.parametrize("expr", ["torch.tensor(1, device=0)", "torch.tensor(1, pin_memory=True)",
                                  "torch.zeros(2, device=0)", "t.pin_memory()", "t.pin_memory(None)"])
def test_same_as_torch_without_an_accelerator(expr):
    same_as_torch(expr)


@needs_torch
@pytest.mark.parametrize("expr", ["t.normal_(s)", "t.uniform_(torch.tensor(0), torch.tensor(1))",
                                  "torch.rand(si)", "torch.randn(si)", "torch.rand_like(t)"])
def test_same_as_torch_random_shapes(expr):
    mine, theirs = outcome(minitorch, expr), outcome(torch, expr)
    assert mine[0] == theirs[0] == "ok"
    assert mine[1:3] == theirs[1:3]


@needs_torch
@pytest.mark.parametrize("expr", [
    "torch.arange(6.)[1:].copy_(torch.arange(6.)[:-1])",
    "(lambda x: (x[1:].copy_(x[:-1]), x)[1])(torch.arange(6.))",
    "(lambda x: (x[:-1].copy_(x[1:]), x)[1])(torch.arange(6.))",
    "(lambda x: (x[:3].copy_(x[2:]), x)[1])(torch.arange(6.))",
    "(lambda x: (x.view(2, 3).t().copy_(x.view(3, 2)), x)[1])(torch.arange(6.))",
    "(lambda x: (x[::2].copy_(x[1::2]), x)[1])(torch.arange(6.))",
    "(lambda x: (x.view(6).copy_(x), x)[1])(torch.arange(6.))",
    "(lambda x: (x[1:].copy_(x[:-1].double()), x)[1])(torch.arange(6.))",
])
def test_copy_refuses_partly_overlapping_views_as_torch(expr):
    same_as_torch(expr)


# ---- out= of the factories, and randint's overflow ---------------------------------------------------

FACTORY_CALLS = {
    "zeros": "(2, 3)", "ones": "(2, 3)", "empty": "(2, 3)", "full": "((2, 3), 1.5)", "arange": "(6)",
    "rand": "(2, 3)", "randn": "(2, 3)", "randint": "(0, 5, (2, 3))", "eye": "(3)",
}


@pytest.mark.parametrize("fname", sorted(FACTORY_CALLS))
def test_factory_writes_into_out(fname):
    # torch writes into out= and returns it (out=5 is a TypeError)
    f = getattr(minitorch, fname)
    args = eval(FACTORY_CALLS[fname])
    args = args if isinstance(args, tuple) else (args,)
    out = minitorch.empty(2, 3, dtype=minitorch.float64)
    assert f(*args, out=out) is out
    # (arange keeps out's shape when the element count agrees, as torch's)
    assert out.dtype == minitorch.float64 and out.numel() == f(*args).numel()
    with pytest.raises(TypeError) as mini:
        f(*args, out=5)
    assert f(*args, out=None).shape is not None
    if HAVE_TORCH:
        with pytest.raises(TypeError) as real:
            getattr(torch, fname)(*args, out=5)
        assert str(mini.value).split(" - got ")[0] == str(real.value).split(" - got ")[0]
    # the *_like factories have no out= at all
    with pytest.raises(TypeError, match="unexpected keyword argument 'out'"):
        minitorch.zeros_like(minitorch.ones(2), out=minitorch.ones(2))


@pytest.mark.parametrize("args", ["(0, 2**63, (2,))", "(2**63, (2,))", "(-2**63 - 1, 0, (2,))", "(2**70, (3,))"])
def test_randint_bounds_past_int64_are_torchs_value_error(args):
    with pytest.raises(ValueError, match="^Overflow when unpacking long long$"):
        minitorch.randint(*eval(args))
    if HAVE_TORCH:
        with pytest.raises(ValueError, match="^Overflow when unpacking long long$"):
            torch.randint(*eval(args))
