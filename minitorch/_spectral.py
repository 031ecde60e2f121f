"""The short-time Fourier transform of torch.functional: stft and istft, with the Tensor methods.

stft follows torch's two layers: the Python function (the centre padding through F.pad), then the native op's
parse, checks and messages (SpectralOps.cpp), its warnings (once per process), frames cut with unfold (with
as_strided over torch's padding for align_to_window), the window (padded to n_fft at the centre) applied with mul,
and the real-input DFT of each frame. The DFT is a product with
a cos/sin basis built in float64 (the angle of each n*k taken modulo n_fft first, so no precision is lost on large
products), so values agree with torch's FFT to rounding and autograd runs through the ops. minitorch has no
complex dtype: the result is torch's view_as_real layout (*, n_freq, n_frames, 2), given for return_complex=False;
return_complex=True raises NotImplementedError, and istft, whose input must be complex, raises torch's error for
a real one."""

import math

import minitorch
from minitorch import _C
from minitorch._triangular import _warn_once

__all__ = ["stft", "istft"]

_STFT_SIGNATURES = [
    "stft(Tensor input, int64_t n_fft, int64_t? hop_length=None, int64_t? win_length=None, Tensor? window=None, "
    "bool center=True, c10::string_view pad_mode=\"reflect\", bool normalized=False, bool? onesided=None, "
    "bool? return_complex=None, bool? align_to_window=None)",
    "stft(Tensor input, int64_t n_fft, int64_t? hop_length=None, int64_t? win_length=None, Tensor? window=None, "
    "bool normalized=False, bool? onesided=None, bool? return_complex=None, bool? align_to_window=None)",
]
_ISTFT_SIGNATURES = [
    "istft(Tensor input, int64_t n_fft, int64_t? hop_length=None, int64_t? win_length=None, Tensor? window=None, "
    "bool center=True, bool normalized=False, bool? onesided=None, int64_t? length=None, bool return_complex=False)",
]

_NO_WINDOW = ("A window was not provided. A rectangular window will be applied,which is known to cause spectral "
              "leakage. Other windows such as torch.hann_window or torch.hamming_window are recommended to reduce "
              "spectral leakage.To suppress this warning and use a rectangular window, explicitly set "
              "`window=torch.ones(n_fft, device=<device>)`.")
_ISTFT_NO_WINDOW = ("A window was not provided. A rectangular window will be applied.Please provide the same window "
                    "used by stft to make the inversion lossless.To suppress this warning and use a rectangular "
                    "window, explicitly set `window=torch.ones(n_fft, device=<device>)`.")
_REAL_DEPRECATED = ("stft with return_complex=False is deprecated. In a future pytorch release, stft will return "
                    "complex tensors for all inputs, and return_complex=False will raise an error.\nNote: you can "
                    "still call torch.view_as_real on the complex output to recover the old return format.")
_COMPLEX_REFUSED = ("{}(): return_complex=True gives a complex result, which minitorch does not support (it has no "
                    "complex dtype); pass return_complex=False for torch's view_as_real layout")


def _opt(value):
    # c10's printout of an optional bool: None, or the bool as 0/1
    return "None" if value is None else str(int(value))


def _type_name(t):
    # c10's toString of a tensor's type: the legacy name (torch.FloatTensor), which bool lacks (CPUBoolType)
    if t.dtype == minitorch.bool:
        return ("CUDA" if t.is_cuda else "CPU") + "BoolType"
    return t.type()


def stft(input, n_fft, hop_length=None, win_length=None, window=None, center=True, pad_mode="reflect",
         normalized=False, onesided=None, return_complex=None, align_to_window=None):
    """The short-time Fourier transform of a 1-D signal or a batch of them (2-D): for each frame of n_fft
    samples, hop_length apart, the DFT of the frame times the window, (*, n_fft // 2 + 1 (onesided) or n_fft,
    n_frames, 2) as real and imaginary parts (return_complex=False). center pads n_fft // 2 on each side with
    pad_mode first; normalized scales by n_fft ** -0.5."""
    # torch.functional.stft's own steps, before the native op
    if center and align_to_window is not None:
        raise RuntimeError("stft align_to_window should only be set when center = false")
    if center:
        signal_dim = input.dim()
        extended_shape = [1] * (3 - signal_dim) + list(input.size())
        pad = int(n_fft // 2)
        input = minitorch.nn.functional.pad(input.view(extended_shape), [pad, pad], pad_mode)
        input = input.view(input.shape[-signal_dim:])
    v = _C._parse_args(_STFT_SIGNATURES, (input, n_fft, hop_length, win_length, window, normalized, onesided,
                                          return_complex, align_to_window), {})[1]
    return _stft(v["input"], v["n_fft"], v["hop_length"], v["win_length"], v["window"], v["normalized"],
                 v["onesided"], v["return_complex"], v["align_to_window"])


def _stft(self, n_fft, hop_length, win_length, window, normalized, onesided, return_complex, align_to_window):
    """The native op (aten's stft without center): checks in torch's order, then the frames' DFT."""
    if window is not None and window.device != self.device:
        raise RuntimeError("stft input and window must be on the same device but got self on {} and window on {}"
                           .format(self.device, window.device))
    if window is None:
        _warn_once(_NO_WINDOW)
    hop_length = n_fft >> 2 if hop_length is None else hop_length
    win_length = n_fft if win_length is None else win_length
    if not return_complex:
        if return_complex is None:
            raise RuntimeError("stft requires the return_complex parameter be given for real inputs, and will "
                               "further require that return_complex=True in a future PyTorch release.")
        _warn_once(_REAL_DEPRECATED)

    def fail(what):
        window_text = "None" if window is None else "{}{{{}}}".format(_type_name(window), list(window.shape))
        raise RuntimeError("stft({}{}, n_fft={}, hop_length={}, win_length={}, window={}, normalized={}, onesided={}, "
                           "return_complex={}, align_to_window={}) : {}".format(
                               _type_name(self), list(self.shape), n_fft, hop_length, win_length, window_text,
                               int(normalized), _opt(onesided), _opt(return_complex), _opt(align_to_window), what))

    if not self.dtype.is_floating_point:
        fail("expected a tensor of floating point or complex values")
    if self.dim() not in (1, 2):
        fail("expected a 1D or 2D tensor")
    x = self.unsqueeze(0) if self.dim() == 1 else self
    length = x.shape[1]
    if n_fft <= 0 or n_fft > length:
        fail("expected 0 < n_fft < {}, but got n_fft={}".format(length, win_length))
    if hop_length <= 0:
        fail("expected hop_length > 0, but got hop_length={}".format(hop_length))
    if win_length <= 0 or win_length > n_fft:
        fail("expected 0 < win_length <= n_fft, but got win_length={}".format(win_length))
    if window is not None and (window.dim() != 1 or window.shape[0] != win_length):
        fail("expected a 1D window tensor of size equal to win_length={}, but got window with size {}".format(
            win_length, list(window.shape)))
    full_window = window
    left = (n_fft - win_length) // 2
    if win_length < n_fft:
        # the window centred in n_fft zeros (a rectangle of ones when none is given)
        full_window = minitorch.zeros(n_fft, dtype=(window if window is not None else self).dtype,
                                      device=self.device)
        if window is not None:
            full_window.narrow(0, left, win_length).copy_(window)
        else:
            full_window.narrow(0, left, win_length).fill_(1)
    if align_to_window:
        # frames of n_fft start `left` samples earlier, so that the window's support starts at each hop: torch
        # pads `left` zeros on each side and counts the frames by win_length, so the last frame may reach past
        # the padded signal, which as_strided refuses with torch's setStorage message
        padded = minitorch.nn.functional.pad(x, [left, left]).contiguous()
        n_frames = 1 + (length - win_length) // hop_length
        frames = padded.as_strided((padded.shape[0], n_frames, n_fft),
                                   (padded.stride(0), hop_length * padded.stride(1), padded.stride(1)))
    else:
        frames = x.unfold(-1, n_fft, hop_length)
    if full_window is not None:
        frames = frames.mul(full_window)
    if frames.dtype == minitorch.float16:
        _warn_once("ComplexHalf support is experimental and many operators don't support it yet.")
    if frames.dtype in (minitorch.float16, minitorch.bfloat16):
        # torch's CPU FFT (MKL) has no 16-bit kernel
        raise RuntimeError("MKL FFT doesn't support tensors of type: {}".format(
            "Half" if frames.dtype == minitorch.float16 else "BFloat16"))
    if return_complex:
        raise NotImplementedError(_COMPLEX_REFUSED.format("stft"))
    onesided = True if onesided is None else onesided
    out = _real_dft(frames, n_fft, n_fft // 2 + 1 if onesided else n_fft, normalized)
    out = out.transpose(1, 2)
    return out.squeeze(0) if self.dim() == 1 else out


def _real_dft(frames, n, n_freq, normalized):
    """(batch, n_frames, n_freq, 2): the first n_freq DFT bins of each frame of n real samples, as real and
    imaginary parts, accumulated in float64 and rounded to the frames' dtype."""
    device = frames.device
    with minitorch.no_grad():
        # the angle of sample j at bin k is 2 pi (j k mod n) / n: exact in int64, one rounding to float64
        j = minitorch.arange(n, device=device).unsqueeze(1)
        k = minitorch.arange(n_freq, device=device).unsqueeze(0)
        angle = (j * k).remainder(n).to(minitorch.float64).mul(2 * math.pi / n)
        scale = 1.0 / math.sqrt(n) if normalized else 1.0
        basis = minitorch.cat([angle.cos(), angle.sin().neg()], 1).mul(scale)   # (n, 2 n_freq)
    both = frames.to(minitorch.float64).matmul(basis)
    out = minitorch.stack([both.narrow(-1, 0, n_freq), both.narrow(-1, n_freq, n_freq)], -1)
    return out.to(frames.dtype)


def istft(input, n_fft, hop_length=None, win_length=None, window=None, center=True, normalized=False,
          onesided=None, length=None, return_complex=False):
    """The inverse of stft. Its input must be complex (stft's return_complex=True output), which minitorch
    cannot hold: a real input gets torch's error."""
    v = _C._parse_args(_ISTFT_SIGNATURES, (input, n_fft, hop_length, win_length, window, center, normalized,
                                           onesided, length, return_complex), {})[1]
    self, window = v["input"], v["window"]
    if window is not None and window.device != self.device:
        raise RuntimeError("istft input and window must be on the same device but got self on {} and window on {}"
                           .format(self.device, window.device))
    if window is None:
        _warn_once(_ISTFT_NO_WINDOW)
    raise RuntimeError("istft requires a complex-valued input tensor matching the output from stft with "
                       "return_complex=True.")


def _stft_method(self, n_fft, hop_length=None, win_length=None, window=None, center=True, pad_mode="reflect",
                 normalized=False, onesided=None, return_complex=None, align_to_window=None):
    return stft(self, n_fft, hop_length, win_length, window, center, pad_mode, normalized, onesided,
                return_complex=return_complex, align_to_window=align_to_window)


def _istft_method(self, n_fft, hop_length=None, win_length=None, window=None, center=True, normalized=False,
                  onesided=None, length=None, return_complex=False):
    return istft(self, n_fft, hop_length, win_length, window, center, normalized, onesided, length,
                 return_complex=return_complex)


def install(tensor_type):
    """Puts Tensor.stft and Tensor.istft on the Tensor type."""
    for name, method, function in [("stft", _stft_method, stft), ("istft", _istft_method, istft)]:
        method.__name__ = name
        method.__doc__ = function.__doc__
        setattr(tensor_type, name, method)
