"""The planner's MLP family in PyTorch: examples/mnist_mlp.toml's classifier (784-512-256-10,
ReLU and dropout 0.0 between the layers, batch 128, Adam), for the test that plans it natively and
from this file's trace and requires the two to agree."""

import torch
from torch import nn


def training_step(batch_size=128):
    widths = [784, 512, 256, 10]
    layers = []
    for i in range(len(widths) - 1):
        layers.append(nn.Linear(widths[i], widths[i + 1]))
        if i + 2 < len(widths):
            layers += [nn.ReLU(), nn.Dropout(0.0)]
    model = nn.Sequential(*layers)
    return {"model": model, "inputs": (batch_size, 784), "targets": (batch_size,),
            "loss": nn.CrossEntropyLoss(), "optimizer": torch.optim.Adam(model.parameters())}
