"""`python -m minitorch train`: a one-minute training run on every device there is. A small classifier
learns three interleaved spirals (data made here, nothing downloaded) with Adam and cross entropy,
batches from a shuffled DataLoader; the loss of each epoch and its time are printed per device, then
the accuracy. The same seed on every device, so the runs can be compared line by line."""

import math
import time

import minitorch as torch
from minitorch import nn
from minitorch.utils.data import DataLoader, TensorDataset

EPOCHS = 8


def spirals(points_per_class=300, classes=3, seed=0):
    """Points (x, y) on `classes` noisy spiral arms, and each point's arm as its label."""
    torch.manual_seed(seed)
    xs, ys = [], []
    for c in range(classes):
        r = torch.linspace(0.05, 1.0, points_per_class)
        angle = torch.linspace(0.0, 4.0, points_per_class) + c * (2 * math.pi / classes)
        angle = angle + torch.randn(points_per_class) * 0.15
        xs.append(torch.stack([r * angle.sin(), r * angle.cos()], 1))
        ys.append(torch.full((points_per_class,), c, dtype=torch.int64))
    return torch.cat(xs), torch.cat(ys)


def model():
    return nn.Sequential(nn.Linear(2, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 3))


def train(device, x, y, say, epochs=EPOCHS):
    """Trains a fresh model on device, printing one line per epoch; returns the final accuracy."""
    torch.manual_seed(0)
    net = model().to(device)
    opt = torch.optim.Adam(net.parameters(), lr=0.01)
    loss_fn = nn.CrossEntropyLoss()
    loader = DataLoader(TensorDataset(x, y), batch_size=64, shuffle=True)
    for epoch in range(1, epochs + 1):
        start = time.perf_counter()
        total = 0.0
        for xb, yb in loader:
            xb, yb = xb.to(device), yb.to(device)
            loss = loss_fn(net(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(xb)
        if device.type == "cuda":
            torch.cuda.synchronize()
        say(epoch=epoch, loss=total / len(x), ms=(time.perf_counter() - start) * 1e3)
    net.eval()
    with torch.no_grad():
        predicted = net(x.to(device)).argmax(1).cpu()
    return (predicted == y).float().mean().item()


def run(t):
    """The demo, printing through t(key, **fields) (the messages of minitorch/__main__.py)."""
    x, y = spirals()
    devices = [torch.device("cpu")] + ([torch.device("cuda")] if torch.cuda.is_available() else [])
    print(t("train_title", n=len(x), epochs=EPOCHS))
    for device in devices:
        name = "cuda (" + torch.cuda.get_device_name(0) + ")" if device.type == "cuda" else "cpu"
        print("\n" + t("train_device", device=name))
        accuracy = train(device, x, y, lambda **f: print(t("train_epoch", **f)))
        print(t("train_accuracy", accuracy=accuracy * 100))
    if len(devices) == 1:
        print("\n" + t("train_no_gpu"))
    return 0
