# 60-minute blitz: training a small CNN on random 3x32x32 data, with the device idiom.
import os
import tempfile

import minitorch as torch
import minitorch.nn as nn
import minitorch.nn.functional as F
import minitorch.optim as optim
from minitorch.utils.data import TensorDataset

device = torch.device('cuda:0' if torch.cuda.is_available() else 'cpu')
print(device.type)

torch.manual_seed(0)
classes = ('plane', 'car', 'bird', 'cat', 'deer', 'dog', 'frog', 'horse', 'ship', 'truck')
images = torch.randn(64, 3, 32, 32)
labels = torch.randint(0, 10, (64,))
trainloader = torch.utils.data.DataLoader(TensorDataset(images, labels), batch_size=4, shuffle=True, num_workers=2)
testloader = torch.utils.data.DataLoader(TensorDataset(images[:16], labels[:16]), batch_size=4, shuffle=False,
                                         num_workers=2)

dataiter = iter(trainloader)
imgs, lbls = next(dataiter)
print(' '.join(f'{classes[lbls[j]]:5s}' for j in range(4)))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        x = self.fc3(x)
        return x


net = Net()
net.to(device)
print(net)
criterion = nn.CrossEntropyLoss()
optimizer = optim.SGD(net.parameters(), lr=0.001, momentum=0.9)

for epoch in range(2):
    running_loss = 0.0
    for i, data in enumerate(trainloader, 0):
        inputs, labels_b = data[0].to(device), data[1].to(device)
        optimizer.zero_grad()
        outputs = net(inputs)
        loss = criterion(outputs, labels_b)
        loss.backward()
        optimizer.step()
        running_loss += loss.item()
        if i % 8 == 7:
            print(f'[{epoch + 1}, {i + 1:5d}] loss: {running_loss / 8:.3f}')
            running_loss = 0.0
print('Finished Training')

PATH = os.path.join(tempfile.mkdtemp(), 'cifar_net.pth')
torch.save(net.state_dict(), PATH)
net = Net()
net.load_state_dict(torch.load(PATH, weights_only=True))
net.to(device)

outputs = net(imgs.to(device))
_, predicted = torch.max(outputs, 1)
print('Predicted: ', ' '.join(f'{classes[predicted[j]]:5s}' for j in range(4)))

correct = 0
total = 0
with torch.no_grad():
    for data in testloader:
        images_b, labels_b = data[0].to(device), data[1].to(device)
        outputs = net(images_b)
        _, predicted = torch.max(outputs.data, 1)
        total += labels_b.size(0)
        correct += (predicted == labels_b).sum().item()
print(f'Accuracy of the network on the 16 test images: {100 * correct // total} %')

correct_pred = {classname: 0 for classname in classes}
total_pred = {classname: 0 for classname in classes}
with torch.no_grad():
    for data in testloader:
        images_b, labels_b = data[0].to(device), data[1].to(device)
        outputs = net(images_b)
        _, predictions = torch.max(outputs, 1)
        for label, prediction in zip(labels_b, predictions):
            if label == prediction:
                correct_pred[classes[label]] += 1
            total_pred[classes[label]] += 1
for classname, correct_count in correct_pred.items():
    if total_pred[classname]:
        accuracy = 100 * float(correct_count) / total_pred[classname]
        print(f'Accuracy for class: {classname:5s} is {accuracy:.1f} %')
print(outputs.device.type, predictions.dtype, torch.max(outputs, 1))
