# Learn the Basics: a custom Dataset and DataLoader loop, transforms as plain callables.
import minitorch as torch
from minitorch.utils.data import DataLoader, Dataset, random_split, TensorDataset


class CustomImageDataset(Dataset):
    def __init__(self, n, transform=None, target_transform=None):
        g = torch.Generator().manual_seed(42)
        self.images = torch.rand(n, 1, 28, 28, generator=g)
        self.labels = torch.randint(0, 10, (n,), generator=g)
        self.transform = transform
        self.target_transform = target_transform

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, idx):
        image = self.images[idx]
        label = int(self.labels[idx])
        if self.transform:
            image = self.transform(image)
        if self.target_transform:
            label = self.target_transform(label)
        return image, label


def one_hot(y):
    return torch.zeros(10, dtype=torch.float).scatter_(0, torch.tensor(y), value=1)


training_data = CustomImageDataset(100, target_transform=one_hot)
print(len(training_data))
img, label = training_data[3]
print(img.shape, img.squeeze().shape, label)

torch.manual_seed(0)
train_dataloader = DataLoader(training_data, batch_size=16, shuffle=True)
test_dataloader = DataLoader(CustomImageDataset(40), batch_size=16, shuffle=False)
train_features, train_labels = next(iter(train_dataloader))
print(f"Feature batch shape: {train_features.size()}")
print(f"Labels batch shape: {train_labels.size()}")
print(train_labels[0], train_features[0, 0, 0, :3])
print(len(train_dataloader), len(test_dataloader))
for batch, (X, y) in enumerate(test_dataloader):
    print(batch, X.shape, y.dtype, y)

ds = TensorDataset(torch.arange(10.).unsqueeze(1), torch.arange(10))
a, b = random_split(ds, [7, 3], generator=torch.Generator().manual_seed(1))
print(len(a), len(b), a.indices, b.indices)
for xb, yb in DataLoader(ds, batch_size=4, drop_last=True):
    print(xb.T, yb)
for xb in DataLoader([1.5, 2.5, 3.5], batch_size=2):
    print(xb)
for xb in DataLoader([{"a": 1, "b": torch.ones(2)}, {"a": 2, "b": torch.zeros(2)}], batch_size=2):
    print(xb)
