"""minitorch: a small, exact slice of PyTorch in C and CUDA.

Use it as ``import minitorch as torch``: tensors on the CPU or a CUDA device, moving them with
``.cuda()``/``.cpu()``/``.to()``, matmul on the host or the GPU, and ``minitorch.cuda``'s memory API,
printing what PyTorch prints. This package is thin: the tensor, its ops and the devices live in the C
extension ``minitorch._C``; here are re-exports, argument conveniences and ``nn``.
"""

try:
    from minitorch import _C
except ImportError:
    import os as _os
    from importlib.machinery import EXTENSION_SUFFIXES as _suffixes

    _here = __path__[0]
    if any(_os.path.exists(_os.path.join(_here, "_C" + suffix)) for suffix in _suffixes):
        raise  # the extension is there but does not load: its own error says why
    # Most often Python found the source checkout (the current directory comes first on sys.path)
    # instead of the installed package.
    raise ImportError(
        "minitorch's compiled extension (minitorch._C) is not in {}: this folder holds the Python "
        "sources only. In a checkout, build the extension into it with `pip install -e .` (the "
        "README's command), or run Python from another folder to use an installed minitorch."
        .format(_here), name="minitorch._C", path=_here) from None
from minitorch._C import (  # noqa: F401
    AcceleratorError,
    OutOfMemoryError,
    Size,
    Tensor,
    device,
    dtype,
    finfo,
    iinfo,
    # dtypes and their aliases
    bfloat16,
    bool,
    double,
    float,
    float16,
    float32,
    float64,
    half,
    int,
    int8,
    int16,
    int32,
    int64,
    long,
    short,
    uint8,
    # layouts
    layout,
    strided,
    # memory formats
    memory_format,
    channels_last,
    channels_last_3d,
    contiguous_format,
    preserve_format,
)
from minitorch import _tensor  # noqa: E402
from minitorch._tensor_str import set_printoptions, get_printoptions  # noqa: F401

# As torch's Tensor: NumPy scalars and arrays defer their binary operators to tensors
# (np.float64(2) + t is a tensor computed with torch's promotion, not an ndarray).
Tensor.__array_priority__ = 1000
_tensor.install(Tensor)


import builtins as _builtins  # noqa: E402  (int, float, bool and complex are dtypes here)

# `**`, `//` and `%` as torch/_tensor.py defines them: the ops with a TypeError (an operand that is not a
# tensor or a number) turned into NotImplemented, so that Python tries the other operand and then raises
# its own "unsupported operand type(s)". They live here until ops.def's number slots (bind.c) serve them.
def _operator(fn):
    def method(self, other, *mod):
        if mod:
            return NotImplemented
        try:
            return fn(self, other)
        except TypeError:
            return NotImplemented

    method.__name__ = fn.__name__
    return method


Tensor.__pow__ = _operator(_C.Tensor.pow)
Tensor.__ipow__ = _operator(_C.Tensor.pow_)
Tensor.__rpow__ = _operator(lambda self, other: _C.pow(other, self))
Tensor.__floordiv__ = _operator(_C.Tensor.floor_divide)
Tensor.__ifloordiv__ = _operator(_C.Tensor.floor_divide_)
Tensor.__rfloordiv__ = _operator(lambda self, other: _C.floor_divide(other, self))
Tensor.__mod__ = _operator(_C.Tensor.remainder)
Tensor.__imod__ = _operator(_C.Tensor.remainder_)
Tensor.__rmod__ = _operator(lambda self, other: _C.remainder(other, self))

# `& | ^ << >>` and their in-place and reflected forms as torch defines them: __rand__, __ror__ and
# __rxor__ are the method with the operands as given (the ops commute), __rlshift__ and __rrshift__ the
# function with the number first.
Tensor.__and__ = _operator(_C.Tensor.bitwise_and)
Tensor.__iand__ = _operator(_C.Tensor.bitwise_and_)
Tensor.__rand__ = _operator(_C.Tensor.bitwise_and)
Tensor.__or__ = _operator(_C.Tensor.bitwise_or)
Tensor.__ior__ = _operator(_C.Tensor.bitwise_or_)
Tensor.__ror__ = _operator(_C.Tensor.bitwise_or)
Tensor.__xor__ = _operator(_C.Tensor.bitwise_xor)
Tensor.__ixor__ = _operator(_C.Tensor.bitwise_xor_)
Tensor.__rxor__ = _operator(_C.Tensor.bitwise_xor)


def _shift_operator(name, fn):
    # torch's << and >> are ops of their own (__lshift__, __rshift__) whose meta functions check the
    # dtypes before the element-wise rule they share with bitwise_left_shift/bitwise_right_shift (which
    # check nothing on meta); on the CPU and cuda their kernels are the shifts'.
    def integral(dtype):
        return not (dtype.is_floating_point or dtype.is_complex or dtype is bool)

    def method(self, other):
        if self.is_meta and isinstance(other, (Tensor, _builtins.int, _builtins.float, _builtins.complex)):
            if not integral(self.dtype):
                raise RuntimeError("%s: Expected input tensor to have an integral dtype. Got %s" % (name, self.dtype))
            if isinstance(other, Tensor) and not integral(other.dtype):
                raise RuntimeError("%s: Expected shift value to have an integral dtype. Got %s" % (name, other.dtype))
            if not isinstance(other, (Tensor, _builtins.int)):
                raise RuntimeError("%s: Expected shift value to be an int. Got %s" % (name, other))
        return fn(self, other)

    method.__name__ = fn.__name__
    return _operator(method)


Tensor.__lshift__ = _shift_operator("lshift", _C.Tensor.bitwise_left_shift)
Tensor.__ilshift__ = _shift_operator("lshift", _C.Tensor.bitwise_left_shift_)
Tensor.__rlshift__ = _operator(lambda self, other: _C.bitwise_left_shift(other, self))
Tensor.__rshift__ = _shift_operator("rshift", _C.Tensor.bitwise_right_shift)
Tensor.__irshift__ = _shift_operator("rshift", _C.Tensor.bitwise_right_shift_)
Tensor.__rrshift__ = _operator(lambda self, other: _C.bitwise_right_shift(other, self))


def __invert__(self):
    # torch's operator.invert checks the dtype itself, with a TypeError, before bitwise_not
    if self.dtype.is_floating_point:
        raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type tensors")
    return _C.Tensor.bitwise_not(self)


Tensor.__invert__ = __invert__
del __invert__

__version__ = "0.1.0"

_builtin_bool = __builtins__["bool"] if isinstance(__builtins__, dict) else __builtins__.bool
_builtin_int = __builtins__["int"] if isinstance(__builtins__, dict) else __builtins__.int


def _export_functions():
    """Re-exports the C functions that are public (no leading underscore)."""
    g = globals()
    for name in dir(_C):
        # linalg_vector_norm is torch.linalg.vector_norm (minitorch.linalg), not a top-level name
        # (and the special_<name> ops are torch.special.<name>: minitorch.special)
        if (not name.startswith("_") and callable(getattr(_C, name)) and name not in g
                and name != "linalg_vector_norm" and not name.startswith("special_")):
            g[name] = getattr(_C, name)


_export_functions()
from minitorch._C import _log_softmax, _softmax  # noqa: E402,F401  (torch has these private names public)
from minitorch import linalg  # noqa: E402,F401
from minitorch import special  # noqa: E402,F401
from minitorch.functional import norm  # noqa: E402,F401
return_types = _C.return_types


# torch's message for Generator('cuda') where its CUDA library is absent (a CPU build), given here when no
# (simulated) CUDA device is present (a CUDA build without a driver gives its CUDA build's error instead)
_NO_CUDA_GENERATOR = (
    "Cannot get CUDA generator without ATen_cuda library. PyTorch splits its backend into two shared libraries: a "
    "CPU library and a CUDA library; this error has occurred because you are trying to use some CUDA "
    "functionality, but the CUDA library has not been loaded by the dynamic linker for some reason.  The CUDA "
    "library MUST be loaded, EVEN IF you don't directly use any symbols from the CUDA library! One common culprit "
    "is a lack of -Wl,--no-as-needed in your link arguments; many dynamic linkers will delete dynamic library "
    "dependencies if you don't depend on any of their symbols.  You can check if this has occurred by using ldd "
    "on your binary to see if there is a dependency on *_cuda.so library.")


class Generator:
    """A random number generator with its own state (torch.Generator): torch's mt19937 for the CPU, a Philox
    generator for CUDA devices (Generator('cuda'), whose draws for any CUDA device use it)."""

    device = device("cpu")

    def __init__(self, *args, **kwargs):
        # torch.Generator(device='cpu'), the device parsed as torch parses it (an int: the accelerator's index).
        # _handle is a capsule of either kind; the C functions below act on both.
        _, values, _ = _C._parse_args(["Generator(Device device=None)"], args, kwargs)
        dev = values["device"]
        if dev is None or dev.type == "cpu":
            self._handle = _C._generator_new()
            return
        if dev.type == "meta":
            raise RuntimeError("META device type not an accelerator.")
        if dev.type != "cuda":
            raise NotImplementedError("minitorch.Generator supports only the CPU and CUDA generators, not device '{}'"
                                      .format(dev))
        if not cuda.is_available():
            cuda._check_driver()  # a CUDA build without a driver: torch's CUDA build's error
            raise RuntimeError(_NO_CUDA_GENERATOR)
        # torch's CUDAGeneratorImpl: the current device without an index; any index is taken as given, and
        # only the device type is checked at a draw
        self.device = dev if dev.index is not None else device("cuda", cuda.current_device())
        self._handle = _C._cuda_generator_new()

    def manual_seed(self, seed):
        """Seeds this generator (as torch: an int in [-2**63, 2**64)) and returns it."""
        # only an int (torch.manual_seed, below, converts with int() first)
        if not isinstance(seed, _builtin_int) or isinstance(seed, _builtin_bool):
            raise RuntimeError("manual_seed expected a long, but got " + type(seed).__name__)
        _C._generator_manual_seed(self._handle, seed)
        return self

    def initial_seed(self):
        """The seed this generator was last seeded with."""
        return _C._generator_initial_seed(self._handle)

    def seed(self):
        """Seeds this generator with a non-deterministic number and returns it."""
        return _C._generator_seed(self._handle)

    def get_state(self):
        """The generator's state as a 1-D tensor of byte values (torch's layout)."""
        return tensor(list(_C._generator_get_state(self._handle)), dtype=uint8)

    def set_state(self, new_state):
        """Restores a state that get_state returned."""
        values = new_state.tolist() if isinstance(new_state, Tensor) and new_state.dtype == uint8 \
            and new_state.dim() == 1 else None
        if values is None:
            raise TypeError("RNG state must be a torch.ByteTensor")
        _C._generator_set_state(self._handle, bytes(values))
        return self

    def __repr__(self):
        return "<minitorch._C.Generator object at 0x%x>" % id(self)


default_generator = Generator.__new__(Generator)
default_generator._handle = _C._default_generator()


def manual_seed(seed):
    """Seeds every generator (CPU and CUDA) like torch.manual_seed, and returns the default one."""
    seed = _builtin_int(seed)  # as torch/random.py does: 1.5 and 1-element tensors are accepted
    cuda.manual_seed_all(seed)  # queued until CUDA is initialised, as torch's
    return default_generator.manual_seed(seed)


def initial_seed():
    """The seed of the default CPU generator."""
    return default_generator.initial_seed()


def get_rng_state():
    """The default CPU generator's state (torch.get_rng_state)."""
    return default_generator.get_state()


def set_rng_state(new_state):
    """Restores the default CPU generator's state (torch.set_rng_state)."""
    default_generator.set_state(new_state)


def seed():
    """Seeds the generators with a non-deterministic number and returns it."""
    seed = default_generator.seed()
    cuda.manual_seed_all(seed)
    return seed


def set_default_device(device):
    """Sets the device the factories (zeros, ones, tensor, rand, arange, ... and so nn layers' parameters) use
    when a call does not name one; None goes back to the CPU. `with minitorch.device(...):` does the same
    inside a block. The *_like factories and from_numpy keep their input's device."""
    _C._set_default_device(device)


def get_default_device():
    """The device the factories use when a call does not name one (with its index: a default of 'cuda'
    means the current CUDA device)."""
    d = _C._default_device()
    if d is None:
        return _C.device("cpu")
    return d if d.index is not None else _C.tensor([]).device


def set_default_dtype(d, /):
    """Sets the dtype Python floats become (and the default of the float factories): a floating dtype."""
    _C._set_default_dtype(d)


def is_tensor(obj):
    """True if obj is a minitorch Tensor."""
    return isinstance(obj, Tensor)


def numel(input):
    """The number of elements of a tensor."""
    if not isinstance(input, Tensor):
        raise TypeError("numel(): argument 'input' (position 1) must be Tensor, not {}".format(type(input).__name__))
    return input.numel()


def _rebuild_tensor(values, dtype, device, requires_grad):
    """Unpickles a Tensor (see Tensor.__reduce_ex__)."""
    t = tensor(values, dtype=dtype, device=device)
    if requires_grad:
        t.requires_grad_(True)
    return t


def typename(obj):
    """A tensor's type() ("torch.FloatTensor"); for anything else its module-qualified type name, as in
    torch's messages ("int", "minitorch.nn.modules.linear.Linear")."""
    if isinstance(obj, Tensor):
        return obj.type()
    module = getattr(obj, "__module__", "") or ""
    if hasattr(obj, "__qualname__"):
        qualname = obj.__qualname__
    elif hasattr(obj, "__name__"):
        qualname = obj.__name__
    else:
        module = obj.__class__.__module__ or ""
        qualname = obj.__class__.__qualname__
    return qualname if module in ("", "builtins") else f"{module}.{qualname}"


from minitorch.functional import (  # noqa: E402,F401
    broadcast_shapes, broadcast_tensors, meshgrid, split, unique, unique_consecutive, unravel_index)
from minitorch._distributions import bernoulli, multinomial, normal, randint_like  # noqa: E402,F401
from minitorch._composite import (  # noqa: E402,F401
    allclose, argwhere, as_tensor, asarray, count_nonzero, equal, float_power, frombuffer, ger, isclose, nonzero, outer,
    positive, repeat_interleave, where)
from minitorch import _composite  # noqa: E402
_composite.install(Tensor)
from minitorch._rearrange import (  # noqa: E402,F401
    atleast_1d, atleast_2d, atleast_3d, column_stack, diff, dstack, fliplr, flipud, ravel, rot90, row_stack,
    take_along_dim, tril_indices, triu_indices)
from minitorch import _rearrange  # noqa: E402
_rearrange.install(Tensor)
from minitorch._selecting import kthvalue, median, mode, nanmedian  # noqa: E402,F401
from minitorch import _selecting  # noqa: E402
_selecting.install(Tensor)
from minitorch._views import (  # noqa: E402,F401
    diag_embed, diagflat, diagonal_scatter, dsplit, hsplit, is_complex, is_floating_point, is_nonzero, msort,
    narrow_copy, select_scatter, slice_scatter, tensor_split, vsplit)
from minitorch import _views  # noqa: E402
_views.install(Tensor)
from minitorch._products import block_diag, cartesian_prod, combinations, cross, einsum, tensordot  # noqa: E402,F401
from minitorch._special_ops import frexp, ldexp, mvlgamma  # noqa: E402,F401
from minitorch import _special_ops  # noqa: E402
_special_ops.install(Tensor)
from minitorch import _products  # noqa: E402
_products.install(Tensor)
from minitorch._counting import bincount, bucketize, histc, histogram, isin, searchsorted  # noqa: E402,F401
from minitorch import _counting  # noqa: E402
_counting.install(Tensor)
from minitorch._integration import cumulative_trapezoid, trapezoid, trapz  # noqa: E402,F401
from minitorch._matrix_products import chain_matmul, inner, kron, matrix_power, vander, vdot  # noqa: E402,F401
from minitorch import _matrix_products  # noqa: E402
_matrix_products.install(Tensor)
from minitorch._statistics import corrcoef, cov, nanquantile, quantile  # noqa: E402,F401
from minitorch import _statistics  # noqa: E402
_statistics.install(Tensor)
from minitorch._norms import cdist, dist, pdist, renorm  # noqa: E402,F401
from minitorch import _norms  # noqa: E402
_norms.install(Tensor)
from minitorch._linalg import inverse, logdet, trace  # noqa: E402,F401
from minitorch._linalg import torch_det as det, torch_slogdet as slogdet, torch_svd as svd  # noqa: E402,F401
from minitorch import _linalg  # noqa: E402
_linalg.install(Tensor)
from minitorch._linalg_extras import matrix_exp  # noqa: E402,F401
from minitorch import _linalg_extras  # noqa: E402
_linalg_extras.install(Tensor)
from minitorch._triangular import cholesky_inverse, cholesky_solve, triangular_solve  # noqa: E402,F401
from minitorch._triangular import torch_cholesky as cholesky  # noqa: E402,F401
from minitorch import _triangular  # noqa: E402
_triangular.install(Tensor)
from minitorch._spectral import istft, stft  # noqa: E402,F401
from minitorch import _spectral  # noqa: E402
_spectral.install(Tensor)
from minitorch._lowrank import pca_lowrank, svd_lowrank  # noqa: E402,F401
from minitorch._lu import lu_unpack, torch_lu as lu, torch_lu_solve as lu_solve  # noqa: E402,F401
from minitorch import _lu  # noqa: E402
from minitorch._top_level import (  # noqa: E402,F401
    conj, detach, fill, frobenius_norm, get_device, imag, is_conj, is_inference, is_neg, is_same_size, is_signed,
    nuclear_norm, pinverse, qr, range, real, resolve_conj, resolve_neg, scalar_tensor, split_with_sizes, zero_)
from minitorch import _top_level  # noqa: E402
_top_level.install(Tensor)
_lu.install(Tensor)
from minitorch._householder import geqrf, orgqr, ormqr  # noqa: E402,F401
from minitorch import _householder  # noqa: E402
_householder.install(Tensor)
from minitorch.autograd import (  # noqa: E402,F401
    enable_grad,
    inference_mode,
    is_grad_enabled,
    is_inference_mode_enabled,
    no_grad,
    set_grad_enabled,
)
from minitorch import autograd, utils  # noqa: E402,F401
from minitorch.utils.dlpack import from_dlpack, to_dlpack  # noqa: E402,F401
from minitorch import cuda  # noqa: E402,F401
Tensor.record_stream = cuda._record_stream
from minitorch import accelerator  # noqa: E402,F401
from minitorch import random  # noqa: E402,F401  (torch.random: fork_rng and the seeding functions)
from minitorch import _legacy  # noqa: E402
_legacy.install(__import__("sys").modules[__name__], cuda, Tensor)
from minitorch import storage  # noqa: E402
storage.install(__import__("sys").modules[__name__], cuda, Tensor)
from minitorch import nn  # noqa: E402,F401
from minitorch.nn import functional as _functional  # noqa: E402
# torch's convolution and pooling ops at the top level: F's functions where they are the same ops
adaptive_avg_pool1d, avg_pool1d = _functional.adaptive_avg_pool1d, _functional.avg_pool1d
embedding_renorm_ = _functional._embedding_renorm_
bilinear = _functional.bilinear
ctc_loss = _functional.torch_ctc_loss
conv1d, conv2d, conv3d = _functional.conv1d, _functional.conv2d, _functional.conv3d
conv_transpose1d, conv_transpose2d, conv_transpose3d = (_functional.conv_transpose1d, _functional.conv_transpose2d,
                                                        _functional.conv_transpose3d)
# and their own signatures where F's differ (no return_indices)
adaptive_max_pool1d, max_pool1d = _functional.torch_adaptive_max_pool1d, _functional.torch_max_pool1d
max_pool2d, max_pool3d = _functional.torch_max_pool2d, _functional.torch_max_pool3d
# and torch's other C++ ops that F's functions wrap or share
batch_norm, layer_norm = _functional.torch_batch_norm, _functional.torch_layer_norm
group_norm, instance_norm = _functional.torch_group_norm, _functional.torch_instance_norm
cosine_similarity, pairwise_distance = _functional.cosine_similarity, _functional.pairwise_distance
selu, selu_, celu, celu_ = _functional.torch_selu, _functional.selu_, _functional.torch_celu, _functional.celu_
threshold, threshold_ = _functional.torch_threshold, _functional.threshold_
rrelu, rrelu_ = _functional.torch_rrelu, _functional.rrelu_
prelu, hardshrink = _functional.prelu, _functional.hardshrink
pixel_shuffle, pixel_unshuffle = _functional.pixel_shuffle, _functional.pixel_unshuffle
channel_shuffle = _functional.channel_shuffle
kl_div, binary_cross_entropy_with_logits = _functional.torch_kl_div, _functional.torch_binary_cross_entropy_with_logits
cosine_embedding_loss, hinge_embedding_loss = (_functional.torch_cosine_embedding_loss,
                                               _functional.torch_hinge_embedding_loss)
margin_ranking_loss, triplet_margin_loss = (_functional.torch_margin_ranking_loss,
                                            _functional.torch_triplet_margin_loss)
poisson_nll_loss, embedding = _functional.torch_poisson_nll_loss, _functional.torch_embedding
constant_pad_nd = _functional.torch_constant_pad_nd
max_pool1d_with_indices = _functional.torch_max_pool1d_with_indices
Tensor.prelu = _functional.prelu
Tensor.hardshrink = _functional.hardshrink
# torch's dropout ops (F's dropout functions call them)
for _op in ("dropout", "feature_dropout", "alpha_dropout", "feature_alpha_dropout"):
    globals()[_op] = _functional.torch_dropout_op(_op, False)
    globals()[_op + "_"] = _functional.torch_dropout_op(_op, True)
del _functional, _op
from minitorch import optim  # noqa: E402,F401
from minitorch import distributions  # noqa: E402,F401
from minitorch import version, backends, testing  # noqa: E402,F401
from math import e, inf, nan, pi  # noqa: E402,F401  (torch's constants)
newaxis = None
from minitorch._window_functions import (  # noqa: E402,F401
    bartlett_window, blackman_window, hamming_window, hann_window, kaiser_window)
from minitorch._global_flags import (  # noqa: E402,F401
    are_deterministic_algorithms_enabled, get_deterministic_debug_mode, get_float32_matmul_precision,
    is_deterministic_algorithms_warn_only_enabled, is_warn_always_enabled, set_deterministic_debug_mode,
    set_float32_matmul_precision, set_warn_always, use_deterministic_algorithms)
# automatic mixed precision: torch.amp, its functions at the top level, torch.cuda.amp and torch.cpu.amp
from minitorch import amp, cpu  # noqa: E402,F401
from minitorch.amp.autocast_mode import (  # noqa: E402,F401
    autocast, autocast_decrement_nesting, autocast_increment_nesting, clear_autocast_cache,
    get_autocast_cpu_dtype, get_autocast_dtype, get_autocast_gpu_dtype, is_autocast_cache_enabled,
    is_autocast_cpu_enabled, is_autocast_enabled, set_autocast_cache_enabled, set_autocast_cpu_dtype,
    set_autocast_cpu_enabled, set_autocast_dtype, set_autocast_enabled, set_autocast_gpu_dtype)
from minitorch.amp.grad_scaler import (  # noqa: E402,F401
    _amp_foreach_non_finite_check_and_unscale_, _amp_update_scale_)
from minitorch.amp import deprecated_modules as _amp_deprecated  # noqa: E402
_amp_deprecated.install(cuda, cpu)
del _amp_deprecated


# ---- names PyTorch has and minitorch does not have yet ----------------------------------------------
# Defined last: while the imports above run, a failed lookup must not load the list of torch's names.

def __getattr__(name):
    # Python calls this only after the name was not found (PEP 562). save, load and serialization are
    # imported at their first use (zipfile and pickle would double the time `import minitorch` takes);
    # any other name: says whether PyTorch has it.
    if name in ("save", "load", "serialization"):
        import importlib

        serialization = importlib.import_module("minitorch.serialization")  # sets minitorch.serialization
        globals().update(save=serialization.save, load=serialization.load)
        return globals()[name]
    from minitorch._missing import module_attribute_error

    raise module_attribute_error(__name__, name)


class _TorchSubmoduleFinder:
    """The last finder on sys.meta_path, asked only after every real finder failed: `import
    minitorch.optim` then says that PyTorch has torch.optim (minitorch/_missing.py). It finds nothing."""

    @staticmethod
    def find_spec(fullname, path=None, target=None):
        if fullname.startswith("minitorch.") and not fullname.startswith("minitorch._"):
            from minitorch._missing import raise_for_torch_submodule

            raise_for_torch_submodule(fullname)
        return None


def _add_finder(meta_path):
    """Appends the finder unless an earlier import of this package already did."""
    for finder in meta_path:
        if type(finder).__module__ == __name__ and type(finder).__qualname__ == "_TorchSubmoduleFinder":
            return
    meta_path.append(_TorchSubmoduleFinder())


import sys as _sys  # noqa: E402

_add_finder(_sys.meta_path)
del _add_finder, _TorchSubmoduleFinder, _sys
