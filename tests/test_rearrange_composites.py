"""fliplr, flipud, rot90, ravel, atleast_1d/2d/3d, column_stack, row_stack, dstack, take_along_dim, diff,
tril_indices and triu_indices (minitorch/_rearrange.py) against torch: values, nodes, strides, identity,
errors, out=."""

import os
import sys

import minitorch as mt

sys.path.insert(0, os.path.dirname(__file__))
from parity import compare  # noqa: E402


def test_rearranging_ops_match_torch():
    compare("""
def t(f):
  try: r=f(); print(r if not isinstance(r,torch.Tensor) else (r.tolist(), type(r.grad_fn).__name__, r.stride(), r is x, r.dtype))
  except Exception as e: print(type(e).__name__, e)
t(lambda: torch.fliplr(torch.ones(3)))
t(lambda: torch.flipud(torch.tensor(1.)))
t(lambda: torch.rot90(x,1,[0]))
t(lambda: torch.rot90(torch.ones(3)))
t(lambda: torch.rot90(x,1,[0,2]))
t(lambda: torch.rot90(x,1,[-3,1]))
t(lambda: torch.rot90(x,1,[1,1]))
t(lambda: torch.rot90(x,1,[1,-1]))
for k in range(-1,5): t(lambda: torch.rot90(x,k))
t(lambda: x.rot90(1,[1,0])); t(lambda: torch.rot90(torch.arange(24.).reshape(2,3,4),3,[2,0]))
t(lambda: x.ravel()); t(lambda: x.t().ravel()); t(lambda: torch.ravel(torch.tensor(3.)))
t(lambda: torch.column_stack([]))
t(lambda: torch.dstack([]))
t(lambda: torch.column_stack([torch.ones(3), torch.ones(3,2), torch.tensor(1.)]))
t(lambda: torch.column_stack([torch.ones(3), torch.ones(3,2)]))
t(lambda: torch.column_stack((x[0], x[1])))
t(lambda: torch.row_stack([x,x])); t(lambda: torch.dstack([x, x])); t(lambda: torch.dstack([x[0], torch.tensor([1.,2,3])]))
t(lambda: torch.atleast_2d(x[0])); t(lambda: torch.atleast_3d(x)); t(lambda: torch.atleast_3d(x[0])); t(lambda: torch.atleast_3d(torch.tensor(1.)))
t(lambda: torch.atleast_1d(torch.tensor(1.), torch.ones(2)))
t(lambda: torch.atleast_1d([torch.tensor(1.), torch.ones(2)]))
t(lambda: torch.atleast_1d(1)); t(lambda: torch.atleast_1d(x))
t(lambda: torch.take_along_dim(x, torch.tensor([[0],[2]]), 1))
t(lambda: torch.take_along_dim(x, torch.tensor([5,0])))
t(lambda: torch.take_along_dim(x, torch.tensor([[0],[2]]).float(), 1))
t(lambda: torch.take_along_dim(x, torch.tensor([0]), 1))
t(lambda: torch.take_along_dim(x.t(), torch.tensor([5,0])))
t(lambda: torch.take_along_dim(x, torch.tensor([[0,1,1]]), 0)); t(lambda: x.take_along_dim(torch.tensor([[1],[0]]), -1))
t(lambda: torch.diff(x)); t(lambda: x.diff(dim=0))
t(lambda: torch.diff(x, n=2, dim=0, prepend=torch.zeros(1,3), append=torch.ones(2,3)))
t(lambda: torch.diff(torch.tensor([True,False,False])))
t(lambda: torch.diff(torch.tensor(1.)))
t(lambda: torch.diff(x, n=-1)); t(lambda: torch.diff(x, n=0))
t(lambda: torch.diff(x, prepend=torch.zeros(3)))
t(lambda: torch.diff(x, prepend=torch.zeros(2,1,dtype=torch.float64)))
t(lambda: torch.diff(x, append=torch.zeros(3,1)))
t(lambda: torch.diff(torch.ones(0))); t(lambda: torch.diff(torch.ones(2,0),dim=1)); t(lambda: torch.diff(torch.ones(1))); t(lambda: torch.diff(torch.ones(0), n=2)); t(lambda: torch.diff(torch.arange(10), n=3))
t(lambda: torch.tril_indices(3,4,1))
t(lambda: torch.triu_indices(3,4,-1, dtype=torch.int32))
t(lambda: torch.tril_indices(-1,4))
t(lambda: torch.tril_indices(3,4,dtype=torch.float32))
t(lambda: torch.tril_indices(3,4,-5)); t(lambda: torch.tril_indices(0,4)); t(lambda: torch.triu_indices(3,3,10)); t(lambda: torch.tril_indices(3,-2)); t(lambda: torch.triu_indices(4,3,-1)); t(lambda: torch.tril_indices(5,3,1))
t(lambda: torch.tril_indices(3,4,dtype=torch.bool)); t(lambda: torch.tril_indices(2,2,dtype=torch.int16))
for f in [lambda o: torch.take_along_dim(torch.ones(2,3), torch.zeros(2,1,dtype=torch.long), 1, out=o), lambda o: torch.diff(torch.ones(3), out=o), lambda o: torch.diff(torch.ones(3,dtype=torch.long), out=o), lambda o: torch.column_stack([torch.ones(2), torch.ones(2)], out=o), lambda o: torch.dstack([torch.ones(2), torch.ones(2)], out=o)]:
  for d in [torch.float64, torch.int64, torch.float32]:
    t(lambda: f(torch.empty(0,dtype=d)))
t(lambda: torch.take_along_dim(x, torch.zeros(1,dtype=torch.long), out=torch.empty(0))); t(lambda: torch.diff(x, out=torch.empty(0)))
g=torch.rot90(x,1); g.sum().backward(); print(x.grad)
""")


def test_on_the_devices(device):
    x = mt.arange(6.0, device=device).reshape(2, 3)
    assert mt.rot90(x).tolist() == [[2.0, 5.0], [1.0, 4.0], [0.0, 3.0]] and mt.rot90(x).device == x.device
    assert mt.fliplr(x).tolist() == [[2.0, 1.0, 0.0], [5.0, 4.0, 3.0]]
    assert x.t().ravel().tolist() == [0.0, 3.0, 1.0, 4.0, 2.0, 5.0]
    assert mt.diff(x, dim=1).tolist() == [[1.0, 1.0], [1.0, 1.0]]
    i = mt.tensor([[2], [0]], device=device)
    assert mt.take_along_dim(x, i, 1).tolist() == [[2.0], [3.0]]
    assert mt.dstack([x, x]).shape == (2, 3, 2) and mt.column_stack([x[0], x[1]]).device == x.device
    assert mt.tril_indices(3, 3, device=device).device == x.device


def test_tri_indices_every_small_case_and_huge_sizes():
    compare("""
import itertools
for r, c, o in itertools.product([0, 1, 3, 5], [0, 1, 4, 6], [-7, -2, -1, 0, 1, 2, 9]):
    for f in (torch.tril_indices, torch.triu_indices):
        x = f(r, c, o)
        print(r, c, o, x.shape, x.tolist())
print(torch.diff(torch.ones(3), n=2 ** 62))
torch.tril_indices(2 ** 62, 3)
print(torch.tril_indices(3, 2 ** 62))
torch.triu_indices(2 ** 31, 2 ** 31)
print(torch.triu_indices(3, 4, dtype=torch.int32))
print(torch.tril_indices(3, 3, 2 ** 62), torch.tril_indices(3, 3, -2 ** 62))
""")
