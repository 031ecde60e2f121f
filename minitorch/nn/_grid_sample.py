"""Spatial transformers: torch's affine_grid_generator and grid_sampler (4-D and 5-D), as two nodes of torch's
names (AffineGridGeneratorBackward0, GridSampler2DBackward0, GridSampler3DBackward0) composed of minitorch's
tensor ops.

The 4-D sampler follows torch's vectorised CPU kernel (aten/native/cpu/GridSamplerKernel.cpp) operation by
operation: its unnormalisation ((g + 1) * s - 0.5), its reflection (a truncated division by twice the span), its
corner weights and the order it adds them, and the fused multiply-adds its compiler makes of a product feeding
a sum, so that float32 and float64 values are torch's bits. Where several outputs send gradient to one input
pixel, the sums are added in the kernel's order: blocks of one vector width of output positions (32 bytes: torch's
x86-64 builds run this kernel at AVX2 width), within a block corner after corner. Which products the compiler
fused was found by comparison with torch's results; its copy of the bicubic kernel for grids that are not dense
fuses other ones, which minitorch does not follow (values within a few ulps there). The 5-D sampler follows
torch's scalar kernel (aten/native/GridSampler.h and GridSampler.cpp): other formulas, one position at a time.
float16 and bfloat16 are computed in their own dtype, every step rounded (torch's Vectorized<Half> does the same,
with nothing fused): values and grid gradients are torch's bits, input gradients within an ulp of the dtype.

Argument checks (the names and messages of torch's grid_sampler and of F.affine_grid) are in nn/functional.py.
"""

import minitorch
from minitorch.nn._native import _NativeOp

ZEROS, BORDER, REFLECTION = 0, 1, 2
BILINEAR, NEAREST, BICUBIC = 0, 1, 2

# the cubic convolution constant of torch's kernels
_A = -0.75

_HALVES = (minitorch.float16, minitorch.bfloat16)


def _fma(a, b, c):
    """a * b + c rounded once: where torch's compiled vector kernel fuses a product into the sum that uses it
    (a tensor or a number for b and c)."""
    if a.dtype in _HALVES:          # Vectorized<Half> rounds every product and sum: nothing to fuse
        return a * b + c
    if not isinstance(c, minitorch.Tensor):
        c = minitorch.full_like(a, c)
    if not isinstance(b, minitorch.Tensor):
        b = minitorch.full_like(a, b)
    return c.addcmul(a, b)


# ---- affine grids ------------------------------------------------------------------------------------------


def _linspace_from_neg_one(like, steps, align_corners):
    """torch's linspace_from_neg_one: the pixel positions of one dim in [-1, 1] (their centres without
    align_corners)."""
    if steps <= 1:
        return minitorch.zeros(1, dtype=like.dtype, device=like.device)
    points = minitorch.linspace(-1, 1, steps, dtype=like.dtype, device=like.device)
    if not align_corners:
        points = points * (steps - 1) / steps
    return points


def _base_grid(theta, sizes, align_corners):
    """The (N, *spatial, dims + 1) grid of homogeneous coordinates (x, y[, z], 1), x along the last dim."""
    n, spatial = sizes[0], list(sizes[2:])
    full = [n] + spatial
    columns = []
    for k in range(len(spatial)):
        dim = len(spatial) - 1 - k             # x runs along the last spatial dim, y the one before, ...
        shape = [1] * (len(spatial) + 1)
        shape[dim + 1] = max(spatial[dim], 1)
        line = _linspace_from_neg_one(theta, spatial[dim], align_corners)
        columns.append(line.reshape(shape).expand(full))
    columns.append(minitorch.ones(full, dtype=theta.dtype, device=theta.device))
    return minitorch.stack(columns, -1)


class AffineGridGenerator(_NativeOp):
    """base_grid @ theta^T for every batch entry (torch's affine_grid_generator). Backward:
    (base_grid^T @ grad)^T."""

    node = "AffineGridGeneratorBackward0"

    @staticmethod
    def forward(ctx, theta, size, align_corners):
        base = _base_grid(theta, size, align_corners)
        n, points = size[0], 1
        for s in size[2:]:
            points *= s
        dims = len(size) - 2
        ctx.base, ctx.points = base.view(n, points, dims + 1), points
        grid = ctx.base.bmm(theta.transpose(1, 2))
        return grid.view(list(size[:1]) + list(size[2:]) + [dims])

    @staticmethod
    def backward(ctx, grad):
        n, dims = grad.shape[0], grad.shape[-1]
        grad_theta = ctx.base.transpose(1, 2).bmm(grad.reshape(n, ctx.points, dims))
        return grad_theta.transpose(1, 2), None, None


# ---- the 4-D sampler's coordinates (the vectorised kernel) -----------------------------------------------------


class _Padded:
    """A grid coordinate's way to an input position: unnormalize, then the padding rule (compute)."""

    def compute(self, x):
        """compute_coordinates: the padding rule applied to an unnormalised position."""
        if self.padding == BORDER:
            return self.clip(x)
        if self.padding == REFLECTION:
            return self.clip(self.reflect(x))
        return x

    def apply(self, g):
        return self.compute(self.unnormalize(g))


class _Axis(_Padded):
    """torch's ComputeLocation for one input dim of `size` (the vectorised kernel's arithmetic)."""

    def __init__(self, size, padding, align_corners):
        self.size, self.padding, self.align = size, padding, align_corners
        self.max_val = float(size - 1)
        self.scale = (size - 1) / 2 if align_corners else size / 2
        self.low = 0.0 if align_corners else -0.5
        self.twice_span = 2.0 * (size - 1) if align_corners else 2.0 * size
        self.empty = size <= 1 if align_corners else size <= 0

    def unnormalize(self, g):
        if self.align:
            return (g + 1) * self.scale
        return _fma(g + 1, self.scale, -0.5)

    def clip(self, x):
        # NaN becomes 0, as the kernel's max(0, x) with its operands swapped
        return minitorch.where(x > 0, x, 0.0).clamp(max=self.max_val)

    def _reflect_parts(self, x):
        shifted = x if self.align else x - self.low
        magnitude = shifted.abs()
        flips = (magnitude / self.twice_span).trunc()
        extra = _fma(-flips, self.twice_span, magnitude)
        return shifted, extra, self.twice_span - extra

    def reflect(self, x):
        if self.empty:
            return minitorch.zeros_like(x)
        _, extra, reflected = self._reflect_parts(x)
        out = minitorch.minimum(extra, reflected)
        return out if self.align else out + self.low

    def apply_get_grad(self, g):
        """The position and d position / d g (a number or a tensor)."""
        x = self.unnormalize(g)
        if self.padding == ZEROS:
            return x, self.scale
        grad = self.scale
        if self.padding == REFLECTION:
            if self.empty:
                zero = minitorch.zeros_like(x)
                return zero, zero
            shifted, extra, reflected = self._reflect_parts(x)
            more = extra > reflected
            x = minitorch.where(more, reflected, extra)
            if not self.align:
                x = x + self.low
            grad = minitorch.where(more ^ (shifted < 0), -1.0, 1.0).to(x.dtype) * self.scale
        bounded = minitorch.maximum(x, minitorch.zeros_like(x))
        x = minitorch.minimum(bounded, minitorch.full_like(x, self.max_val))
        inside = (bounded != 0) & (x != self.max_val)
        if isinstance(grad, float):
            grad = minitorch.full_like(x, grad)
        return x, minitorch.where(inside, grad, 0.0)


def _inside(position, size):
    return (position >= 0) & (position <= size - 1)


# ---- shared gathering and scattering -----------------------------------------------------------------------


class _Plane:
    """The input seen as (N, C, points) with its spatial sizes, to read values at integer positions (one per
    dim, float tensors of shape (N, P)) and to add gradients back."""

    def __init__(self, input):
        self.n, self.c = input.shape[0], input.shape[1]
        self.sizes = list(input.shape[2:])
        points = 1
        for s in self.sizes:
            points *= s
        self.points = points
        self.flat = input.reshape(self.n, self.c, points)

    def offset(self, positions, mask):
        """Flat positions (int64 (N, P)), 0 where the mask is off."""
        flat = None
        for pos, size in zip(positions, self.sizes):
            safe = minitorch.where(mask, pos, 0.0).to(minitorch.int64)
            flat = safe if flat is None else flat * size + safe
        return flat

    def read(self, positions, mask):
        """The values at the positions (N, C, P), 0 where the mask is off."""
        index = self.offset(positions, mask)
        values = self.flat.gather(2, index.unsqueeze(1).expand(self.n, self.c, index.shape[1]))
        return minitorch.where(mask.unsqueeze(1), values, 0.0)


def _lane_order(t, rows, row_len, lanes):
    """t (..., rows * row_len, K) flattened into torch's scatter order: blocks of `lanes` positions within each
    row (the last block padded with zeros), each block corner after corner."""
    k = t.shape[-1]
    lead = list(t.shape[:-2])
    t = t.reshape(lead + [rows, row_len, k])
    pad = (-row_len) % lanes
    if pad:
        t = minitorch.cat([t, minitorch.zeros(lead + [rows, pad, k], dtype=t.dtype, device=t.device)], -2)
    t = t.reshape(lead + [rows, (row_len + pad) // lanes, lanes, k]).transpose(-1, -2)
    return t.reshape(lead + [-1])


def _scatter(plane, values, offsets, rows, row_len, lanes):
    """Adds values (N, C, P, K) into a zero gradient of the input at offsets (N, P, K) in torch's order."""
    n, c = plane.n, plane.c
    ordered = _lane_order(values, rows, row_len, lanes)                          # (N, C, M)
    index = _lane_order(offsets, rows, row_len, lanes)                           # (N, M)
    base = minitorch.arange(n, device=index.device).unsqueeze(1) * plane.points
    grad = minitorch.zeros(c, n * plane.points, dtype=values.dtype, device=values.device)
    grad = grad.index_add(1, (index + base).reshape(-1), ordered.transpose(0, 1).reshape(c, -1))
    return grad.reshape([c, n] + plane.sizes).transpose(0, 1).contiguous()


def _dense(sizes, strides):
    """torch's geometry_is_contiguous: row-major strides, dims of size 1 aside."""
    expected = 1
    for size, stride in zip(reversed(sizes), reversed(strides)):
        if size != 1:
            if stride != expected:
                return False
            expected *= size
    return True


def _rows(grid):
    """How torch's kernel walks the output positions of a grid (N, H, W, 2): (rows, row length) of its vector
    blocks, one run over all positions when the grid (or each of its x and y planes) is dense, else row by row."""
    h, w = grid.shape[1], grid.shape[2]
    s = grid.stride()
    if _dense([h, w, 2], s[1:]) or ((s[2] == 1 or w == 1) and _dense([h, w], s[1:3])):
        return 1, h * w
    return h, w


# ---- the 4-D sampler -----------------------------------------------------------------------------------------


def _cubic(t):
    """The four cubic convolution weights of a fractional position t (the kernel's expressions, its products
    fused into the sums that use them)."""
    a = _A

    def outer(x):       # ((a x - 5a) x + 8a) x - 4a, not fused
        return ((x * a - 5 * a) * x + 8 * a) * x - 4 * a

    def inner(x):       # ((a + 2) x - (a + 3)) x x + 1
        return _fma(_fma(x, a + 2, -(a + 3)) * x, x, 1.0)

    return [outer(t + 1), inner(t), inner(1 - t), outer(2 - t)]


def _cubic_grad(t):
    """d weight / d t of the four cubic convolution weights (not fused)."""
    a = _A
    return [((-1 - t) * (-3 * a) - 10 * a) * (-1 - t) - 8 * a,
            ((0 - t) * (-3 * (a + 2)) - 2 * (a + 3)) * (0 - t),
            ((1 - t) * (3 * (a + 2)) - 2 * (a + 3)) * (1 - t),
            ((2 - t) * (3 * a) - 10 * a) * (2 - t) + 8 * a]


class _Sampler:
    def _backward_start(self, grad):
        """The output gradient as (N, C, P), the batch and position counts, and zeros (N, P) to sum into."""
        n, p = self.gx.shape
        g_out = grad.reshape(self.plane.n, self.plane.c, -1)
        return g_out, n, p, minitorch.zeros(n, p, dtype=grad.dtype, device=grad.device)


class _Sampler2D(_Sampler):
    """One 4-D sampling problem: the input plane, the grid's x and y (N, P) and the mode."""

    def __init__(self, input, grid, mode, padding, align_corners):
        self.plane = _Plane(input)
        n, h_out, w_out = grid.shape[0], grid.shape[1], grid.shape[2]
        self.out_sizes = [h_out, w_out]
        flat = grid.reshape(n, h_out * w_out, 2)
        self.gx, self.gy = flat.select(2, 0), flat.select(2, 1)
        self.mode, self.padding = mode, padding
        h, w = self.plane.sizes
        self.ax_w, self.ax_h = _Axis(w, padding, align_corners), _Axis(h, padding, align_corners)
        self.rows, self.row_len = _rows(grid)
        self.lanes = 32 // input.element_size()

    def _mask(self, x, y):
        if self.padding != ZEROS:
            return None
        h, w = self.plane.sizes
        return _inside(x, w) & _inside(y, h)

    def _corners(self, x, y):
        """The four corners' positions (nw, ne, sw, se), their masks and weights, and the distances."""
        h, w = self.plane.sizes
        x_w, y_n = x.floor(), y.floor()
        dw = x - x_w
        de = 1 - dw
        dn = y - y_n
        ds = 1 - dn
        x_e, y_s = x_w + 1, y_n + 1
        inside_w, inside_e, inside_n, inside_s = (_inside(x_w, w), _inside(x_e, w), _inside(y_n, h),
                                                  _inside(y_s, h))
        if self.padding != ZEROS:
            inside_w = inside_n = minitorch.ones_like(x, dtype=minitorch.bool)
            inside_e, inside_s = x_e < w, y_s < h
        corners = [((y_n, x_w), inside_n & inside_w, ds * de), ((y_n, x_e), inside_n & inside_e, ds * dw),
                   ((y_s, x_w), inside_s & inside_w, dn * de), ((y_s, x_e), inside_s & inside_e, dn * dw)]
        return corners, (dn, ds, dw, de)

    def _cubic_taps(self, x, y):
        """The sixteen taps (i along x, j along y): positions after padding and their masks."""
        h, w = self.plane.sizes
        ix, iy = x.floor(), y.floor()
        taps = []
        for i in range(4):
            for j in range(4):
                xx = self.ax_w.compute(ix + (i - 1)).trunc()
                yy = self.ax_h.compute(iy + (j - 1)).trunc()
                taps.append((i, j, (yy, xx), _inside(xx, w) & _inside(yy, h)))
        return ix, iy, taps

    def forward(self):
        plane = self.plane
        if self.mode == BILINEAR:
            x, y = self.ax_w.apply(self.gx), self.ax_h.apply(self.gy)
            corners, _ = self._corners(x, y)
            out = None
            for positions, mask, weight in corners:
                value = plane.read(positions, mask)
                out = value * weight.unsqueeze(1) if out is None else _fma(value, weight.unsqueeze(1), out)
        elif self.mode == NEAREST:
            x, y = self.ax_w.apply(self.gx).round(), self.ax_h.apply(self.gy).round()
            mask = self._mask(x, y)
            mask = minitorch.ones_like(x, dtype=minitorch.bool) if mask is None else mask
            out = plane.read((y, x), mask)
        else:
            x, y = self.ax_w.unnormalize(self.gx), self.ax_h.unnormalize(self.gy)
            ix, iy, taps = self._cubic_taps(x, y)
            cx, cy = _cubic(x - ix), _cubic(y - iy)
            # each row: fma(c0, v0, c1 v1) + c2 v2 + c3 v3; then the rows: fma(c3, r3, fma(c2, r2, fma(c1, r1, c0 r0)))
            rows = []
            for j in range(4):
                row = [(plane.read(positions, mask), cx[i].unsqueeze(1)) for i, jj, positions, mask in taps if jj == j]
                (v0, c0), (v1, c1), (v2, c2), (v3, c3) = row
                rows.append(_fma(v0, c0, v1 * c1) + v2 * c2 + v3 * c3)
            out = None
            for j in range(4):
                weight = cy[j].unsqueeze(1)
                out = rows[j] * weight if out is None else _fma(rows[j], weight, out)
        return out.reshape([plane.n, plane.c] + self.out_sizes)

    def backward(self, grad, need_input):
        plane, (g_out, n, p, zero) = self.plane, self._backward_start(grad)
        grad_input = gx = gy = None
        if self.mode == NEAREST:
            x, y = self.ax_w.apply(self.gx).round(), self.ax_h.apply(self.gy).round()
            mask = self._mask(x, y)
            mask = minitorch.ones_like(x, dtype=minitorch.bool) if mask is None else mask
            if need_input:
                values = minitorch.where(mask.unsqueeze(1), g_out, 0.0).unsqueeze(-1)
                grad_input = self._scatter(values, [plane.offset((y, x), mask)])
            gx = gy = zero
        elif self.mode == BILINEAR:
            x, mult_x = self.ax_w.apply_get_grad(self.gx)
            y, mult_y = self.ax_h.apply_get_grad(self.gy)
            corners, (dn, ds, dw, de) = self._corners(x, y)
            if need_input:
                values = [minitorch.where(mask.unsqueeze(1), weight.unsqueeze(1) * g_out, 0.0)
                          for _, mask, weight in corners]
                grad_input = self._scatter(minitorch.stack(values, -1),
                                           [plane.offset(pos, mask) for pos, mask, _ in corners])
            nw, ne, sw, se = (plane.read(pos, mask) for pos, mask, _ in corners)
            gx, gy = zero, zero
            for c in range(plane.c):
                go = g_out.select(1, c)
                v_nw, v_ne, v_sw, v_se = (t.select(1, c) for t in (nw, ne, sw, se))
                gx = _fma(_fma(v_se - v_sw, dn, (v_ne - v_nw) * ds), go, gx)
                gy = _fma(_fma(v_se - v_ne, dw, (v_sw - v_nw) * de), go, gy)
            gx, gy = gx * mult_x, gy * mult_y
        else:
            x, y = self.ax_w.unnormalize(self.gx), self.ax_h.unnormalize(self.gy)
            ix, iy, taps = self._cubic_taps(x, y)
            cx, cy = _cubic(x - ix), _cubic(y - iy)
            gcx, gcy = _cubic_grad(x - ix), _cubic_grad(y - iy)
            if need_input:
                values = [minitorch.where(mask.unsqueeze(1), g_out * cx[i].unsqueeze(1) * cy[j].unsqueeze(1), 0.0)
                          for i, j, _, mask in taps]
                grad_input = self._scatter(minitorch.stack(values, -1),
                                           [plane.offset(pos, mask) for _, _, pos, mask in taps])
            reads = [plane.read(pos, mask) for _, _, pos, mask in taps]
            gx, gy = zero, zero
            for c in range(plane.c):
                go = g_out.select(1, c)
                for (i, j, _, _), values in zip(taps, reads):
                    v = values.select(1, c) * go
                    gx = _fma(-(v * gcx[i]), cy[j], gx)
                    gy = _fma(-(v * gcy[j]), cx[i], gy)
            gx, gy = gx * self.ax_w.scale, gy * self.ax_h.scale
        grad_grid = minitorch.stack([gx, gy], -1).reshape([n] + self.out_sizes + [2])
        return grad_input, grad_grid

    def _scatter(self, values, offsets):
        return _scatter(self.plane, values, minitorch.stack(offsets, -1), self.rows, self.row_len, self.lanes)


# ---- the 5-D sampler (torch's scalar kernel) ------------------------------------------------------------------


class _Axis3D(_Padded):
    """GridSampler.h's source-index computation for one input dim of `size` (the scalar kernel's arithmetic)."""

    def __init__(self, size, padding, align_corners):
        self.size, self.padding, self.align = size, padding, align_corners

    def unnormalize(self, g):
        if self.align:
            return ((g + 1) / 2) * (self.size - 1)
        return ((g + 1) * self.size - 1) / 2

    def scale(self):
        return (self.size - 1) / 2 if self.align else self.size / 2

    def clip(self, x):
        return minitorch.where(x > 0, x, 0.0).clamp(max=self.size - 1)

    def reflect(self, x):
        twice_low, twice_high = (0, 2 * (self.size - 1)) if self.align else (-1, 2 * self.size - 1)
        if twice_low == twice_high:
            return minitorch.zeros_like(x)
        low, span = twice_low / 2, (twice_high - twice_low) / 2
        shifted = (x - low).abs()
        extra = shifted.fmod(span)
        flips = (shifted / span).floor()
        even = flips.fmod(2) == 0
        return minitorch.where(even, extra + low, (span - extra) + low)

    def apply_get_grad(self, g):
        x = self.unnormalize(g)
        grad = minitorch.full_like(x, self.scale())
        if self.padding == ZEROS:
            return x, grad
        if self.padding == REFLECTION:
            twice_low, twice_high = (0, 2 * (self.size - 1)) if self.align else (-1, 2 * self.size - 1)
            if twice_low == twice_high:
                zero = minitorch.zeros_like(x)
                return zero, zero
            low, span = twice_low / 2, (twice_high - twice_low) / 2
            shifted = x - low
            sign = minitorch.where(shifted < 0, -1.0, 1.0).to(x.dtype)
            magnitude = shifted.abs()
            extra = magnitude.fmod(span)
            even = (magnitude / span).floor().fmod(2) == 0
            x = minitorch.where(even, extra + low, (span - extra) + low)
            grad = grad * minitorch.where(even, sign, -sign)
        inside = (x > 0) & (x < self.size - 1)
        return self.clip(x), grad * inside.to(x.dtype)      # a negative multiplier clipped is -0, as torch's


class _Sampler3D(_Sampler):
    """One 5-D sampling problem (bilinear, that is trilinear, or nearest), as torch's scalar kernel."""

    def __init__(self, input, grid, mode, padding, align_corners):
        self.plane = _Plane(input)
        n = grid.shape[0]
        self.out_sizes = list(grid.shape[1:4])
        flat = grid.reshape(n, -1, 3)
        self.gx, self.gy, self.gz = flat.select(2, 0), flat.select(2, 1), flat.select(2, 2)
        self.mode, self.padding = mode, padding
        d, h, w = self.plane.sizes
        self.axes = [_Axis3D(w, padding, align_corners), _Axis3D(h, padding, align_corners),
                     _Axis3D(d, padding, align_corners)]

    def _corners(self, x, y, z):
        d, h, w = self.plane.sizes
        x0, y0, z0 = x.floor(), y.floor(), z.floor()
        x1, y1, z1 = x0 + 1, y0 + 1, z0 + 1
        corners = []
        # torch's order: tnw, tne, tsw, tse, bnw, bne, bsw, bse (t/b: z, n/s: y, w/e: x)
        for zc, zo in ((z0, z1), (z1, z0)):
            for yc, yo in ((y0, y1), (y1, y0)):
                for xc, xo in ((x0, x1), (x1, x0)):
                    wx = (xo - x) if xc is x0 else (x - xo)
                    wy = (yo - y) if yc is y0 else (y - yo)
                    wz = (zo - z) if zc is z0 else (z - zo)
                    mask = _inside(xc, w) & _inside(yc, h) & _inside(zc, d)
                    corners.append(((zc, yc, xc), mask, wx * wy * wz, (xc is x0, yc is y0, zc is z0)))
        return corners

    def forward(self):
        plane = self.plane
        x, y, z = (axis.apply(g) for axis, g in zip(self.axes, (self.gx, self.gy, self.gz)))
        if self.mode == NEAREST:
            x, y, z = x.round(), y.round(), z.round()
            d, h, w = plane.sizes
            out = plane.read((z, y, x), _inside(x, w) & _inside(y, h) & _inside(z, d))
        else:
            out = minitorch.zeros(plane.n, plane.c, x.shape[1], dtype=x.dtype, device=x.device)
            for positions, mask, weight, _ in self._corners(x, y, z):
                out = out + plane.read(positions, mask) * weight.unsqueeze(1)
        return out.reshape([plane.n, plane.c] + self.out_sizes)

    def backward(self, grad, need_input):
        plane, (g_out, n, p, zero) = self.plane, self._backward_start(grad)
        grad_input = None
        if self.mode == NEAREST:
            x, y, z = (axis.apply(g).round() for axis, g in zip(self.axes, (self.gx, self.gy, self.gz)))
            d, h, w = plane.sizes
            mask = _inside(x, w) & _inside(y, h) & _inside(z, d)
            if need_input:
                values = minitorch.where(mask.unsqueeze(1), g_out, 0.0).unsqueeze(-1)
                grad_input = _scatter(plane, values, plane.offset((z, y, x), mask).unsqueeze(-1), 1, p, 1)
            grads = [zero, zero, zero]
        else:
            located = [axis.apply_get_grad(g) for axis, g in zip(self.axes, (self.gx, self.gy, self.gz))]
            (x, mx), (y, my), (z, mz) = located
            corners = self._corners(x, y, z)
            if need_input:
                values = [minitorch.where(mask.unsqueeze(1), weight.unsqueeze(1) * g_out, 0.0)
                          for _, mask, weight, _ in corners]
                grad_input = _scatter(plane, minitorch.stack(values, -1),
                                      minitorch.stack([plane.offset(pos, mask) for pos, mask, _, _ in corners], -1),
                                      1, p, 1)
            reads = [plane.read(pos, mask) for pos, mask, _, _ in corners]
            x0, y0, z0 = x.floor(), y.floor(), z.floor()
            gx, gy, gz = zero, zero, zero
            for c in range(plane.c):
                go = g_out.select(1, c)
                for (_, _, _, (west, north, top)), values in zip(corners, reads):
                    # each coordinate's derivative of the corner's weight: the other two distances, signed
                    ax = (x0 + 1 - x) if west else (x - x0)
                    ay = (y0 + 1 - y) if north else (y - y0)
                    az = (z0 + 1 - z) if top else (z - z0)
                    v = values.select(1, c)
                    tx, ty, tz = v * ay * az * go, v * ax * az * go, v * ax * ay * go
                    gx = gx - tx if west else gx + tx
                    gy = gy - ty if north else gy + ty
                    gz = gz - tz if top else gz + tz
            grads = [gx * mx, gy * my, gz * mz]
        grad_grid = minitorch.stack(grads, -1).reshape([n] + self.out_sizes + [3])
        return grad_input, grad_grid


class GridSampler(_NativeOp):
    """torch's grid_sampler_2d / grid_sampler_3d. Backward: the gradient of the input (scattered into the
    pixels each output read) and of the grid (the derivative of the interpolation along each coordinate)."""

    node = "GridSampler2DBackward0"

    @staticmethod
    def _sampler(input, grid, mode, padding, align_corners):
        kind = _Sampler3D if input.dim() == 5 else _Sampler2D
        return kind(input, grid, mode, padding, align_corners)

    @staticmethod
    def forward(ctx, input, grid, mode, padding, align_corners):
        ctx.save_for_backward(input, grid)
        ctx.args = (mode, padding, align_corners)
        return GridSampler._sampler(input, grid, mode, padding, align_corners).forward()

    @staticmethod
    def backward(ctx, grad):
        input, grid = ctx.saved_tensors
        sampler = GridSampler._sampler(input, grid, *ctx.args)
        grad_input, grad_grid = sampler.backward(grad, ctx.needs_input_grad[0])
        return grad_input, (grad_grid if ctx.needs_input_grad[1] else None), None, None, None


class GridSampler3D(GridSampler):
    node = "GridSampler3DBackward0"
