"""The planner's CNN family in PyTorch: torchvision's ResNet-18 (torchvision/models/resnet.py's
BasicBlock layers, written out) on 224 x 224 images of 1000 classes, batch 32, SGD with momentum,
as examples' resnet TOML plans it natively; for the test that requires the two plans to agree."""

import torch
from torch import nn


class BasicBlock(nn.Module):
    def __init__(self, channels_in, channels, stride):
        super().__init__()
        self.conv1 = nn.Conv2d(channels_in, channels, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(channels)
        self.conv2 = nn.Conv2d(channels, channels, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(channels)
        self.relu = nn.ReLU()
        self.downsample = None
        if stride != 1 or channels_in != channels:
            self.downsample = nn.Sequential(nn.Conv2d(channels_in, channels, 1, stride, bias=False),
                                            nn.BatchNorm2d(channels))

    def forward(self, x):
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        identity = x if self.downsample is None else self.downsample(x)
        return self.relu(out + identity)


class ResNet18(nn.Module):
    def __init__(self, classes=1000):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 64, 7, 2, 3, bias=False)
        self.bn1 = nn.BatchNorm2d(64)
        self.relu = nn.ReLU()
        self.maxpool = nn.MaxPool2d(3, 2, 1)
        blocks, channels = [], 64
        for stage, planes in enumerate([64, 128, 256, 512]):
            for i in range(2):
                blocks.append(BasicBlock(channels, planes, 2 if stage > 0 and i == 0 else 1))
                channels = planes
        self.layers = nn.Sequential(*blocks)
        self.avgpool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(512, classes)

    def forward(self, x):
        x = self.maxpool(self.relu(self.bn1(self.conv1(x))))
        x = self.avgpool(self.layers(x))
        return self.fc(torch.flatten(x, 1))


def training_step(batch_size=32):
    model = ResNet18()
    return {"model": model, "inputs": (batch_size, 3, 224, 224), "targets": (batch_size,),
            "loss": nn.CrossEntropyLoss(),
            "optimizer": torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)}
