"""The sampling ops of torch's ATen/native/Distributions.cpp that minitorch writes in Python, on the
generator's uniform and normal streams, drawn as torch's CPU kernels draw them, so that results match
torch's bit for bit after manual_seed (on a CUDA device the numbers come from minitorch's CUDA generator;
torch's CUDA kernels draw differently):

- bernoulli (Tensor.bernoulli_, torch.bernoulli): element by element in memory order, 1 where a uniform
  number is below p. A number p (bernoulli_(0.3)) compares a float64 uniform (53 random bits), a tensor p
  one of p's own dtype (a float32 p: 24 bits). Dropout's masks come from here.
- normal (its four overloads; Tensor.normal_ is the C op): standard normal draws scaled and shifted.
- exponential_: -log1p(-u) / lambda of float64 uniforms u.
- geometric_, log_normal_, cauchy_: torch's at::geometric/lognormal/cauchy_distribution<double>, one draw per
  element in memory order (log_normal_ through normal_'s one-at-a-time Box-Muller with its cached sample).
- multinomial: without replacement (or one sample) torch's exponential race, argmax or topk of p / q
  with q ~ Exp(1); with replacement, torch's inverse-CDF search of float64 uniforms in the row's
  float32 running sums.
"""

import array
import bisect
import itertools
import math

import minitorch
from minitorch import _C
from minitorch._composite import with_out
from minitorch.autograd.function import Function, FunctionCtx, _NotImplemented, _apply

# torch's signatures of the three forms (native_functions.yaml), parsed first so a wrong argument gets
# torch's TypeError
_SIGNATURES = {
    "normal": ["normal(Tensor mean, Tensor std, *, Generator? generator=None, Tensor out=None)",
               "normal(Tensor mean, double std=1, *, Generator? generator=None, Tensor out=None)",
               "normal(double mean, Tensor std, *, Generator? generator=None, Tensor out=None)",
               "normal(double mean, double std, SymIntArrayRef size, *, Generator? generator=None, Tensor out=None, "
               "ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=False, "
               "bool? requires_grad=False)"],
    "exponential_": ["exponential_(double lambd=1, *, Generator? generator=None)"],
    # (the methods' signatures: without self, so that a wrong argument's position is torch's)
    "geometric_": ["geometric_(double p, *, Generator? generator=None)"],
    "log_normal_": ["log_normal_(double mean=1, double std=2, *, Generator? generator=None)"],
    "cauchy_": ["cauchy_(double median=0, double sigma=1, *, Generator? generator=None)"],
    "multinomial": ["multinomial(Tensor input, int64_t num_samples, bool replacement=False, *, "
                    "Generator? generator=None, Tensor out=None)"],
    "Tensor.multinomial": ["multinomial(int64_t num_samples, bool replacement=False, *, Generator? generator=None)"],
    "bernoulli": ["bernoulli(Tensor input, *, Generator? generator=None)",
                  "bernoulli(Tensor input, double p, *, Generator? generator=None)"],
    "bernoulli_": ["bernoulli_(Tensor input, Tensor p, *, Generator? generator=None)",
                   "bernoulli_(Tensor input, double p=0.5, *, Generator? generator=None)"],
}

__all__ = ["bernoulli", "bernoulli_", "normal", "exponential_", "geometric_", "log_normal_", "cauchy_", "multinomial",
           "multinomial_method", "randint_like"]


def _refuse_integer_p(p):
    """torch's kernel dispatches on p's dtype, floating ones only."""
    if not p.is_floating_point():
        raise NotImplementedError(f"\"bernoulli_tensor_cpu_p_\" not implemented for '{p.dtype._scalar_name}'")


def _uniform_like(t, dtype, generator):
    """Uniform numbers in [0, 1) shaped like t, drawn in the order torch's serial kernels visit t's
    elements: its dims from the largest stride to the smallest (memory order for a dense tensor)."""
    order = sorted(range(t.dim()), key=lambda d: -t.stride(d))
    u = minitorch.rand([t.shape[d] for d in order], dtype=dtype, generator=generator, device=t.device)
    return u.permute([order.index(d) for d in range(t.dim())])


def bernoulli_(self, p=0.5, *, generator=None):
    """Fills self with 1 (probability p) or 0; p a number or a tensor of probabilities broadcast to self."""
    overload, values, _ = _C._parse_args(_SIGNATURES["bernoulli_"], (self, p), {"generator": generator})
    if overload == 1:
        p = values["p"]     # a number, or a 0-dim tensor's value
        if not 0 <= p <= 1:
            raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={p:g}")
    if self.numel() == 0:
        return self
    with minitorch.no_grad():
        if isinstance(p, minitorch.Tensor):
            _refuse_integer_p(p)
            expanded = p.expand(self.shape)
            # a meta p has no values to check (torch's meta kernel checks none)
            if not expanded.is_meta and (bool((expanded < 0).any()) or bool((expanded > 1).any())):
                raise RuntimeError("Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this error "
                                   "message be improved?  If so, please report an enhancement request to PyTorch.)")
            mask = _uniform_like(self, p.dtype, generator) < expanded.to(self.device)
        else:
            mask = _uniform_like(self, minitorch.float64, generator) < p
    return _write_sample(self, mask, "BernoulliBackward1" if isinstance(p, minitorch.Tensor) else "BernoulliBackward2",
                         p)


def _zero_gradients(ctx, grad):
    """The backward of torch's in-place samplers: zero gradients for self and for a tensor parameter."""
    return tuple(minitorch.zeros(shape, dtype=grad.dtype, device=grad.device) if shape is not None else None
                 for shape in ctx.shapes)


def _write_sample(self, sample, node_name, *parameters):
    """Writes sample into self in place, as torch's in-place samplers (bernoulli_, exponential_) do: one
    version bump and, when autograd records, torch's node for the sampler, which passes zero gradients."""
    ctx = FunctionCtx()
    inputs = (self,) + parameters
    ctx.needs_input_grad = tuple(isinstance(a, minitorch.Tensor) and a.requires_grad for a in inputs)
    ctx.shapes = [a.shape if isinstance(a, minitorch.Tensor) else None for a in inputs]
    _C._function_record_inplace(node_name, ctx, _zero_gradients, inputs, sample, False)
    return self


class _Bernoulli(Function):
    """torch.bernoulli(probabilities): its node (BernoulliBackward0) passes no gradient."""

    @staticmethod
    def forward(ctx, input, generator):
        return bernoulli_(minitorch.empty_like(input), input, generator=generator)

    @staticmethod
    def backward(ctx, grad):
        return minitorch.zeros_like(grad), None


_NO_P = object()


def bernoulli(input, p=_NO_P, *, generator=None):
    """A tensor like input of 1s and 0s: 1 with probability input (or, given p, with probability p)."""
    overload, values, _ = _C._parse_args(_SIGNATURES["bernoulli"], (input,) if p is _NO_P else (input, p),
                                         {"generator": generator})
    if overload == 1:
        # torch has no derivative for bernoulli(input, p): its node raises in backward
        return _NotImplemented.apply("bernoulli", lambda: bernoulli_(minitorch.empty_like(input), values["p"],
                                                                     generator=generator), input)
    _refuse_integer_p(input)
    return _apply(_Bernoulli, "BernoulliBackward0", None, (input, generator), {})


# ---- normal ---------------------------------------------------------------------------------------------

class _Normal(Function):
    """The node of normal() with a tensor mean or std (NormalBackward1/2/3): both get zero gradients, of
    their own shapes (derivatives.yaml)."""

    @staticmethod
    def forward(ctx, mean, std, sample):
        ctx.shapes = [t.shape if isinstance(t, minitorch.Tensor) else None for t in (mean, std)]
        return sample[0]

    @staticmethod
    def backward(ctx, grad):
        return tuple(None if shape is None else minitorch.zeros(shape, dtype=grad.dtype, device=grad.device)
                     for shape in ctx.shapes) + (None,)


def _check_std_tensor(std):
    # (a meta std has no values to check, as torch's meta function)
    if std.numel() and std.device.type != "meta" and bool((std < 0).any()):
        raise RuntimeError("normal expects all elements of std >= 0.0")


def normal(*args, **kwargs):
    """Normal samples: normal(mean, std) with a tensor mean and/or std (broadcast, one draw per element),
    or normal(mean, std, size) with numbers (dtype, device, requires_grad as the factories take them)."""
    overload, v, _ = _C._parse_args(_SIGNATURES["normal"], args, kwargs)
    if v["out"] is not None:
        return _normal_out(overload, v)
    mean, std, generator = v["mean"], v["std"], v["generator"]
    if overload == 3:
        out = minitorch.empty(v["size"], dtype=v["dtype"], device=v["device"])
        out.normal_(mean, std, generator=generator)
        return out.requires_grad_() if v["requires_grad"] else out
    with minitorch.no_grad():
        if overload == 0:
            _check_std_tensor(std)
            shape = _C._infer_size(mean.shape, std.shape)
            sample = minitorch.empty(shape, dtype=mean.dtype, device=mean.device).normal_(0, 1, generator=generator)
            sample.mul_(std).add_(mean)
        elif overload == 1:
            if not std >= 0.0:
                raise RuntimeError("normal expects std >= 0.0, but found std {:g}".format(std))
            sample = minitorch.empty_like(mean, memory_format=minitorch.contiguous_format)
            sample.normal_(0, std, generator=generator).add_(mean)
        else:
            _check_std_tensor(std)
            sample = minitorch.empty_like(std, memory_format=minitorch.contiguous_format)
            sample.normal_(0, 1, generator=generator).mul_(std).add_(mean)
    node = "NormalBackward{}".format((3, 1, 2)[overload])
    return _apply(_Normal, node, None, (mean, std, [sample]), {})


def _normal_out(overload, v):
    """normal(..., out=) as torch's normal_out: the samples drawn into out itself, in its dtype, after
    resize_output to the broadcast shape (a tensor mean with a number std broadcasts with out's own shape);
    with a size, out is resized without a warning."""
    out, mean, std, generator = v["out"], v["mean"], v["std"], v["generator"]
    if minitorch.is_grad_enabled() and any(isinstance(t, minitorch.Tensor) and t.requires_grad
                                           for t in (mean, std, out)):
        raise RuntimeError("normal(): functions with out=... arguments don't support automatic differentiation, "
                           "but one of the arguments requires grad.")
    if overload == 3:
        out.resize_(v["size"])
        return out.normal_(mean, std, generator=generator)
    if overload == 1 and not std >= 0.0:
        raise RuntimeError("normal expects std >= 0.0, but found std {:g}".format(std))
    if overload != 1:
        _check_std_tensor(std)
    with minitorch.no_grad():
        if overload == 0:
            _C._resize_output(out, tuple(_C._infer_size(mean.shape, std.shape)))
            out.normal_(0, 1, generator=generator).mul_(std).add_(mean)
        elif overload == 1:
            _C._resize_output(out, tuple(_C._infer_size(mean.shape, out.shape)))
            out.normal_(0, std, generator=generator).add_(mean)
        else:
            _C._resize_output(out, tuple(std.shape))
            out.normal_(0, 1, generator=generator).mul_(std).add_(mean)
    return out


# ---- exponential_ ---------------------------------------------------------------------------------------

def exponential_(self, *args, **kwargs):
    """Fills self with exponential samples of rate lambd: -log1p(-u) / lambd for float64 uniforms u,
    one per element in memory order (then rounded to self's dtype)."""
    _, v, _ = _C._parse_args(_SIGNATURES["exponential_"], args, kwargs)
    lambd, generator = v["lambd"], v["generator"]
    if not self.is_floating_point():
        raise RuntimeError("Exponential distribution is a continuous probability distribution. dtype must be a "
                           "floating point but you specified {}".format(self.dtype._scalar_name))
    if not lambd > 0.0:
        raise RuntimeError("exponential_ expects lambda > 0.0, but found lambda={:g}".format(lambd))
    with minitorch.no_grad():
        u = _uniform_like(self, minitorch.float64, generator)
        sample = u.neg().log1p().mul(-1.0 / lambd)
    return _write_sample(self, sample, "ExponentialBackward0")


# ---- geometric_, log_normal_, cauchy_ --------------------------------------------------------------------

# the C++ names torch's cauchy_ message gives an integer dtype
_CXX_NAMES = {"int64": "long int", "int32": "int", "int16": "short int", "int8": "signed char",
              "uint8": "unsigned char", "bool": "bool"}


def geometric_(self, *args, **kwargs):
    """Fills self with geometric samples (the number of Bernoulli(p) trials up to the first success):
    ceil(log(u) / log1p(-p)) for float64 uniforms u, one per element in memory order, as torch's
    at::geometric_distribution<double> (every dtype but bool)."""
    _, v, _ = _C._parse_args(_SIGNATURES["geometric_"], args, kwargs)
    p, generator = v["p"], v["generator"]
    if not 0 < p < 1:
        raise RuntimeError("geometric_ expects p to be in (0, 1), but got p={:g}".format(p))
    if self.dtype == minitorch.bool:
        raise NotImplementedError("\"geometric_cpu\" not implemented for 'Bool'")
    with minitorch.no_grad():
        u = _uniform_like(self, minitorch.float64, generator)
        sample = u.log().div(math.log1p(-p)).ceil()
    return _write_sample(self, sample, "GeometricBackward0")


def log_normal_(self, *args, **kwargs):
    """Fills self with exp of normal samples of mean and std, drawn one at a time as torch's
    at::lognormal_distribution<double> (Box-Muller in double, every second sample the cached one)."""
    _, v, _ = _C._parse_args(_SIGNATURES["log_normal_"], args, kwargs)
    mean, std, generator = v["mean"], v["std"], v["generator"]
    if not std > 0.0:
        raise RuntimeError("log_normal_ expects std > 0.0, but found std={:g}".format(std))
    if not self.is_floating_point():
        raise NotImplementedError("\"log_normal_cpu\" not implemented for '{}'".format(self.dtype._scalar_name))
    with minitorch.no_grad():
        # normal_ on a strided float64 view draws one value at a time (torch's serial normal path)
        order = sorted(range(self.dim()), key=lambda d: -self.stride(d))
        shape = [self.shape[d] for d in order]
        buffer = minitorch.empty(shape + [2], dtype=minitorch.float64, device=self.device)[..., 0]
        normal = buffer.normal_(mean, std, generator=generator)
        sample = normal.exp().permute([order.index(d) for d in range(self.dim())])
    return _write_sample(self, sample, "LogNormalBackward0")


def _fused_multiply_add(a, b, c):
    """a * b + c of a float64 tensor b and numbers a, c in one rounding, as torch's x86 build fuses it
    (addcmul's kernel is that fused multiply-add)."""
    return minitorch.addcmul(minitorch.full_like(b, c), minitorch.full_like(b, a), b)


def cauchy_(self, *args, **kwargs):
    """Fills self with Cauchy samples median + sigma * tan(pi * (u - 0.5)) for float64 uniforms u, one per
    element in memory order, as torch's at::cauchy_distribution<double>."""
    _, v, _ = _C._parse_args(_SIGNATURES["cauchy_"], args, kwargs)
    median, sigma, generator = v["median"], v["sigma"], v["generator"]
    if not sigma > 0.0:
        raise RuntimeError("cauchy_ expects sigma > 0.0, but found sigma={:g}".format(sigma))
    if not self.is_floating_point():
        raise RuntimeError("Cauchy distribution is a continuous probability distribution. dtype must be a floating "
                           "point but you specified {}".format(_CXX_NAMES[str(self.dtype).split(".")[1]]))
    with minitorch.no_grad():
        u = _uniform_like(self, minitorch.float64, generator)
        sample = _fused_multiply_add(sigma, u.sub(0.5).mul(math.pi).tan(), median)
    return _write_sample(self, sample, "CauchyBackward0")


# ---- randint_like ---------------------------------------------------------------------------------------

_LIKE_OPTIONS = ("MemoryFormat? memory_format=None, ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
                 "bool? pin_memory=False, bool? requires_grad=False")
_SIGNATURES["randint_like"] = [
    "randint_like(Tensor input, SymInt low, SymInt high, *, Generator? generator, " + _LIKE_OPTIONS + ")",
    "randint_like(Tensor input, SymInt low, SymInt high, *, " + _LIKE_OPTIONS + ")",
    "randint_like(Tensor input, Tensor high, *, Generator? generator, " + _LIKE_OPTIONS + ")",
    "randint_like(Tensor input, Tensor high, *, " + _LIKE_OPTIONS + ")",
    "randint_like(Tensor input, SymInt high, *, Generator? generator, " + _LIKE_OPTIONS + ")",
    "randint_like(Tensor input, SymInt high, *, " + _LIKE_OPTIONS + ")",
]


def randint_like(*args, **kwargs):
    """A tensor like input (its shape, dtype, device and layout unless given) of random integers in
    [low, high): torch's empty_like(input).random_(low, high), so the same numbers after manual_seed."""
    _, v, _ = _C._parse_args(_SIGNATURES["randint_like"], args, kwargs)
    high = v["high"]
    if isinstance(high, minitorch.Tensor):
        if high.dim() != 0 or high.device.type != "cpu":
            raise RuntimeError("high must be a scalar tensor and on CPU")
        high = int(high.item())
    low = v.get("low") or 0
    options = {"dtype": v["dtype"], "device": v["device"]}
    if v.get("memory_format") is not None:
        options["memory_format"] = v["memory_format"]
    out = minitorch.empty_like(v["input"], **{k: o for k, o in options.items() if o is not None})
    out.random_(low, high, generator=v.get("generator"))
    if v.get("requires_grad"):
        out.requires_grad_()
    return out


# ---- multinomial ----------------------------------------------------------------------------------------

def _float32_running_sums(values):
    """The running sums of a row as float32 additions give them (Python's float is a double; the sum of
    two floats rounded from a double to float32 is the float32 sum)."""
    acc = array.array("f", [0.0])
    sums = []
    for value in values:
        acc[0] += value
        sums.append(acc[0])
    return sums


def _multinomial_with_replacement(p, n_sample, generator):
    """torch's CPU kernel, row by row: each entry checked, the running sums in p's dtype divided by their
    total, then for each sample a float64 uniform u and the first category whose normalized running sum
    is >= u (the last one's is 1)."""
    single = p.dtype == minitorch.float32
    picked = []
    for row in p.reshape(-1, p.shape[-1]).cpu().tolist():
        for value in row:
            if not value >= 0:
                raise RuntimeError("invalid multinomial distribution (encountering probability entry < 0)")
            if not math.isfinite(value):
                raise RuntimeError("invalid multinomial distribution (encountering probability entry = infinity "
                                   "or NaN)")
        sums = _float32_running_sums(row) if single else list(itertools.accumulate(row))
        total = sums[-1]
        if not total > 0:
            raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
        cdf = [s / total for s in sums]
        if single:
            cdf = array.array("f", cdf).tolist()
        cdf[-1] = 1.0
        # drawn from p's device's generator (torch's CUDA kernel takes a CUDA generator, its CPU one a CPU one)
        draws = minitorch.empty(n_sample, dtype=minitorch.float64, device=p.device).uniform_(generator=generator)
        draws = draws.tolist()
        picked.append([bisect.bisect_left(cdf, u) for u in draws])
    return minitorch.tensor(picked, dtype=minitorch.int64, device=p.device).reshape(tuple(p.shape[:-1]) + (n_sample,))


def multinomial(*args, **kwargs):
    """num_samples category indices per row of input (rows of non-negative weights, not necessarily
    summing to 1), with or without replacement."""
    _, v, _ = _C._parse_args(_SIGNATURES["multinomial"], args, kwargs)
    return with_out("multinomial", v["out"], lambda: _multinomial(v))


def _multinomial(v):
    p, n_sample, replacement, generator = v["input"], v["num_samples"], v["replacement"], v["generator"]
    if not 0 < p.dim() <= 2:
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    if not p.is_floating_point():
        raise RuntimeError("multinomial only supports floating-point dtypes for input, got: " + p.dtype._scalar_name)
    if n_sample <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    n_categories = p.shape[-1]
    if not replacement and n_sample > n_categories:
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without replacement")
    if n_categories > 2 ** 24:
        raise RuntimeError("number of categories cannot exceed 2^24")
    if p.dim() == 2 and p.shape[0] == 0:
        return minitorch.empty(0, n_sample, dtype=minitorch.int64, device=p.device)
    with minitorch.no_grad():
        if replacement and n_sample > 1:
            return _multinomial_with_replacement(p, n_sample, generator)
        # the exponential race: argmax (topk) of p / q with q ~ Exp(1), one q per category
        # a meta p has no values to check (torch's meta kernel checks none)
        if not p.is_meta and not (bool(p.max() < math.inf) and bool(p.min() >= 0)):
            raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
        if not p.is_meta and bool((p.sum() == 0) if p.dim() == 1 else (p.sum(1) == 0).any()):
            raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
        q = exponential_(minitorch.empty_like(p), generator=generator)
        q = p / q
        if n_sample == 1:
            return q.argmax(-1, keepdim=True)
        return q.topk(n_sample).indices


def multinomial_method(self, *args, **kwargs):
    """Tensor.multinomial(num_samples, replacement=False, *, generator=None): minitorch.multinomial(self, ...)."""
    _, v, _ = _C._parse_args(_SIGNATURES["Tensor.multinomial"], args, kwargs)
    return multinomial(self, v["num_samples"], v["replacement"], generator=v["generator"])
