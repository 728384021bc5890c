"""A U-Net (Ronneberger, Fischer and Brox, 2015) segmenting 256 x 256 RGB images into 2 classes:
four levels of two 3 x 3 convolutions with batch norm and ReLU, max pooling down, transposed
convolutions up, each joined to its level's features by concatenation, and a 1 x 1 convolution
that scores every pixel, trained with Adam. `course plan --torch` calls training_step() and
traces one step of it."""

import torch
from torch import nn


def double_conv(channels_in, channels_out):
    return nn.Sequential(
        nn.Conv2d(channels_in, channels_out, 3, padding=1, bias=False),
        nn.BatchNorm2d(channels_out), nn.ReLU(),
        nn.Conv2d(channels_out, channels_out, 3, padding=1, bias=False),
        nn.BatchNorm2d(channels_out), nn.ReLU())


class UNet(nn.Module):
    def __init__(self, channels=3, classes=2, width=32, levels=4):
        super().__init__()
        widths = [width << level for level in range(levels)]
        self.down = nn.ModuleList()
        for w in widths:
            self.down.append(double_conv(channels, w))
            channels = w
        self.pool = nn.MaxPool2d(2)
        self.bottom = double_conv(widths[-1], widths[-1] * 2)
        self.up = nn.ModuleList()
        self.merge = nn.ModuleList()
        for w in reversed(widths):
            self.up.append(nn.ConvTranspose2d(w * 2, w, 2, stride=2))
            self.merge.append(double_conv(w * 2, w))
        self.score = nn.Conv2d(widths[0], classes, 1)

    def forward(self, x):
        skips = []
        for block in self.down:
            x = block(x)
            skips.append(x)
            x = self.pool(x)
        x = self.bottom(x)
        for up, merge, skip in zip(self.up, self.merge, reversed(skips)):
            x = merge(torch.cat([skip, up(x)], dim=1))
        return self.score(x)


def training_step(batch_size=8):
    model = UNet()
    return {
        "model": model,
        "inputs": (batch_size, 3, 256, 256),
        "targets": (batch_size, 256, 256),  # a class for every pixel
        "loss": nn.CrossEntropyLoss(),
        "optimizer": torch.optim.Adam(model.parameters(), lr=1e-3),
    }
