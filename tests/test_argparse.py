"""Tests for minitorch's argument parser (csrc/python/argparse.c), a C port of torch's PythonArgParser.

The parser is reached through minitorch._C._parse_test(signatures, args, kwargs), which builds (once per list) a parser
from torch signature strings, parses the call and returns (index of the overload that matched, {name:
converted value}, [names given]) or raises the parser's exception.

- The case table (tests/argparse_cases.py): about 400 calls of real torch functions and Tensor methods
  (add, sub, mul, div, sum, mean, max, view, reshape, expand, permute, transpose, narrow, dropout, to,
  cuda, zeros, empty, full, arange, randint, cat, matmul, mm, addmm, clamp, where, pow), each parsed
  with that function's torch signatures. minitorch must raise torch's exception with torch's message,
  or accept what torch accepts. The expected column was generated from torch 2.13 and is written out,
  so the table runs without torch; where torch is installed each row is also checked against it.
- The values: each parameter type converts to what torch's PythonArgs would hand the op (defaults,
  numbers as tensors, int lists from varargs, NumPy scalars, 0-d tensors).
- What the table cannot show: malformed signature strings, hidden and deprecated overloads and the
  deprecation warning, the colour marks on a terminal, mutation of a list while it is parsed.
"""

import os
import re
import subprocess
import sys
import warnings

import numpy as np
import pytest

import minitorch
from argparse_cases import CASES, SIGS, namespace, torch_result
from parity import import_torch, normalize
from subproc import child_env, python_output

P = minitorch._C._parse_test

# Where minitorch knowingly does less than torch: it has no complex dtypes (README, "Known differences").
DIFFERS = {
    ("torch.zeros", "zeros", "2, dtype=complex"):
        "NotImplementedError: zeros(): argument 'dtype' is complex, and torch has no complex dtypes",
}

_ANSI_RED = re.compile("\x1b\\[31;1m(.*?)\x1b\\[0m")
_ANSI_GREEN = re.compile("\x1b\\[32;1m(.*?)\x1b\\[0m")


def uncolour(text):
    """The marks as torch writes them when stdout or stderr is not a terminal (pytest -s on a terminal
    gets the colours)."""
    return _ANSI_GREEN.sub(r"\1", _ANSI_RED.sub(r"!\1!", text))


def parse_result(key, args):
    ns = namespace(minitorch)
    ns["F"] = lambda *a, **k: P(SIGS[key], a, k)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            eval("F({})".format(args), ns)
    except Exception as e:  # noqa: BLE001 - the exception is the result
        return "{}: {}".format(type(e).__name__, normalize(uncolour(str(e))))
    return "OK"


def case_id(case):
    fn, _, args, _ = case
    return "{}({})".format(fn, args)[:80]


# ---- the case table ------------------------------------------------------------------------------------


@pytest.mark.parametrize("fn,key,args,expected", CASES, ids=[case_id(c) for c in CASES])
def test_parse_gives_torchs_result(fn, key, args, expected):
    want = DIFFERS.get((fn, key, args), expected)
    got = parse_result(key, args)
    if want.startswith("OK"):
        assert got == "OK"
    else:
        assert got == want


@pytest.mark.parametrize("fn,key,args,expected", CASES, ids=[case_id(c) for c in CASES])
def test_expected_column_is_torchs(fn, key, args, expected):
    torch = import_torch()
    if torch is None:
        pytest.skip("real torch is not installed")
    got = torch_result(torch, fn, args)
    if expected == "OK (op raises)":
        # the parser accepted the call and the op itself refused it
        assert got != "OK" and not got.startswith("TypeError"), got
    else:
        assert got == expected


# Calls the parser accepts and minitorch's op then refuses, where torch computes (README, "Known differences").
GAPS = {
    ("torch.add", "t, 1+2j"): "NotImplementedError: add(): a complex operand gives a complex64 result, which "
                              "torch does not support (it has no complex dtype)",
}

# The entry points that parse with this parser: their table rows are also run on the real function.
MIGRATED = {"matmul", "mm", "Tensor.matmul", "Tensor.mm", "add", "Tensor.add", "sub", "mul", "Tensor.mul", "div",
            "Tensor.div", "sum", "Tensor.sum", "mean", "Tensor.mean", "max", "Tensor.max", "addmm", "Tensor.view",
            "Tensor.expand", "Tensor.permute", "permute", "Tensor.reshape", "reshape", "Tensor.transpose",
            "transpose", "cat", "zeros", "empty"}


@pytest.mark.parametrize("fn,key,args,expected", [c for c in CASES if c[1] in MIGRATED],
                         ids=[case_id(c) for c in CASES if c[1] in MIGRATED])
def test_migrated_entry_points_give_the_tables_result(fn, key, args, expected):
    expected = DIFFERS.get((fn, key, args), GAPS.get((fn, args), expected))
    ns = namespace(minitorch)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            eval("{}({})".format(fn, args), ns)
        got = "OK"
    except Exception as e:  # noqa: BLE001 - the exception is the result
        got = "{}: {}".format(type(e).__name__, normalize(str(e)))
    if expected == "OK":
        assert got == "OK"
    elif expected == "OK (op raises)":
        assert got != "OK" and not got.startswith("TypeError"), got
    else:
        assert got == expected


def test_the_table_covers_every_message_kind():
    """Each of the parser's messages appears in the table, so a change to one of them is caught."""
    texts = "\n".join(c[3] for c in CASES)
    for fragment in [
        "positional argument but", "positional arguments but", "takes from", "missing 1 required positional arguments",
        "missing 2 required positional argument:", "got an unexpected keyword argument",
        "got multiple values for argument", "must be Tensor, not", "must be Number, not", "must be int, not",
        "must be float, not", "must be bool, not", "must be torch.dtype, not", "must be torch.device, not",
        "must be torch.memory_format, not", "must be torch.layout, not", "must be tuple of ints, not",
        "must be tuple of Tensors, not", "but found element of type", "failed to unpack the object at pos",
        "Overflow when unpacking long long", "expected Tensor as element", "but expected one of:",
        "didn't match because some of the arguments have invalid types", "(!", "!, )",
        "didn't match because some of the keywords were incorrect", "got unrecognized keyword arguments",
        "tuple of (str,)", "list of [str, int]", "scalar.isIntegral",
    ]:
        assert fragment in texts, fragment


# ---- converted values ----------------------------------------------------------------------------------


def values(sigs, *args, **kwargs):
    """(index, values) of a parse that must succeed."""
    index, vals, _ = P(sigs if isinstance(sigs, list) else [sigs], args, kwargs)
    return index, vals


T = minitorch.ones(2, 3)


def test_tensors_are_passed_through_and_numbers_converted():
    index, v = values(SIGS["add"], T, T)
    assert index == 0 and v["input"] is T and v["other"] is T and v["alpha"] == 1 and v["out"] is None
    # add allows numbers for Tensor parameters (torch's should_allow_numbers_as_tensors)
    for number, want in [(2, 2), (2.5, 2.5), (True, True), (2**64 - 1, 2**64 - 1), (np.float32(1.5), 1.5),
                         (np.int16(7), 7), (np.bool_(True), 1.0), (1 + 2j, 1 + 2j)]:
        _, v = values(SIGS["add"], T, number)
        assert v["other"] == want and type(v["other"]) is type(want), (number, v["other"])
    # matmul does not
    with pytest.raises(TypeError, match=r"^matmul\(\): argument 'other' \(position 2\) must be Tensor, not int$"):
        values(SIGS["matmul"], T, 2)


def test_scalars():
    sig = "f(Scalar s)"
    for given, want in [(3, 3), (-2**63, -2**63), (2**63, 2**63), (0.25, 0.25), (False, False),
                        (minitorch.tensor(7), 7), (minitorch.tensor(2.5), 2.5), (minitorch.tensor(True), True),
                        (np.float64(0.5), 0.5), (np.int8(-3), -3), (np.bool_(False), 0.0), (2j, 2j)]:
        _, v = values(sig, given)
        assert v["s"] == want and type(v["s"]) is type(want), (given, v["s"])
    with pytest.raises(OverflowError, match="^int too big to convert$"):
        values(sig, 2**64)


def test_scalar_defaults_keep_int_or_float():
    _, v = values("f(Scalar a=1, Scalar b=1.5, Scalar c=0x10, Scalar d=-3, Scalar? e=None)")
    assert v == {"a": 1, "b": 1.5, "c": 16, "d": -3, "e": None}
    assert type(v["a"]) is int and type(v["b"]) is float


def test_ints():
    sig = "f(int64_t a, SymInt b=7, int64_t c=-2)"
    assert values(sig, 5)[1] == {"a": 5, "b": 7, "c": -2}
    _, v = values(sig, minitorch.tensor(-4), minitorch.tensor([3]))
    assert v == {"a": -4, "b": 3, "c": -2}
    _, v = values(sig, np.int32(9), np.int64(10), c=np.uint8(11))
    assert v == {"a": 9, "b": 10, "c": 11}

    class Index:
        def __index__(self):
            return 12

    assert values(sig, 1, Index())[1]["b"] == 12
    with pytest.raises(TypeError, match=r"^f\(\): argument 'a' \(position 1\) must be int, not Index$"):
        values(sig, Index())
    for big in (2**63, -2**63 - 1):
        with pytest.raises(ValueError, match="^Overflow when unpacking long long$"):
            values(sig, big)
        with pytest.raises(ValueError, match="^Overflow when unpacking long long$"):
            values(sig, 1, big)
    assert values(sig, 2**63 - 1, -2**63)[1]["b"] == -2**63


def test_doubles_and_bools():
    sig = "f(double x=0.5, bool flag=True, bool other=false, double? y=None)"
    assert values(sig)[1] == {"x": 0.5, "flag": True, "other": False, "y": None}
    _, v = values(sig, 3, False, y=minitorch.tensor(2))
    assert v == {"x": 3.0, "flag": False, "other": False, "y": 2.0} and type(v["x"]) is float
    assert values(sig, np.float16(0.25))[1]["x"] == 0.25
    with pytest.raises(OverflowError, match="^int too large to convert to float$"):
        values(sig, 2**1024)
    with pytest.raises(TypeError, match=r"^f\(\): argument 'flag' must be bool, not int$"):
        values(sig, flag=1)


def test_int_lists():
    sig = "f(IntArrayRef size, IntArrayRef[2] stride=1, IntArrayRef pad={1,2,3}, IntArrayRef[1]? dim=None)"
    assert values(sig, [2, 3])[1] == {"size": (2, 3), "stride": (1, 1), "pad": (1, 2, 3), "dim": None}
    _, v = values(sig, (), 4, [5, 6], dim=0)
    assert v == {"size": (), "stride": (4, 4), "pad": (5, 6), "dim": (0,)}
    _, v = values(sig, minitorch.Size([4, 5]), stride=(minitorch.tensor(2), np.int64(3)), dim=minitorch.tensor([1]))
    assert v == {"size": (4, 5), "stride": (2, 3), "pad": (1, 2, 3), "dim": (1,)}
    # bools and one-element integral tensors are ints inside a list, as torch unpacks them
    # (a first item that is a bool is not: the list is then no int list at all)
    assert values(sig, [2, True, minitorch.tensor(False), minitorch.tensor([7])])[1]["size"] == (2, 1, 0, 7)
    with pytest.raises(TypeError, match=r"^f\(\): argument 'size' must be tuple of ints, not int$"):
        values(sig, size=3)


def test_int_list_varargs():
    index, v, given = P(SIGS["Tensor.view"], (2, 3), {})
    assert index == 1 and v["size"] == (2, 3) and given == ["size"]
    index, v, given = P(SIGS["Tensor.view"], (6,), {})
    assert index == 1 and v["size"] == (6,) and given == ["size"]
    index, v, given = P(SIGS["Tensor.view"], (minitorch.float64,), {})
    assert index == 0 and v["dtype"] is minitorch.float64 and given == ["dtype"]
    assert P(SIGS["Tensor.expand"], (2, 3), {"implicit": True})[1] == {"size": (2, 3), "implicit": True}
    # MT_MAX_DIMS (64) bounds an int list, as it bounds every shape
    assert values(SIGS["Tensor.view"], *([1] * 64))[1]["size"] == (1,) * 64
    with pytest.raises(NotImplementedError):
        values(SIGS["Tensor.view"], *([1] * 65))
    with pytest.raises(NotImplementedError):
        values(SIGS["Tensor.view"], [1] * 65)
    # a list of dims (IntArrayRef) is not a shape: it may be longer, and its repeats are the op's to report
    assert values(SIGS["Tensor.sum"], [1] * 65)[1]["dim"] == (1,) * 65
    assert values(SIGS["Tensor.sum"], list(range(200)))[1]["dim"] == tuple(range(200))


def test_dtypes_devices_memory_formats_strings():
    sig = ("f(ScalarType? dtype=None, Device? device=None, MemoryFormat? memory_format=None, "
           "c10::string_view? mode=None, ScalarType kind=torch.int64, c10::string_view how='a\\tb')")
    assert values(sig)[1] == {"dtype": None, "device": None, "memory_format": None, "mode": None,
                              "kind": minitorch.int64, "how": "a\tb"}
    _, v = values(sig, float, "cuda:1", minitorch.channels_last, "floor", bool)
    assert v["dtype"] is minitorch.float64 and v["device"] == minitorch.device("cuda", 1)
    assert v["memory_format"] is minitorch.channels_last and v["mode"] == "floor" and v["kind"] is minitorch.bool
    assert values(sig, int, minitorch.device("cpu"))[1]["dtype"] is minitorch.int64
    assert values(sig, device="cpu")[1]["device"] == minitorch.device("cpu")
    with pytest.raises(RuntimeError, match="^Device index must not be negative$"):
        values(sig, device=-1)
    if minitorch.cuda.is_available() or minitorch._C.has_cuda:
        # an int is the accelerator's device: CUDA in a CUDA build, GPU or not (as torch's CUDA build)
        assert values(sig, device=0)[1]["device"] == minitorch.device("cuda", 0)
        assert values(sig, device=np.int64(0))[1]["device"] == minitorch.device("cuda", 0)
    else:
        with pytest.raises(RuntimeError, match="^Cannot access accelerator device when none is available.$"):
            values(sig, device=np.int64(0))


def test_tensor_lists_and_generators():
    index, v = values(SIGS["cat"], [T, T], 1)
    assert v["tensors"] == (T, T) and v["tensors"][0] is T and v["dim"] == 1 and v["out"] is None
    assert values(SIGS["cat"], ())[1]["tensors"] == ()
    sig = SIGS["randint"]
    gen = minitorch.Generator()
    index, v = values(sig, 5, (2,), generator=gen)
    assert index == 0 and v["generator"] is gen and v["size"] == (2,) and v["high"] == 5
    index, v = values(sig, 5, (2,))
    assert index == 1 and v["dtype"] is None and v["requires_grad"] is False


def test_overloads_tried_in_order():
    assert values(SIGS["max"], T)[0] == 0
    assert values(SIGS["max"], T, T)[0] == 1
    assert values(SIGS["max"], T, 1, keepdim=True)[0] == 2
    assert values(SIGS["where"], minitorch.tensor(True), 1, 2)[0] == 4
    assert values(SIGS["pow"], 2, T)[0] == 1
    assert values(SIGS["Tensor.to"], minitorch.float64)[0] == 1
    assert values(SIGS["Tensor.to"], T)[0] == 2
    # a number for a Tensor (to allows it) matches the Tensor overload, as torch's t.to(1.5) does
    index, v = values(SIGS["Tensor.to"], 1.5)
    assert index == 2 and v["tensor"] == 1.5


def test_deprecated_overloads_are_tried_last_and_keep_their_index():
    sigs = ["f(Scalar a, Tensor b)|deprecated", "f(Tensor a, Tensor b)"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert values(sigs, T, T)[0] == 1
        assert values(sigs, 2, T)[0] == 0
    # the one overload that is listed explains the failure (print_error's plausible overload) ...
    with pytest.raises(TypeError, match=r"^f\(\): argument 'a' \(position 1\) must be Tensor, not str$"):
        values(sigs, "a", T)
    # ... or, when no overload fits the argument count, is the only one shown
    with pytest.raises(TypeError) as info:
        values(sigs, T)
    assert str(info.value) == ("f() received an invalid combination of arguments - got (Tensor), but expected "
                               "(Tensor a, Tensor b)")


def test_hidden_overloads_are_tried_but_not_listed():
    sigs = ["g(Tensor a)", "g(int64_t a)|hidden", "g(bool a)"]
    assert values(sigs, 3)[0] == 1
    with pytest.raises(TypeError) as info:
        values(sigs, "x")
    assert uncolour(str(info.value)) == (
        "g() received an invalid combination of arguments - got (str), but expected one of:\n"
        " * (Tensor a)\n"
        "      didn't match because some of the arguments have invalid types: (!str!)\n"
        " * (bool a)\n"
        "      didn't match because some of the arguments have invalid types: (!str!)\n")


def test_deprecation_warning_once_per_process():
    out = python_output(
        "import warnings, minitorch\n"
        "warnings.simplefilter('always')\n"
        "P = minitorch._C._parse_test\n"
        "t = minitorch.ones(2)\n"
        "sigs = ['add(Tensor input, Tensor other, *, Scalar alpha=1, Tensor out=None)',\n"
        "        'add(Tensor input, Scalar alpha, Tensor other, *, Tensor out=None)|deprecated']\n"
        "with warnings.catch_warnings(record=True) as w:\n"
        "    warnings.simplefilter('always')\n"
        "    P(sigs, (t, 2, t), {})\n"
        "    P(sigs, (t, 2, t), {})\n"
        "    P(['sub(Tensor a)', 'sub(Scalar a, Tensor b)|deprecated'], (2, t), {})\n"
        "print(len(w), w[0].category.__name__)\n"
        "print(w[0].message)\n")
    assert out == (
        "1 UserWarning\n"
        "This overload of add is deprecated:\n"
        "\tadd(Tensor input, Number alpha, Tensor other, *, Tensor out = None)\n"
        "Consider using one of the following signatures instead:\n"
        "\tadd(Tensor input, Tensor other, *, Number alpha = 1, Tensor out = None)\n")


def test_numpy_keyword_names():
    assert values(SIGS["sum"], a=T, axis=[0, 1], keepdims=True)[1]["dim"] == (0, 1)
    assert values(SIGS["add"], x1=T, x2=T)[1]["other"] is T
    # a keyword built at run time is not interned: it still matches
    name = "".join(["oth", "er"])
    assert values(SIGS["add"], T, **{name: T})[1]["other"] is T


def test_none_for_optional_parameters():
    index, v = values(SIGS["sum"], T, None)
    assert index == 1 and v["dim"] is None
    _, v, given = P(SIGS["clamp"], (T, None, 2), {})
    assert v["min"] is None and v["max"] == 2 and given == ["input", "max"]


def test_signature_strings_are_checked():
    for sig, message in [
        ("f", "missing opening parenthesis: f"),
        ("f(Tensor a", "missing closing parenthesis: f(Tensor a"),
        ("f(Tensor a, , Tensor b)", "malformed signature: f(Tensor a, , Tensor b)"),
        ("f(Tensor)", "FunctionParameter(): missing type: Tensor"),
        ("f(Foo a)", "FunctionParameter(): invalid type string: Foo"),
        ("f(Tensor a=1)", "default value for Tensor must be none, got: 1"),
        ("f(ScalarType a=torch.float32)", "invalid default value for ScalarType: torch.float32"),
        ("f(Device a=cpu)", "invalid device: cpu"),
        ("f(Layout a=torch.jagged)", "invalid default value for layout: torch.jagged"),
        ("f(IntArrayRef a=1)", "Incorrect size of IntArrayRef: 0"),
        ("f(c10::string_view a=x)", "String defaults must be quoted"),
    ]:
        with pytest.raises(RuntimeError) as info:
            P([sig], (), {})
        assert str(info.value) == message


def test_empty_parameter_lists():
    assert P(["f()"], (), {}) == (0, {}, [])
    with pytest.raises(TypeError, match=r"^f\(\) takes 0 positional arguments but 1 was given$"):
        P(["f()"], (1,), {})
    with pytest.raises(TypeError, match=r"^f\(\) got an unexpected keyword argument 'x'$"):
        P(["f()"], (), {"x": 1})


def test_marks_are_coloured_when_stdout_and_stderr_are_terminals():
    if not hasattr(os, "openpty"):
        pytest.skip("no pseudo-terminals here")
    code = ("import sys, minitorch\n"
            "try:\n"
            "    minitorch._C._parse_test({!r}, (minitorch.ones(2), 1, 'a'), {{}})\n"
            "except TypeError as e:\n"
            "    sys.stdout.write(repr(str(e)))\n").format(SIGS["max"])
    master, slave = os.openpty()
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=slave, stderr=slave, stdin=subprocess.DEVNULL,
                            env=child_env())
    os.close(slave)
    out = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # EIO once the child has closed the terminal
            break
        if not chunk:
            break
        out += chunk
    os.close(master)
    assert proc.wait(timeout=60) == 0
    assert ("(\\x1b[32;1mTensor\\x1b[0m, \\x1b[31;1mint\\x1b[0m, \\x1b[31;1mstr\\x1b[0m)").encode() in out, out


# ---- robustness: Python code that runs while a call is parsed --------------------------------------------


def test_a_list_changed_by_an_items_index_is_read_safely():
    items = [1, None, 3]

    class Shrink:
        def __index__(self):
            items.clear()
            return 2

    items[1] = Shrink()
    _, v = values("f(IntArrayRef size)", items)
    assert v["size"] == (1, 2, 3)


def test_a_list_changed_by_the_first_items_index_is_read_from_a_snapshot():
    # the match runs the first item's __index__; the list is checked and read from a snapshot taken
    # before, so an __index__ that frees the list's storage (torch's own parser crashes on it) is harmless
    items = []

    class Clear:
        def __index__(self):
            items.clear()
            items.extend([object()] * 100)
            items.clear()
            return 0

    items.extend([Clear(), 1])
    _, v = values("f(IntArrayRef[1] dim)", items)
    assert v["dim"] == (0, 1) and items == []
    items.extend([Clear(), "x"])
    with pytest.raises(TypeError, match=r"^f\(\): argument 'dim' failed to unpack the object at pos 2 with error "
                                        r"\"type must be tuple of ints,but got str\"$"):
        values("f(IntArrayRef[1] dim)", items)


def test_a_tensor_list_changed_by_a_later_argument_is_checked_again():
    tensors = [T, T]

    class Grow:
        def __index__(self):
            tensors.append("not a tensor")
            return 1

    with pytest.raises(TypeError, match="^expected Tensor as element 2 in argument 0, but got str$"):
        values("f(TensorList tensors, SymInt n)", tensors, Grow())


def test_index_that_raises_is_not_an_int():
    class Bad:
        def __index__(self):
            raise ValueError("no")

    with pytest.raises(TypeError, match=r"^f\(\): argument 'n' \(position 1\) must be int, not Bad$"):
        values("f(SymInt n)", Bad())


def test_parse_test_checks_its_own_arguments():
    with pytest.raises(TypeError):
        P("f()", (), {})
    with pytest.raises(ValueError):
        P([], (), {})


def test_parsers_are_kept_and_the_cache_is_bounded():
    """_parse_args keeps the parser it builds for a list of signature strings (the Python compositions parse
    with the same lists on every call); past the cache's bound (1024 lists) each call builds its own. Either
    way every call parses with its own signatures, and a malformed list is refused without being kept."""
    for k in range(1300):
        sig = ["f%d(int a, *, int b=%d)" % (k, k)]
        assert P(sig, (k,), {}) == (0, {"a": k, "b": k}, ["a"])
        assert P(sig, (1,), {"b": 2}) == (0, {"a": 1, "b": 2}, ["a", "b"])
        with pytest.raises(TypeError, match=r"^f%d\(\) missing 1 required positional arguments: \"a\"$" % k):
            P(sig, (), {})
    with pytest.raises(TypeError):
        P([1], (), {})
    with pytest.raises(ValueError):
        P(["f(int a)"] * 9, (), {})
