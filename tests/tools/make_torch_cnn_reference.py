#!/usr/bin/env python3
"""Writes tests/data/torch_cnn_step.txt: a tiny convolutional network trained by real PyTorch.

Run with a real PyTorch on an x86 machine with AVX2 (the reference came from Debian's
python3-torch 1.13.1):

    python3 tests/tools/make_torch_cnn_reference.py > tests/data/torch_cnn_step.txt

The network has the parts of torchvision's CNNs in miniature: a padded 3x3 convolution with a
bias, batch norm in training mode, ReLU, a 3x3 max pool of stride 2, a strided convolution
without bias, batch norm, ReLU, an adaptive average pool to 2x2 feeding a linear classifier,
and one to 1x1 (a mean) feeding a second loss term. Its parameters and input are drawn with
randn in a fixed order; three steps of SGD with momentum follow. Seeds 0 and 1 use 9x9 images,
whose 3x3 feature map pools to 2x2 in uneven windows (the cpu only: PyTorch's MPS kernel refuses
such sizes); seeds 2 and 3 use 13x13 images, whose 4x4 map divides evenly. Each line is
"SEED NAME VALUE..." with values as Python prints floats.
"""
from torch_reference import run_with_avx2

CHILD = r'''
import torch
import torch.nn.functional as F

def line(seed, name, *values):
    print(seed, name, " ".join(repr(float(v)) for v in values))

def parameters():
    shapes = [("conv1", (4, 3, 3, 3), 0.3), ("conv1_b", (4,), 0.1), ("bn1_w", (4,), 0.1),
              ("bn1_b", (4,), 0.1), ("conv2", (5, 4, 3, 3), 0.3), ("bn2_w", (5,), 0.1),
              ("bn2_b", (5,), 0.1), ("fc", (3, 20), 0.3), ("fc_b", (3,), 0.1)]
    return {name: (torch.randn(*shape) * scale).requires_grad_() for name, shape, scale in shapes}

def forward(p, stats, x, targets):
    h = F.conv2d(x, p["conv1"], p["conv1_b"], padding=1)
    h = F.relu(F.batch_norm(h, stats["m1"], stats["v1"], p["bn1_w"] + 1.0, p["bn1_b"], training=True))
    h = F.max_pool2d(h, 3, stride=2, padding=1)
    h = F.conv2d(h, p["conv2"], stride=2, padding=1)
    h = F.relu(F.batch_norm(h, stats["m2"], stats["v2"], p["bn2_w"] + 1.0, p["bn2_b"], training=True))
    logits = F.linear(F.adaptive_avg_pool2d(h, (2, 2)).reshape(2, 20), p["fc"], p["fc_b"])
    pooled = F.adaptive_avg_pool2d(h, (1, 1)).reshape(2, 5)
    return F.cross_entropy(logits, targets) + F.cross_entropy(pooled[:, :3], targets)

for seed in [0, 1, 2, 3]:
    torch.manual_seed(seed)
    p = parameters()
    side = 9 if seed < 2 else 13
    x = torch.randn(2, 3, side, side).requires_grad_()
    targets = torch.tensor([0, 2])
    stats = {"m1": torch.zeros(4), "v1": torch.ones(4), "m2": torch.zeros(5), "v2": torch.ones(5)}
    optimizer = torch.optim.SGD(p.values(), lr=0.1, momentum=0.9)
    losses = []
    for step in range(3):
        optimizer.zero_grad()
        x.grad = None
        loss = forward(p, stats, x, targets)
        loss.backward()
        if step == 0:
            line(seed, "grad_sums", x.grad.double().sum().item(), x.grad.abs().double().sum().item(),
                 p["conv1"].grad.double().sum().item(), p["conv2"].grad.abs().double().sum().item(),
                 p["bn1_w"].grad.double().sum().item(), p["conv1_b"].grad.double().sum().item())
        optimizer.step()
        losses.append(loss.item())
    line(seed, "losses", *losses)
    line(seed, "running", stats["m1"].double().sum().item(), stats["v1"].double().sum().item(),
         stats["m2"].double().sum().item(), stats["v2"].double().sum().item())
'''


def main():
    run_with_avx2(CHILD, "tiny CNN; see tests/tools/make_torch_cnn_reference.py")


if __name__ == "__main__":
    main()
