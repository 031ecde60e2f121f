"""One shuffled epoch of a DataLoader over a TensorDataset, minitorch against torch in the same run.

    python benchmarks/dataloader.py [--rows N] [--batch B] [--repeat R]

The dataset is MNIST-shaped: N rows of 784 float32 features and an int64 label; batch 64, shuffle=True, the
default collate (each batch: 64 row lookups per tensor, then a stack), num_workers=0. Each figure is the
best of R epochs; the ratio is torch's time over minitorch's (above 1: minitorch is faster). The two
libraries draw the same permutation after the same manual_seed, so they load the same batches.
"""

import argparse
import importlib
import time


def epoch_seconds(torch, rows, batch, repeat):
    data = importlib.import_module(torch.__name__ + ".utils.data")
    torch.manual_seed(0)
    x = torch.rand(rows, 784)
    y = torch.randint(0, 10, (rows,))
    loader = data.DataLoader(data.TensorDataset(x, y), batch_size=batch, shuffle=True)
    best = float("inf")
    checksum = 0
    for _ in range(repeat):
        start = time.perf_counter()
        checksum = 0
        for xb, yb in loader:
            checksum += int(yb[0])
        best = min(best, time.perf_counter() - start)
    return best, checksum


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=60000)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    import minitorch

    try:
        import torch
    except ImportError:
        torch = None
    mt, mt_sum = epoch_seconds(minitorch, args.rows, args.batch, args.repeat)
    print("DataLoader epoch: {} rows x 784 float32 + int64 label, batch {}, shuffle".format(args.rows, args.batch))
    print("  minitorch  {:8.3f} s".format(mt))
    if torch is None:
        print("  torch      (not installed)")
        return
    torch.set_num_threads(minitorch.get_num_threads())
    tt, tt_sum = epoch_seconds(torch, args.rows, args.batch, args.repeat)
    print("  torch      {:8.3f} s".format(tt))
    print("  ratio      {:8.2f}x (torch / minitorch){}".format(
        tt / mt, "" if mt_sum == tt_sum else "  (different batches: the permutations differ!)"))


if __name__ == "__main__":
    main()
