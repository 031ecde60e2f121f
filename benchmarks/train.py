"""Training-step benchmark: minitorch against torch, side by side in one process, on the CPU.

    python benchmarks/train.py            # every case, best of several runs
    python benchmarks/train.py --quick    # fewer repeats (a smoke run)

Each case times one training step (forward, cross-entropy loss, backward, SGD step with momentum) or
one epoch of a DataLoader, and prints the time ratio minitorch / torch (below 1: minitorch is faster)
against the target of issue 17:
  - MLP 784-128-10, batch 64, float32: time <= 0.5x torch's.
  - MLP 784-1024-1024-10, batch 256: time <= 1.0x torch's.
  - CNN (two Conv2d 3x3 + ReLU + MaxPool2d, one Linear; 28x28 inputs, batch 64): speed >= 0.8x torch's
    (time <= 1.25x).
  - DataLoader over a TensorDataset of 60,000 rows (784 float32 features and an int64 label), batch 64,
    shuffled, one epoch: time <= 1.0x torch's; the same with num_workers=2 (worker processes started
    with the platform's default method, each batch sent back to the main process): time <= 1.0x torch's.
Both libraries use the same number of threads. Each figure is the best of several runs (other work on
the machine only makes a run slower); the load average is printed before and after.
"""

import argparse

from _timing import best_time, load


def training_step(lib, model, x, y):
    opt = lib.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    loss_fn = lib.nn.CrossEntropyLoss()

    def run():
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()

    return run


def mlp(widths, batch):
    def make(lib):
        lib.manual_seed(0)
        layers = []
        for i in range(len(widths) - 1):
            layers.append(lib.nn.Linear(widths[i], widths[i + 1]))
            if i < len(widths) - 2:
                layers.append(lib.nn.ReLU())
        return training_step(lib, lib.nn.Sequential(*layers), lib.randn(batch, widths[0]),
                             lib.randint(0, widths[-1], (batch,)))

    return make


def cnn(lib):
    lib.manual_seed(0)
    nn = lib.nn
    model = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                          nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                          nn.Flatten(), nn.Linear(32 * 7 * 7, 10))
    return training_step(lib, model, lib.randn(64, 1, 28, 28), lib.randint(0, 10, (64,)))


def dataloader(lib, num_workers=0):
    lib.manual_seed(0)
    data = lib.utils.data.TensorDataset(lib.randn(60000, 784), lib.randint(0, 10, (60000,)))
    loader = lib.utils.data.DataLoader(data, batch_size=64, shuffle=True, num_workers=num_workers)

    def run():
        for _ in loader:
            pass

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
    q = args.quick
    cases = [
        ("MLP 784-128-10, batch 64", mlp([784, 128, 10], 64), 3 if q else 10, 5 if q else 20, 0.5),
        ("MLP 784-1024-1024-10, batch 256", mlp([784, 1024, 1024, 10], 256), 2 if q else 5, 1 if q else 3, 1.0),
        ("CNN 2xConv+Pool, batch 64", cnn, 2 if q else 5, 1 if q else 3, 1.25),
    ]
    if hasattr(minitorch.utils, "data"):
        cases.append(("DataLoader 60000x784, batch 64", dataloader, 1 if q else 3, 1, 1.0))
        cases.append(("DataLoader as above, 2 workers", lambda lib: dataloader(lib, num_workers=2), 1 if q else 3, 1,
                      1.0))
    print(f"{'case':34s} {'minitorch':>12s} {'torch':>12s} {'ratio':>8s}  target (time ratio)")
    for name, make, repeats, number, target in cases:
        mt = best_time(make(minitorch), repeats, number)
        th = best_time(make(torch), repeats, number) if torch is not None else None
        if th is None:
            print(f"{name:34s} {mt * 1e3:10.2f}ms {'-':>12s}")
            continue
        ratio = mt / th
        verdict = "met" if ratio <= target else "not met"
        print(f"{name:34s} {mt * 1e3:10.2f}ms {th * 1e3:10.2f}ms {ratio:8.2f}  <= {target} ({verdict})")
    print(load())


if __name__ == "__main__":
    main()
