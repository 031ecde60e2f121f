"""Autograd benchmark: minitorch against torch, measured side by side in one process.

    python benchmarks/autograd.py            # both figures, best of several runs
    python benchmarks/autograd.py --quick    # fewer repeats (a smoke run)

What it prints, with the ratio minitorch / torch for each (below 1: minitorch is faster):
  - chain: forward and backward of a chain of 100 small ops on a 4-element tensor (mul, add, relu in
    turn, then sum and backward): the cost of recording a node and of running it, which torch pays in
    microseconds per node. Target: <= 0.3x torch's time.
  - mlp: forward and backward of a 3-layer MLP (batch 256, width 1024, float32, ReLU, mean loss) on the
    CPU: dominated by the matrix products of the backward. Target: >= 1.0x torch's speed (time ratio
    <= 1.0).
Both libraries use the same number of threads. Each figure is the best of several runs (other work on
the machine only ever makes a run slower); the load average is printed before and after.
"""

import argparse

from _timing import best_time, load


def chain(lib):
    x = lib.randn(4, requires_grad=True)

    def run():
        y = x
        for i in range(100):
            k = i % 3
            y = y * 1.01 if k == 0 else (y + 0.1 if k == 1 else y.relu())
        y.sum().backward()

    return run


def mlp(lib, batch=256, width=1024):
    lib.manual_seed(0)
    layers = [lib.nn.Linear(width, width) for _ in range(3)]
    x = lib.randn(batch, width)

    def run():
        h = x
        for i, layer in enumerate(layers):
            h = layer(h)
            if i < 2:
                h = h.relu()
        h.mean().backward()

    return run


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true")
    args = p.parse_args()
    import minitorch

    try:
        import torch
    except ImportError:
        torch = None
    threads = minitorch.get_num_threads()
    if torch is not None:
        torch.set_num_threads(threads)
    print(load())
    print("threads:", threads)
    rows = []
    for name, make, repeats, number, target in [
        ("chain of 100 ops, fwd+bwd", chain, 5 if args.quick else 20, 20 if args.quick else 100, 0.3),
        ("MLP 3x1024, batch 256, fwd+bwd", mlp, 2 if args.quick else 5, 1 if args.quick else 3, 1.0),
    ]:
        mt = best_time(make(minitorch), repeats, number)
        th = best_time(make(torch), repeats, number) if torch is not None else None
        rows.append((name, mt, th, target))
    print(f"{'case':34s} {'minitorch':>12s} {'torch':>12s} {'ratio':>8s}  target")
    for name, mt, th, target in rows:
        if th is None:
            print(f"{name:34s} {mt * 1e6:10.1f}us {'-':>12s}")
            continue
        ratio = mt / th
        verdict = "met" if ratio <= target else "not met"
        print(f"{name:34s} {mt * 1e6:10.1f}us {th * 1e6:10.1f}us {ratio:8.2f}  <= {target} ({verdict})")
    print(load())


if __name__ == "__main__":
    main()
