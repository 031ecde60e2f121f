"""A name PyTorch has and minitorch lacks says so: module attributes (``minitorch.vmap``), submodule
imports (``import minitorch.optim``, ``from minitorch import optim``), Tensor attributes (``x.half``) and
nn.Module methods (``model.compile``), with the exception type and the start of the message
Python's own, so ``hasattr``, ``getattr(obj, name, default)`` and ``try: import`` behave as before. A
name torch does not have keeps Python's plain message; the list of torch's names
(minitorch/_torch_api.py) is loaded only after a lookup failed, and matches what
scripts/torch_api_names.py writes from torch 2.13."""

import copy
import importlib
import importlib.machinery
import importlib.util
import os
import pickle
import sys

import pytest

import minitorch
import minitorch.backends.cuda
import minitorch.nn.functional
import minitorch.nn.init
from subproc import python_output

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "scripts", "torch_api_names.py")
SECTION = "What works (API against PyTorch)"
SEE = 'see "{}" in minitorch\'s README'.format(SECTION)


def sentence(torch_name):
    return "PyTorch has {}, minitorch does not have it yet ({})".format(torch_name, SEE)


def first_missing(obj, candidates):
    """The first candidate name `obj` lacks: the tests keep working as minitorch gains names."""
    for name in candidates:
        if not hasattr(obj, name):
            return name
    pytest.fail("minitorch now has all of {}: list names it still lacks".format(candidates))


def raised(expression, scope=None):
    """The exception that evaluating (or, for statements, executing) `expression` raises."""
    scope = dict(scope or {}, minitorch=minitorch)
    try:
        exec(expression, scope)
    except BaseException as exc:  # noqa: B902 -- returned for the test to check
        return exc
    pytest.fail("{!r} raised nothing".format(expression))


def test_readme_has_the_section_the_messages_name():
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        headings = [line.strip() for line in f if line.startswith("#")]
    assert "## " + SECTION in headings


# ---- module attributes -------------------------------------------------------------------------

MODULES = [
    (minitorch, "torch", ["histc", "stft", "kron", "bucketize", "sspaddmm", "vmap"]),
    (minitorch.nn, "torch.nn", ["FractionalMaxPool2d", "AdaptiveLogSoftmaxWithLoss", "RNNCellBase"]),
    (minitorch.nn.functional, "torch.nn.functional", ["pdist", "channel_shuffle", "multilabel_margin_loss"]),
    (minitorch.cuda, "torch.cuda", ["Stream", "Event", "CUDAGraph"]),
    (minitorch.autograd, "torch.autograd", ["gradgradcheck", "NestedIOFunction", "detect_anomaly"]),
    (minitorch.utils, "torch.utils", ["checkpoint", "tensorboard", "bottleneck"]),
    (minitorch.backends, "torch.backends", ["mha", "opt_einsum", "nnpack"]),
    (minitorch.backends.cuda, "torch.backends.cuda", ["sdp_kernel", "cufft_plan_cache", "flash_sdp_enabled"]),
    (minitorch.distributions, "torch.distributions", ["Gamma", "Dirichlet", "TransformedDistribution"]),
]


@pytest.mark.parametrize("module, torch_name, candidates", MODULES, ids=[m[1] for m in MODULES])
def test_module_attribute_torch_has(module, torch_name, candidates):
    name = first_missing(module, candidates)
    exc = raised("minitorch_module." + name, {"minitorch_module": module})
    assert type(exc) is AttributeError
    assert str(exc) == "module '{}' has no attribute '{}': {}".format(
        module.__name__, name, sentence(torch_name + "." + name))


def test_module_attribute_that_is_a_torch_submodule():
    # torch.distributed is a submodule of torch: the attribute says so as well
    exc = raised("minitorch.distributed")
    assert type(exc) is AttributeError
    assert str(exc) == "module 'minitorch' has no attribute 'distributed': " + sentence("torch.distributed")


@pytest.mark.parametrize("module", [m[0] for m in MODULES], ids=[m[1] for m in MODULES])
@pytest.mark.parametrize("name", ["no_such_name_in_torch", "_linspace", "__wrapped__"])
def test_module_attribute_torch_lacks_keeps_pythons_message(module, name):
    exc = raised("getattr(minitorch_module, {!r})".format(name), {"minitorch_module": module})
    assert type(exc) is AttributeError
    assert str(exc) == "module '{}' has no attribute '{}'".format(module.__name__, name)


def test_hasattr_and_getattr_default_unchanged():
    name = first_missing(minitorch, ["histc", "stft", "kron", "sspaddmm", "vmap"])
    assert not hasattr(minitorch, name)
    assert getattr(minitorch, name, "default") == "default"
    assert hasattr(minitorch, "zeros") and getattr(minitorch, "zeros", None)(2).shape == (2,)
    model = minitorch.nn.Linear(2, 2)
    name = first_missing(model, ["share_memory", "compile"])
    assert not hasattr(model, name) and getattr(model, name, "default") == "default"


def test_dir_lists_no_missing_name_and_no_helper():
    for module, torch_name, candidates in MODULES:
        name = first_missing(module, candidates)
        assert name not in dir(module)
    x = minitorch.ones(2)
    assert first_missing(x, ["cfloat", "pow", "chalf"]) not in dir(x)
    # the finder and its installer are deleted once used; only PEP 562's hook stays
    assert {"sys", "_sys", "_add_finder", "_TorchSubmoduleFinder"}.isdisjoint(vars(minitorch))
    assert "__getattr__" in vars(minitorch)


def test_every_torch_name_is_either_present_or_explained():
    """Each name of the mirrored namespaces resolves, or its AttributeError carries the sentence:
    the list never claims missing what minitorch has, since it is consulted only after a failure."""
    from minitorch._torch_api import NAMES

    modules = {"torch": minitorch, "torch.nn": minitorch.nn, "torch.nn.functional": minitorch.nn.functional,
               "torch.nn.init": minitorch.nn.init, "torch.cuda": minitorch.cuda,
               "torch.autograd": minitorch.autograd, "torch.optim": minitorch.optim,
               "torch.optim.lr_scheduler": minitorch.optim.lr_scheduler, "torch.utils": minitorch.utils,
               "torch.backends": minitorch.backends, "torch.backends.cuda": minitorch.backends.cuda,
               "torch.distributions": minitorch.distributions}
    objects = dict(modules, **{"torch.Tensor": minitorch.ones(2), "torch.nn.Module": minitorch.nn.Linear(2, 2)})
    assert set(objects) == set(NAMES)
    explained = 0
    for namespace, obj in objects.items():
        if namespace == "torch.Tensor" and sys.version_info < (3, 12):
            continue  # Python's plain message there (test_tensor_attribute_before_3_12_keeps_pythons_message)
        for name in NAMES[namespace]:
            try:
                getattr(obj, name)
            except AttributeError as exc:
                assert str(exc).endswith(": " + sentence(namespace + "." + name)), (namespace, name, str(exc))
                explained += 1
            except Exception:
                pass  # present, and raising for its own reasons (a property needing a GPU, ...)
    assert explained > 300     # a floor that shrinks as names arrive: the mechanism must keep explaining many


# ---- submodule imports -------------------------------------------------------------------------

@pytest.mark.parametrize("statement, missing", [
    ("import minitorch.distributed.rpc", "distributed"),
    ("import minitorch.distributions.gamma", "distributions.gamma"),
    ("import minitorch.utils.benchmark", "utils.benchmark"),
    ("from minitorch.utils.benchmark import Timer", "utils.benchmark"),
    ("import minitorch.fft as F", "fft"),
    ("import minitorch.utils.data.datapipes", "utils.data.datapipes"),
    ("import minitorch.nn.utils.parametrize", "nn.utils.parametrize"),
    ("import minitorch.backends.opt_einsum", "backends.opt_einsum"),
    ("importlib.import_module('minitorch.distributed')", "distributed"),
])
def test_import_of_a_torch_submodule(statement, missing):
    exc = raised(statement, {"importlib": importlib})
    assert type(exc) is ModuleNotFoundError
    assert exc.name == "minitorch." + missing
    assert str(exc) == "No module named 'minitorch.{}': {}".format(missing, sentence("torch." + missing))
    assert "minitorch." + missing not in sys.modules


@pytest.mark.parametrize("package, name, torch_name", [
    ("minitorch", "distributed", "torch.distributed"),
    ("minitorch.distributions", "Gamma", "torch.distributions.Gamma"),
    ("minitorch.utils", "benchmark", "torch.utils.benchmark"),
    ("minitorch.nn", "AdaptiveLogSoftmaxWithLoss", "torch.nn.AdaptiveLogSoftmaxWithLoss"),
    ("minitorch", "fft", "torch.fft"),
])
def test_from_import_of_a_name_torch_has(package, name, torch_name):
    # importlib swallows the ModuleNotFoundError of a fromlist name and raises a bare ImportError, so
    # the sentence comes in an ImportError, as the plain one would be
    exc = raised("from {} import {}".format(package, name))
    assert type(exc) is ImportError
    location = sys.modules[package].__file__
    assert str(exc) == "cannot import name '{}' from '{}' ({}): {}".format(name, package, location, sentence(torch_name))
    assert exc.name == package and exc.path == location


def test_imports_of_names_torch_lacks_keep_pythons_messages():
    exc = raised("import minitorch.no_such_module")
    assert type(exc) is ModuleNotFoundError and exc.name == "minitorch.no_such_module"
    assert str(exc) == "No module named 'minitorch.no_such_module'"
    exc = raised("from minitorch import no_such_name")
    assert type(exc) is ImportError
    assert str(exc) == "cannot import name 'no_such_name' from 'minitorch' ({})".format(minitorch.__file__)
    exc = raised("import minitorch._no_such_private")
    assert str(exc) == "No module named 'minitorch._no_such_private'"
    # `import torch.linspace` fails in torch too (a function, not a module)
    exc = raised("import minitorch.linspace")
    assert str(exc) == "No module named 'minitorch.linspace'"


def test_find_spec_still_answers_none():
    assert importlib.util.find_spec("minitorch.distributed") is None
    assert importlib.util.find_spec("minitorch.utils.benchmark") is None


def test_try_import_fallback_still_works():
    try:
        from minitorch import distributed  # noqa: F401
    except ImportError:
        distributed = None
    assert distributed is None
    try:
        import minitorch.utils.benchmark  # noqa: F401
        found = True
    except ModuleNotFoundError:
        found = False
    assert not found


def test_finder_is_consulted_last_and_only_for_minitorch():
    finders = [f for f in sys.meta_path if type(f).__qualname__ == "_TorchSubmoduleFinder"]
    assert len(finders) == 1
    path_finder = next(i for i, f in enumerate(sys.meta_path) if f is importlib.machinery.PathFinder)
    assert sys.meta_path.index(finders[0]) > path_finder
    assert finders[0].find_spec("optim") is None
    assert finders[0].find_spec("torch.optim") is None
    exc = raised("import no_such_top_level_module_xyz")
    assert str(exc) == "No module named 'no_such_top_level_module_xyz'"


def test_import_minitorch_loads_neither_the_helper_nor_the_list():
    # (building an nn.Module does load them: registering a parameter probes hasattr(module, name))
    code = ("import sys, minitorch\n"
            "x = minitorch.ones(2, 2); repr(x); (x + 1) @ x.t(); x.to('cpu').sum(0); copy = x.clone()\n"
            "print(sorted(m for m in sys.modules if m in ('minitorch._missing', 'minitorch._torch_api')))\n"
            "print(sum(type(f).__qualname__ == '_TorchSubmoduleFinder' for f in sys.meta_path))\n"
            "hasattr(minitorch, 'sspaddmm')\n"
            "print(sorted(m for m in sys.modules if m in ('minitorch._missing', 'minitorch._torch_api')))\n")
    assert python_output(code).split() == ["[]", "1", "['minitorch._missing',", "'minitorch._torch_api']"]


# ---- Tensor attributes -------------------------------------------------------------------------

# Python 3.11 and older would slow every Tensor method call for this message (csrc/python/tensor_type.c)
tensor_message = pytest.mark.skipif(sys.version_info < (3, 12),
                                    reason="Tensor attributes say so on Python 3.12 and newer")
TENSOR_CANDIDATES = pytest.mark.parametrize("candidates", [["cfloat", "chalf", "cdouble"], ["pow", "sin", "cumsum", "diff", "lerp", "cummax", "logaddexp", "hypot", "index_fill", "bincount", "put_", "index_reduce", "stft", "int_repr", "dequantize"]])


@TENSOR_CANDIDATES
@pytest.mark.skipif(sys.version_info >= (3, 12), reason="Python 3.11 and older only")
def test_tensor_attribute_before_3_12_keeps_pythons_message(candidates):
    x = minitorch.ones(2, 3)
    name = first_missing(x, candidates)
    exc = raised("x." + name, {"x": x})
    assert type(exc) is AttributeError and str(exc) == "'Tensor' object has no attribute '{}'".format(name)
    assert not hasattr(minitorch.Tensor, "__getattr__")


@TENSOR_CANDIDATES
@tensor_message
def test_tensor_attribute_torch_has(candidates):
    x = minitorch.ones(2, 3)
    name = first_missing(x, candidates)
    exc = raised("x." + name, {"x": x})
    assert type(exc) is AttributeError
    assert str(exc) == "'Tensor' object has no attribute '{}': {}".format(name, sentence("torch.Tensor." + name))
    assert getattr(x, name, "default") == "default" and not hasattr(x, name)


def test_tensor_attribute_torch_lacks_keeps_pythons_message():
    x = minitorch.ones(2)
    for name in ["no_such_attribute", "_private", "__array_interface__", "linspace"]:
        exc = raised("getattr(x, {!r})".format(name), {"x": x})
        assert type(exc) is AttributeError
        assert str(exc) == "'Tensor' object has no attribute '{}'".format(name)


@tensor_message
def test_tensor_attribute_lookup_errors_that_are_not_missing_names():
    x = minitorch.ones(2)
    with pytest.raises(TypeError, match="attribute name must be string"):
        getattr(x, 5)  # Python 3.9's getattr() says so itself, without the type
    with pytest.raises(TypeError, match="attribute name must be string, not 'int'"):
        x.__getattr__(5)
    assert x.shape == (2,) and x.dim() == 1  # the ordinary lookups


@tensor_message
def test_parameter_and_subclasses():
    p = minitorch.nn.Parameter(minitorch.ones(2))
    name = first_missing(p, ["cfloat", "chalf", "cdouble"])
    exc = raised("p." + name, {"p": p})
    assert str(exc) == "'Parameter' object has no attribute '{}': {}".format(name, sentence("torch.Tensor." + name))
    p.note = "kept"  # a subclass's instance attributes still work
    assert p.note == "kept" and p.requires_grad is True

    class Mine(minitorch.Tensor):
        extra = 3

        def __getattr__(self, name):
            return "own " + name

    m = minitorch.Tensor._make_subclass(Mine, minitorch.ones(2), False)
    assert m.extra == 3 and m.chalf == "own chalf" and m.shape == (2,)


def test_tensor_copy_pickle_and_numpy_still_work():
    np = pytest.importorskip("numpy")
    x = minitorch.arange(6).reshape(2, 3)
    for clone in (copy.copy(x), copy.deepcopy(x), pickle.loads(pickle.dumps(x))):
        assert clone.tolist() == x.tolist()
    p = minitorch.nn.Parameter(minitorch.ones(2))
    assert type(copy.deepcopy(p)) is minitorch.nn.Parameter
    assert type(pickle.loads(pickle.dumps(p))) is minitorch.nn.Parameter
    assert np.asarray(x).tolist() == x.tolist()


@tensor_message
def test_tensor_lookups_that_fail_leak_nothing():
    import gc
    import tracemalloc

    x = minitorch.ones(2)
    p = minitorch.nn.Parameter(minitorch.ones(2))
    names = [first_missing(x, ["cfloat", "pow"]), "no_such_attribute", "_private", "__array_struct__"]

    def round_of_lookups():
        for name in names:
            getattr(x, name, None)
            getattr(p, name, None)
            try:
                getattr(x, name)
            except AttributeError:
                pass
        try:
            x.__getattr__(5)
        except TypeError:
            pass

    for _ in range(200):
        round_of_lookups()
    gc.collect()
    counts = [sys.getrefcount(o) for o in [x, p, minitorch.Tensor, minitorch.nn.Parameter] + names]
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for _ in range(2000):
            round_of_lookups()
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert [sys.getrefcount(o) for o in [x, p, minitorch.Tensor, minitorch.nn.Parameter] + names] == counts
    assert grown < 16 * 1024, grown


# ---- nn.Module methods -------------------------------------------------------------------------

def test_module_method_torch_has():
    model = minitorch.nn.Linear(2, 3)
    name = first_missing(model, ["share_memory", "register_full_backward_hook", "compile"])
    exc = raised("model." + name, {"model": model})
    assert type(exc) is AttributeError
    assert str(exc) == "'Linear' object has no attribute '{}': {}".format(name, sentence("torch.nn.Module." + name))
    assert not hasattr(model, name) and getattr(model, name, None) is None


def test_module_attribute_torch_lacks_keeps_pythons_message():
    model = minitorch.nn.Sequential(minitorch.nn.Linear(2, 2))
    for name in ["no_such_layer", "_private", "__deepcopy_probe__", "in_features"]:
        exc = raised("getattr(model, {!r})".format(name), {"model": model})
        assert type(exc) is AttributeError
        assert str(exc) == "'Sequential' object has no attribute '{}'".format(name)
    assert model[0].weight.shape == (2, 2)  # registered members still resolve


def test_module_property_raising_attribute_error_is_not_called_missing():
    class Net(minitorch.nn.Module):
        @property
        def training_steps(self):
            raise AttributeError("not counted yet")

    # torch.nn.Module has no training_steps; and for a name it has, a property defined here means
    # minitorch does have it
    class Shadow(minitorch.nn.Module):
        @property
        def share_memory(self):
            raise AttributeError("no")

    for model, name in ((Net(), "training_steps"), (Shadow(), "share_memory")):
        exc = raised("getattr(model, {!r})".format(name), {"model": model})
        assert str(exc) == "'{}' object has no attribute '{}'".format(type(model).__name__, name)


def test_modules_copy_and_pickle_still_work():
    model = minitorch.nn.Sequential(minitorch.nn.Linear(2, 3), minitorch.nn.ReLU())
    for clone in (copy.deepcopy(model), pickle.loads(pickle.dumps(model))):
        assert repr(clone) == repr(model)
        assert clone[0].weight.tolist() == model[0].weight.tolist()


# ---- the generated list against torch ----------------------------------------------------------

def _torch_or_skip():
    try:
        import torch
    except ImportError:
        pytest.skip("torch not installed: pip install torch==2.13.0")
    return torch


def _generator():
    spec = importlib.util.spec_from_file_location("torch_api_names", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_generated_list_matches_torch():
    torch = _torch_or_skip()
    from minitorch import _torch_api

    version = torch.__version__.split("+")[0]
    if version != _torch_api.TORCH_VERSION:
        pytest.skip("torch {} is installed; the list comes from torch {}".format(version, _torch_api.TORCH_VERSION))
    with open(_torch_api.__file__, encoding="utf-8") as f:
        assert f.read() == _generator().render(torch)


def test_every_listed_name_exists_in_torch():
    torch = _torch_or_skip()
    from minitorch._torch_api import NAMES, SUBMODULES

    for namespace, names in NAMES.items():
        module_name, _, last = namespace.rpartition(".")
        try:
            obj = importlib.import_module(namespace)
        except ImportError:
            obj = getattr(importlib.import_module(module_name), last)  # torch.Tensor, torch.nn.Module
        absent = sorted(n for n in names if not hasattr(obj, n))
        assert not absent, (namespace, absent[:20])
    for path in ("optim", "optim.lr_scheduler", "utils.data", "nn.utils", "linalg", "distributions", "fft",
                 "special", "testing", "amp", "jit"):
        assert path in SUBMODULES
        assert importlib.util.find_spec("torch." + path) is not None
    assert torch.__name__ == "torch"


def test_list_is_data_in_the_generators_format():
    from minitorch import _torch_api

    with open(_torch_api.__file__, encoding="utf-8") as f:
        text = f.read()
    assert text.startswith("# Generated by scripts/torch_api_names.py from torch 2.13.0")
    assert {n for n in vars(_torch_api) if not n.startswith("__")} == {"TORCH_VERSION", "NAMES", "SUBMODULES"}
    assert all(isinstance(v, frozenset) for v in _torch_api.NAMES.values())
    names = set().union(*_torch_api.NAMES.values(), _torch_api.SUBMODULES)
    assert not any(part.startswith("_") for name in names for part in name.split("."))
    assert {"linspace", "Tensor"} <= _torch_api.NAMES["torch"]
    # submodules are listed once, as paths, whatever the generating process had imported
    assert "optim" in _torch_api.SUBMODULES and "optim" not in _torch_api.NAMES["torch"]
    assert "utils.data" in _torch_api.SUBMODULES and "data" not in _torch_api.NAMES["torch.utils"]
    assert "half" in _torch_api.NAMES["torch.Tensor"] and "share_memory" in _torch_api.NAMES["torch.nn.Module"]
    assert {"os", "sys", "TYPE_CHECKING"}.isdisjoint(_torch_api.NAMES["torch"])  # torch's own imports
