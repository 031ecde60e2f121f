"""The type stubs (minitorch/*.pyi, minitorch/nn/*.pyi, PEP 561's py.typed) describe the public API.

mypy must accept tests/typing/example.py (a program using tensors, ops, devices, the cuda memory
functions and nn) and must reject misuse, which shows that the stubs, not Any, are what it checks. The
coverage tests need no mypy: every public name of minitorch._C, Tensor, minitorch.cuda and minitorch.nn
must appear in the stubs, so a new function cannot silently be missing from them. The ops' stubs are
written from the op table (csrc/python/ops.def) by scripts/make_stubs.py: the committed minitorch/_C.pyi
must be what it writes."""

import ast
import os
import subprocess
import sys
import textwrap

import pytest

import minitorch
import minitorch.cuda
import minitorch.nn

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = os.path.dirname(os.path.abspath(minitorch.__file__))
EXAMPLE = os.path.join(ROOT, "tests", "typing", "example.py")


def have_mypy():
    try:
        import mypy  # noqa: F401
    except ImportError:
        return False
    return True


needs_mypy = pytest.mark.skipif(not have_mypy(), reason="mypy is not installed (pip install mypy)")


@pytest.fixture(scope="module")
def mypy_cache(tmp_path_factory):
    # outside the repository: .mypy_cache is not in .gitignore
    return str(tmp_path_factory.mktemp("mypy_cache"))


def run_mypy(path, cache, *extra):
    env = dict(os.environ, MYPYPATH=os.path.dirname(PACKAGE))
    # a package mypy finds on PYTHONPATH counts as installed, and its stubs' errors are silenced
    env.pop("PYTHONPATH", None)
    result = subprocess.run([sys.executable, "-m", "mypy", "--no-error-summary", "--cache-dir", cache,
                             "--python-version", "%d.%d" % sys.version_info[:2], *extra, path],
                            capture_output=True, text=True, env=env, cwd=ROOT)
    return result.returncode, result.stdout + result.stderr


@needs_mypy
def test_mypy_accepts_the_example(mypy_cache):
    code, out = run_mypy(EXAMPLE, mypy_cache, "--strict")
    assert code == 0, out


@needs_mypy
def test_mypy_rejects_misuse(tmp_path, mypy_cache):
    bad = tmp_path / "bad.py"
    bad.write_text(textwrap.dedent("""
        import minitorch as torch
        from minitorch import nn
        t = torch.zeros(2, 3)
        t.no_such_method()
        n: str = t.numel()
        torch.cuda.memory_allocated("cuda", 1)
        nn.Linear("2", 3)
        d: torch.dtype = t.device
    """))
    code, out = run_mypy(str(bad), mypy_cache)
    assert code == 1
    for line in (5, 6, 7, 8, 9):
        assert "bad.py:%d: error" % line in out, out


def test_example_runs():
    env = dict(os.environ, PYTHONPATH=os.path.dirname(PACKAGE))
    result = subprocess.run([sys.executable, EXAMPLE], capture_output=True, text=True, env=env)
    assert result.returncode == 0, result.stderr


def stub_names(relpath, class_name=None):
    tree = ast.parse(open(os.path.join(PACKAGE, relpath)).read())
    body = tree.body
    if class_name is not None:
        body = next(node.body for node in tree.body if isinstance(node, ast.ClassDef) and node.name == class_name)
    names = set()
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.ImportFrom):
            names.update(alias.asname or alias.name for alias in node.names)
    return names


def test_stubs_are_what_make_stubs_writes():
    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    try:
        import make_stubs
    finally:
        sys.path.pop(0)
    with open(os.path.join(PACKAGE, "_C.pyi")) as f:
        committed = f.read()
    assert committed == make_stubs.render_file(), (
        "minitorch/_C.pyi differs from what the op table gives: run python scripts/make_stubs.py")


def test_py_typed_marker_and_package_data():
    assert os.path.exists(os.path.join(PACKAGE, "py.typed"))
    pyproject = open(os.path.join(ROOT, "pyproject.toml")).read()
    assert "py.typed" in pyproject and "*.pyi" in pyproject


def test_stubs_cover_the_c_module():
    public = {n for n in dir(minitorch._C) if not n.startswith("_")}
    missing = sorted(public - stub_names("_C.pyi"))
    assert missing == [], "add to minitorch/_C.pyi: " + ", ".join(missing)


def test_stubs_cover_tensor():
    public = {n for n in dir(minitorch.Tensor) if not n.startswith("_")}
    public |= {"__array__", "__dlpack__", "__dlpack_device__"}
    missing = sorted(public - stub_names("_C.pyi", "Tensor"))
    assert missing == [], "add to class Tensor in minitorch/_C.pyi: " + ", ".join(missing)


def test_stubs_cover_the_package():
    public = {n for n in dir(minitorch) if not n.startswith("_")}
    stubbed = stub_names("__init__.pyi") | stub_names("_C.pyi")
    missing = sorted(public - stubbed)
    assert missing == [], "add to minitorch/__init__.pyi: " + ", ".join(missing)


def test_stubs_cover_cuda_and_nn():
    missing = sorted(set(minitorch.cuda.__all__) - stub_names("cuda.pyi"))
    assert missing == [], "add to minitorch/cuda.pyi: " + ", ".join(missing)
    missing = sorted(set(minitorch.nn.__all__) - stub_names(os.path.join("nn", "__init__.pyi")))
    assert missing == [], "add to minitorch/nn/__init__.pyi: " + ", ".join(missing)
    for module, stub in [(minitorch.nn.functional, "functional.pyi"), (minitorch.nn.init, "init.pyi")]:
        missing = sorted(set(module.__all__) - stub_names(os.path.join("nn", stub)))
        assert missing == [], "add to minitorch/nn/%s: %s" % (stub, ", ".join(missing))


def test_stubs_cover_utils_data():
    import minitorch.utils.data

    missing = sorted(set(minitorch.utils.data.__all__) - stub_names(os.path.join("utils", "data", "__init__.pyi")))
    assert missing == [], "add to minitorch/utils/data/__init__.pyi: " + ", ".join(missing)
