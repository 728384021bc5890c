"""A custom MLP for tabular data: 64 features in, three hidden layers of 512 with ReLU and
dropout after each, 10 classes out, trained with AdamW. `course plan --torch` calls
training_step() and traces one step of it."""

import torch
from torch import nn


class TabularMLP(nn.Module):
    def __init__(self, features=64, hidden=512, layers=3, classes=10, dropout=0.2):
        super().__init__()
        blocks, width = [], features
        for _ in range(layers):
            blocks += [nn.Linear(width, hidden), nn.ReLU(), nn.Dropout(dropout)]
            width = hidden
        self.body = nn.Sequential(*blocks)
        self.head = nn.Linear(width, classes)

    def forward(self, x):
        return self.head(self.body(x))


def training_step(batch_size=256):
    model = TabularMLP()
    return {
        "model": model,
        "inputs": (batch_size, 64),
        "targets": (batch_size,),
        "loss": nn.CrossEntropyLoss(),
        "optimizer": torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.01),
    }
