"""torch.amp.GradScaler: loss scaling for float16 training, with torch's state machine per optimizer
(ready, unscaled, stepped), its errors, and its two kernels' arithmetic (_amp_foreach_non_finite_check_and_unscale_
and _amp_update_scale_: a float32 scale tensor and an int32 growth tracker)."""

import math
import warnings
from collections import defaultdict
from enum import Enum

import minitorch

__all__ = ["GradScaler", "OptState"]


class OptState(Enum):
    READY = 0
    UNSCALED = 1
    STEPPED = 2


def _fresh_optimizer_state():
    return {"stage": OptState.READY, "found_inf_per_device": {}}


def _amp_foreach_non_finite_check_and_unscale_(grads, found_inf, inv_scale):
    """Multiplies each of ``grads`` by ``inv_scale`` in place (not when it is 1) and sets ``found_inf`` to
    1.0 when a gradient held an inf or a NaN before the multiplication (torch's kernel of that name)."""
    inv = float(inv_scale.item())
    for grad in grads:
        if not bool(minitorch.isfinite(grad).all()):
            found_inf.fill_(1.0)
        if inv != 1.0:
            grad.mul_(inv_scale.to(grad.device))


def _amp_update_scale_(scale, growth_tracker, found_inf, growth_factor, backoff_factor, growth_interval):
    """torch's update: backoff on an inf (the tracker back to 0); else one more good step, and after
    ``growth_interval`` of them the scale grows (when the grown scale is finite) and the tracker restarts.
    The products are taken in double and stored in the float32 scale. Returns ``scale``."""
    current = float(scale.item())
    if float(found_inf.item()):
        scale.fill_(current * backoff_factor)
        growth_tracker.fill_(0)
        return scale
    successful = int(growth_tracker.item()) + 1
    if successful == growth_interval:
        grown = minitorch.tensor(current * growth_factor, dtype=minitorch.float32)
        if math.isfinite(float(grown.item())):
            scale.fill_(grown.item())
        growth_tracker.fill_(0)
    else:
        growth_tracker.fill_(successful)
    return scale


class GradScaler:
    """Scales the loss (``scale``), unscales the gradients before the optimizer step (``unscale_``),
    skips the step when they hold an inf or a NaN (``step``) and adapts the scale (``update``)."""

    def __init__(self, device="cuda", init_scale=2.0**16, growth_factor=2.0, backoff_factor=0.5,
                 growth_interval=2000, enabled=True):
        self._device = device
        self._enabled = enabled
        if self._device == "cuda" and enabled and not minitorch.cuda.is_available():
            warnings.warn("torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  Disabling.",
                          stacklevel=2)
            self._enabled = False
        if self._enabled:
            if growth_factor <= 1.0:
                raise AssertionError("The growth factor must be > 1.0.")
            if backoff_factor >= 1.0:
                raise AssertionError("The backoff factor must be < 1.0.")
            self._init_scale = init_scale
            self._scale = None
            self._growth_factor = growth_factor
            self._backoff_factor = backoff_factor
            self._growth_interval = growth_interval
            self._init_growth_tracker = 0
            self._growth_tracker = None
            self._per_optimizer_states = defaultdict(_fresh_optimizer_state)

    def _check_scale_growth_tracker(self, funcname):
        fix = "This may indicate your script did not use scaler.scale(loss or outputs) earlier in the iteration."
        if self._scale is None:
            raise AssertionError(f"Attempted {funcname} but _scale is None.  " + fix)
        if self._growth_tracker is None:
            raise AssertionError(f"Attempted {funcname} but _growth_tracker is None.  " + fix)
        return self._scale, self._growth_tracker

    def _lazy_init_scale_growth_tracker(self, dev):
        self._scale = minitorch.full((), self._init_scale, dtype=minitorch.float32, device=dev)
        self._growth_tracker = minitorch.full((), self._init_growth_tracker, dtype=minitorch.int32, device=dev)

    def scale(self, outputs):
        """``outputs`` (a tensor, or an iterable of them, nested) multiplied by the scale."""
        if not self._enabled:
            return outputs
        if isinstance(outputs, minitorch.Tensor):
            if self._scale is None:
                self._lazy_init_scale_growth_tracker(outputs.device)
            return outputs * self._scale.to(device=outputs.device, non_blocking=True)

        def apply_scale(val):
            if isinstance(val, minitorch.Tensor):
                if self._scale is None:
                    self._lazy_init_scale_growth_tracker(val.device)
                return val * self._scale.to(val.device)
            if isinstance(val, (list, tuple)):
                return type(val)(map(apply_scale, val))
            if hasattr(val, "__iter__"):
                return map(apply_scale, val)
            raise ValueError("outputs must be a Tensor or an iterable of Tensors")

        return apply_scale(outputs)

    def _unscale_grads_(self, optimizer, inv_scale, found_inf, allow_fp16):
        per_device = defaultdict(lambda: defaultdict(list))
        with minitorch.no_grad():
            for group in optimizer.param_groups:
                for param in group["params"]:
                    if param.grad is None:
                        continue
                    if not allow_fp16 and param.grad.dtype == minitorch.float16:
                        raise ValueError("Attempting to unscale FP16 gradients.")
                    per_device[param.grad.device][param.grad.dtype].append(param.grad)
            found = {}
            for device, per_dtype in per_device.items():
                found[device] = found_inf.to(device) if device != found_inf.device else found_inf
                inv = inv_scale.to(device)
                for grads in per_dtype.values():
                    _amp_foreach_non_finite_check_and_unscale_(grads, found[device], inv)
        return found

    def unscale_(self, optimizer):
        """Divides the optimizer's gradients by the scale, in place (once per iteration)."""
        if not self._enabled:
            return
        self._check_scale_growth_tracker("unscale_")
        state = self._per_optimizer_states[id(optimizer)]
        if state["stage"] is OptState.UNSCALED:
            raise RuntimeError("unscale_() has already been called on this optimizer since the last update().")
        if state["stage"] is OptState.STEPPED:
            raise RuntimeError("unscale_() is being called after step().")
        inv_scale = self._scale.double().reciprocal().float()
        found_inf = minitorch.full((), 0.0, dtype=minitorch.float32, device=self._scale.device)
        state["found_inf_per_device"] = self._unscale_grads_(optimizer, inv_scale, found_inf, False)
        state["stage"] = OptState.UNSCALED

    def step(self, optimizer, *args, **kwargs):
        """``optimizer.step(*args, **kwargs)`` unless the unscaled gradients hold an inf or a NaN."""
        if not self._enabled:
            return optimizer.step(*args, **kwargs)
        if "closure" in kwargs:
            raise RuntimeError("Closure use is not currently supported if GradScaler is enabled.")
        self._check_scale_growth_tracker("step")
        state = self._per_optimizer_states[id(optimizer)]
        if state["stage"] is OptState.STEPPED:
            raise RuntimeError("step() has already been called since the last update().")
        if state["stage"] is OptState.READY:
            self.unscale_(optimizer)
        if len(state["found_inf_per_device"]) == 0:
            raise AssertionError("No inf checks were recorded for this optimizer.")
        retval = None
        if not sum(v.item() for v in state["found_inf_per_device"].values()):
            retval = optimizer.step(*args, **kwargs)
        state["stage"] = OptState.STEPPED
        return retval

    def update(self, new_scale=None):
        """Backs the scale off after a skipped step, or grows it after ``growth_interval`` good ones;
        ``new_scale`` (a float or a one-element tensor) sets it instead."""
        if not self._enabled:
            return
        scale, growth_tracker = self._check_scale_growth_tracker("update")
        if new_scale is not None:
            if isinstance(new_scale, float):
                scale.fill_(new_scale)
            else:
                reason = ("new_scale should be a float or a 1-element torch.cuda.FloatTensor or "
                          "torch.FloatTensor with requires_grad=False.")
                if new_scale.device.type != self._device:
                    raise AssertionError(reason)
                if new_scale.numel() != 1:
                    raise AssertionError(reason)
                if new_scale.requires_grad is True:
                    raise AssertionError(reason)
                scale.copy_(new_scale)
        else:
            found_infs = [found_inf.to(device=scale.device) for state in self._per_optimizer_states.values()
                          for found_inf in state["found_inf_per_device"].values()]
            if len(found_infs) == 0:
                raise AssertionError("No inf checks were recorded prior to update.")
            combined = found_infs[0]
            for other in found_infs[1:]:
                combined += other
            _amp_update_scale_(scale, growth_tracker, combined, self._growth_factor, self._backoff_factor,
                               self._growth_interval)
        self._per_optimizer_states = defaultdict(_fresh_optimizer_state)

    def _get_scale_async(self):
        return self._scale

    def get_scale(self):
        """The scale as a Python float (1.0 when disabled)."""
        if self._enabled:
            return self._init_scale if self._scale is None else self._scale.item()
        return 1.0

    def get_growth_factor(self):
        return self._growth_factor

    def set_growth_factor(self, new_factor):
        self._growth_factor = new_factor

    def get_backoff_factor(self):
        return self._backoff_factor

    def set_backoff_factor(self, new_factor):
        self._backoff_factor = new_factor

    def get_growth_interval(self):
        return self._growth_interval

    def set_growth_interval(self, new_interval):
        self._growth_interval = new_interval

    def _get_growth_tracker(self):
        if self._enabled:
            return self._init_growth_tracker if self._growth_tracker is None else self._growth_tracker.item()
        return 0

    def is_enabled(self):
        return self._enabled

    def state_dict(self):
        """scale, growth_factor, backoff_factor, growth_interval and _growth_tracker ({} when disabled)."""
        if self._enabled:
            return {"scale": self.get_scale(), "growth_factor": self._growth_factor,
                    "backoff_factor": self._backoff_factor, "growth_interval": self._growth_interval,
                    "_growth_tracker": self._get_growth_tracker()}
        return {}

    def load_state_dict(self, state_dict):
        if not self._enabled:
            return
        if len(state_dict) == 0:
            raise RuntimeError("The source state dict is empty, possibly because it was saved "
                               "from a disabled instance of GradScaler.")
        self._init_scale = state_dict["scale"]
        if self._scale is not None:
            self._scale.fill_(state_dict["scale"])
        self._growth_factor = state_dict["growth_factor"]
        self._backoff_factor = state_dict["backoff_factor"]
        self._growth_interval = state_dict["growth_interval"]
        self._init_growth_tracker = state_dict["_growth_tracker"]
        if self._growth_tracker is not None:
            self._growth_tracker.fill_(state_dict["_growth_tracker"])

    def __getstate__(self):
        state = self.__dict__.copy()
        if self._enabled:
            if len(self._per_optimizer_states) != 0:
                raise AssertionError("A GradScaler instance may only be pickled at the beginning "
                                     "of an iteration, or at the end after scaler.update().")
            state["_init_scale"] = self.get_scale()
            state["_init_growth_tracker"] = self._get_growth_tracker()
            state["_scale"] = None
            state["_growth_tracker"] = None
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
