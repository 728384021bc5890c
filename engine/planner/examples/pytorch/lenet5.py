"""LeNet-5 (LeCun, Bottou, Bengio and Haffner, 1998) classifying MNIST's 28 x 28 digits: two
convolutions with tanh and average pooling, then three fully connected layers, trained with SGD
and momentum. `course plan --torch` calls training_step() and traces one step of it."""

import torch
from torch import nn


class LeNet5(nn.Module):
    def __init__(self, classes=10):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 6, kernel_size=5, padding=2), nn.Tanh(), nn.AvgPool2d(2),
            nn.Conv2d(6, 16, kernel_size=5), nn.Tanh(), nn.AvgPool2d(2))
        self.classifier = nn.Sequential(
            nn.Flatten(), nn.Linear(16 * 5 * 5, 120), nn.Tanh(), nn.Linear(120, 84), nn.Tanh(),
            nn.Linear(84, classes))

    def forward(self, images):
        return self.classifier(self.features(images))


def training_step(batch_size=64):
    model = LeNet5()
    return {
        "model": model,
        "inputs": (batch_size, 1, 28, 28),  # a batch of images: a shape is enough
        "targets": (batch_size,),  # their classes
        "loss": nn.CrossEntropyLoss(),
        "optimizer": torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9),
    }
