#!/usr/bin/env python3
"""Writes tests/data/torch_training_step.txt: PyTorch's numbers for the course's classifier.

Run with a real PyTorch on an x86 machine with AVX2 (the reference data came from Debian's
python3-torch 1.13.1), where it draws the same random numbers as the engine's linux-x86_64
profile:

    python3 tests/tools/make_torch_training_reference.py > tests/data/torch_training_step.txt

For each seed: the seed lesson's step (nn.Linear(768, 3) created first, a (32, 128, 768)
batch averaged over tokens, cross-entropy on the first four rows with labels [0, 2, 1, 0], one
SGD step with lr 0.1), then three steps of SGD with momentum, of Adam, and of Adam on a small
MLP. Each line is "SEED NAME VALUE..." with values as Python prints floats (repr).
"""
from torch_reference import run_with_avx2

CHILD = r'''
import torch
import torch.nn as nn
import torch.nn.functional as F

def norm(t):
    return t.double().norm().item()

def setup(seed):
    torch.manual_seed(seed)
    model = nn.Linear(768, 3)
    vectors = torch.randn(32, 128, 768).mean(dim=1)
    return model, vectors

def line(seed, name, *values):
    print(seed, name, " ".join(repr(float(v)) for v in values))

labels = torch.tensor([0, 2, 1, 0])
for seed in [0, 1, 42]:
    model, vectors = setup(seed)
    weight_before = model.weight.detach().clone()
    bias_before = model.bias.detach().clone()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    optimizer.zero_grad()
    loss = F.cross_entropy(model(vectors[:4]), labels)
    loss.backward()
    line(seed, "loss", loss.item())
    line(seed, "weight_grad_norm", norm(model.weight.grad))
    line(seed, "bias_grad", *model.bias.grad.tolist())
    optimizer.step()
    line(seed, "weight_delta_norm", norm(model.weight.detach() - weight_before))
    line(seed, "bias_delta", *(model.bias.detach() - bias_before).tolist())
    line(seed, "loss_after_step", F.cross_entropy(model(vectors[:4]), labels).item())

    for name, make in [("sgd_momentum_losses", lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9)),
                       ("adam_losses", lambda p: torch.optim.Adam(p, lr=0.01))]:
        model, vectors = setup(seed)
        optimizer = make(model.parameters())
        losses = []
        for _ in range(3):
            optimizer.zero_grad()
            loss = F.cross_entropy(model(vectors[:4]), labels)
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
        losses.append(F.cross_entropy(model(vectors[:4]), labels).item())
        line(seed, name, *losses)
        line(seed, name.replace("losses", "weight_norm"), norm(model.weight.detach()))

    torch.manual_seed(seed)
    mlp = nn.Sequential(nn.Linear(768, 64), nn.ReLU(), nn.Linear(64, 3))
    vectors = torch.randn(32, 128, 768).mean(dim=1)
    targets = torch.arange(32) % 3
    optimizer = torch.optim.Adam(mlp.parameters(), lr=0.01)
    losses = []
    for _ in range(3):
        optimizer.zero_grad()
        loss = F.cross_entropy(mlp(vectors), targets)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    line(seed, "mlp_adam_losses", *losses)
'''


def main():
    run_with_avx2(CHILD, "classifier steps; see tests/tools/make_torch_training_reference.py")


if __name__ == "__main__":
    main()
