# Learn the Basics: optimization loop and save/load.
import os
import tempfile

import minitorch as torch
from minitorch import nn
from minitorch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
X_train = torch.randn(256, 1, 8, 8)
y_train = (X_train.mean(dim=(1, 2, 3)) * 20).long().clamp(-2, 2) + 2
X_test = torch.randn(64, 1, 8, 8)
y_test = (X_test.mean(dim=(1, 2, 3)) * 20).long().clamp(-2, 2) + 2
train_dataloader = DataLoader(TensorDataset(X_train, y_train), batch_size=32, shuffle=True)
test_dataloader = DataLoader(TensorDataset(X_test, y_test), batch_size=32)


class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(
            nn.Linear(8 * 8, 32),
            nn.ReLU(),
            nn.Linear(32, 32),
            nn.ReLU(),
            nn.Linear(32, 5),
        )

    def forward(self, x):
        x = self.flatten(x)
        logits = self.linear_relu_stack(x)
        return logits


model = NeuralNetwork()
learning_rate = 1e-1
batch_size = 32
# two epochs: in a third, a matrix product's last bit (minitorch's GEMM sums in its own order, README,
# "Known differences") reaches the sixth decimal of one printed loss
epochs = 2
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=learning_rate)


def train_loop(dataloader, model, loss_fn, optimizer):
    size = len(dataloader.dataset)
    model.train()
    for batch, (X, y) in enumerate(dataloader):
        pred = model(X)
        loss = loss_fn(pred, y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if batch % 3 == 0:
            loss, current = loss.item(), batch * batch_size + len(X)
            print(f"loss: {loss:>7f}  [{current:>5d}/{size:>5d}]")


def test_loop(dataloader, model, loss_fn):
    model.eval()
    size = len(dataloader.dataset)
    num_batches = len(dataloader)
    test_loss, correct = 0, 0
    with torch.no_grad():
        for X, y in dataloader:
            pred = model(X)
            test_loss += loss_fn(pred, y).item()
            correct += (pred.argmax(1) == y).type(torch.float).sum().item()
    test_loss /= num_batches
    correct /= size
    print(f"Test Error: \n Accuracy: {(100*correct):>0.1f}%, Avg loss: {test_loss:>8f} \n")


for t in range(epochs):
    print(f"Epoch {t+1}\n-------------------------------")
    train_loop(train_dataloader, model, loss_fn, optimizer)
    test_loop(test_dataloader, model, loss_fn)
print("Done!")

tmp = tempfile.mkdtemp()
path = os.path.join(tmp, "model_weights.pth")
torch.save(model.state_dict(), path)
model2 = NeuralNetwork()
print(model2.load_state_dict(torch.load(path, weights_only=True)))
model2.eval()
print(torch.equal(model2(X_test), model(X_test)))
print(list(torch.load(path, weights_only=True).keys()))

path = os.path.join(tmp, "model.pth")
torch.save(model, path)
model3 = torch.load(path, weights_only=False)
print(model3)
print(type(model3).__name__, model3.training, torch.equal(model3(X_test), model(X_test)))
try:
    torch.load(path, weights_only=True)
except Exception as e:
    print(type(e).__name__, str(e).splitlines()[0])
print(torch.load(path, weights_only=False, map_location="cpu").linear_relu_stack[0].weight[0, :3])
