"""The normalisation layers on float16 and bfloat16 against torch 2.13's CPU kernels: batch norm's 16-bit
statistics (float32 sums stored in the parameters' dtype, the running statistics updated in 16-bit
arithmetic), torch's mixed type (a 16-bit input with float32 parameters, as `model.half()` is not applied to
the normalisation layer), group and layer norm computed in float32 and rounded once, their dtype checks and
messages, and the gradients. Outputs and running statistics are compared bit for bit, gradients to the last
bits (torch's 16-bit backward kernels round their float32 sums in their own order). Skips without torch."""

import os
import sys

import numpy as np
import pytest

import minitorch as mt

sys.path.insert(0, os.path.dirname(__file__))
from test_half_dtypes import HALF, bits, same  # noqa: E402

torch = pytest.importorskip("torch")

SHAPES = [(3, 5), (40, 7), (4, 3, 5), (2, 4, 16), (3, 2, 37), (2, 3, 4, 9), (1, 2, 6, 6)]


def _inputs(module, shape, dtype, param_dtype, affine, seed):
    rng = np.random.default_rng(seed)
    c = shape[1]
    x = module.tensor((rng.standard_normal(shape) * 3 + 1).astype(np.float32)).to(getattr(module, dtype))
    pd = getattr(module, param_dtype)
    w = module.tensor(rng.standard_normal(c).astype(np.float32)).to(pd) if affine else None
    b = module.tensor(rng.standard_normal(c).astype(np.float32)).to(pd) if affine else None
    rm = module.tensor(rng.standard_normal(c).astype(np.float32)).to(pd)
    rv = module.tensor(rng.random(c).astype(np.float32) + 0.5).to(pd)
    return x, w, b, rm, rv


def _both(fn):
    out = []
    for module in (torch, mt):
        try:
            out.append(("ok", fn(module)))
        except Exception as e:  # noqa: BLE001 - compared below
            out.append(("err", type(e).__name__, str(e).replace("minitorch", "torch")))
    return out


def _assert_same(got, want, ulps=0, rtol=0.0):
    """Bit for bit, or 16-bit values `ulps` apart and float32 ones within `rtol`."""
    assert got[0] == want[0], (got, want)
    if got[0] == "err":
        assert got[1:] == want[1:]
        return
    for g, w in zip(got[1], want[1]):
        if w is None:
            assert g is None
            continue
        if rtol and w.dtype == torch.float32:
            assert str(g.dtype) == "minitorch.float32" and tuple(g.shape) == tuple(w.shape)
            np.testing.assert_allclose(np.array(g.detach().tolist()), w.detach().numpy(), rtol=rtol, atol=1e-7)
            continue
        same(g, w, ulps)


@pytest.mark.parametrize("dtype", HALF)
@pytest.mark.parametrize("mixed", [False, True])
@pytest.mark.parametrize("shape", SHAPES)
def test_batch_norm_training(dtype, mixed, shape):
    param_dtype = "float32" if mixed else dtype

    def run(module):
        x, w, b, rm, rv = _inputs(module, shape, dtype, param_dtype, True, 1)
        out = module.nn.functional.batch_norm(x, rm, rv, w, b, training=True, momentum=0.3)
        return out, rm, rv

    t, m = _both(run)
    # the output bit for bit; float32 running statistics (the mixed type) within a float32 rounding: torch
    # sums a plane's vectors in an order reproduced for the 16-bit statistics, not to the last float32 bit
    _assert_same(("ok", m[1][:1]), ("ok", t[1][:1]))
    _assert_same(("ok", m[1][1:]), ("ok", t[1][1:]), rtol=3e-7)


@pytest.mark.parametrize("dtype", HALF)
@pytest.mark.parametrize("mixed", [False, True])
@pytest.mark.parametrize("affine", [False, True])
def test_batch_norm_eval_and_no_stats(dtype, mixed, affine):
    param_dtype = "float32" if mixed else dtype
    for shape in SHAPES:
        def run(module):
            x, w, b, rm, rv = _inputs(module, shape, dtype, param_dtype, affine, 2)
            ev = module.nn.functional.batch_norm(x, rm, rv, w, b, training=False)
            tr = module.nn.functional.batch_norm(x, None, None, w, b, training=True)
            return ev, tr

        t, m = _both(run)
        # torch's float16 kernels round a rare value the other way (about one in 10**4 here, not yet
        # reproduced); bfloat16 bit for bit
        _assert_same(m, t, ulps=1 if dtype == "float16" else 0)


@pytest.mark.parametrize("dtype", HALF)
def test_modules_keep_float32_parameters(dtype):
    """A 16-bit input through float32 layers (torch's mixed type) and through layers made 16-bit."""
    def run(module):
        module.manual_seed(0)
        x = module.randn(6, 4, 5).to(getattr(module, dtype))
        outs = []
        for layer in (module.nn.BatchNorm1d(4), module.nn.GroupNorm(2, 4), module.nn.LayerNorm(5),
                      module.nn.InstanceNorm1d(4, affine=True)):
            outs.append(layer(x))
            outs.append(layer.to(getattr(module, dtype))(x))
            outs.append(layer.eval()(x))
        return outs

    t, m = _both(run)
    _assert_same(m, t)


@pytest.mark.parametrize("dtype", HALF)
def test_group_and_layer_norm_values(dtype):
    for shape, groups in [((4, 6, 10), 3), ((2, 4, 5, 5), 2), ((3, 8), 4)]:
        def run(module):
            x, w, b, _, _ = _inputs(module, shape, dtype, dtype, True, 3)
            return (module.nn.functional.group_norm(x, groups, w, b),
                    module.nn.functional.group_norm(x, groups, w.float(), b.float()),
                    module.nn.functional.layer_norm(x, shape[-1:], w[:1].expand(shape[-1]).contiguous()))

        t, m = _both(run)
        # computed in float32 and rounded once, as torch's kernels: torch's float32 statistics come from its
        # Welford lanes, so a value on a rounding boundary may land one unit apart
        _assert_same(m, t, ulps=1)


@pytest.mark.parametrize("dtype", HALF)
def test_mixed_dtype_errors(dtype):
    cases = [("float64", "float32"), (dtype, "float64"), ("float32", dtype), ("float64", dtype)]
    for input_dtype, param_dtype in cases:
        for fn in ("batch_norm", "group_norm", "layer_norm"):
            def run(module):
                x = module.ones(4, 2, 3, dtype=getattr(module, input_dtype))
                w = module.ones(2 if fn != "layer_norm" else 3, dtype=getattr(module, param_dtype))
                f = getattr(module.nn.functional, fn)
                if fn == "batch_norm":
                    return (f(x, None, None, w, None, training=True),)
                if fn == "group_norm":
                    return (f(x, 2, w),)
                return (f(x, (3,), w),)

            t, m = _both(run)
            _assert_same(m, t)


@pytest.mark.parametrize("dtype", HALF)
@pytest.mark.parametrize("mixed", [False, True])
def test_batch_norm_gradients(dtype, mixed):
    param_dtype = "float32" if mixed else dtype
    for shape in [(5, 3), (2, 3, 20), (2, 2, 3, 3)]:
        for training in (True, False):
            def run(module):
                x, w, b, rm, rv = _inputs(module, shape, dtype, param_dtype, True, 4)
                for t in (x, w, b):
                    t.requires_grad_()
                out = module.nn.functional.batch_norm(x, rm, rv, w, b, training=training)
                g = module.tensor(np.linspace(-1, 1, out.numel(), dtype=np.float32)).reshape(out.shape)
                out.backward(g.to(out.dtype))
                return out, x.grad, w.grad, b.grad

            t, m = _both(run)
            assert m[0] == t[0] == "ok", (m, t)
            _assert_same(("ok", m[1][:1]), ("ok", t[1][:1]))
            _assert_same(("ok", m[1][1:]), ("ok", t[1][1:]), ulps=2, rtol=2e-6)
