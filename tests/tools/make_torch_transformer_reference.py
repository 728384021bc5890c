#!/usr/bin/env python3
"""Writes tests/data/torch_transformer_step.txt: a tiny GPT block trained by real PyTorch.

Run with a real PyTorch on an x86 machine with AVX2 (the reference came from Debian's
python3-torch 1.13.1):

    python3 tests/tools/make_torch_transformer_reference.py > tests/data/torch_transformer_step.txt

The model is nanoGPT's shape in miniature (vocabulary 11, 8 features, 2 heads, 6 positions,
batch 3, no biases, tied embedding and output weights, dropout off), its parameters drawn with
randn * 0.02 in a fixed order, trained for three AdamW steps (lr 1e-2, weight decay 0.1) with
gradients clipped to norm 0.5. Attention is written out as PyTorch's math implementation
computes it. Each line is "SEED NAME VALUE..." with values as Python prints floats.
"""
from torch_reference import run_with_avx2

CHILD = r'''
import math
import torch
import torch.nn.functional as F

V, C, H, T, B = 11, 8, 2, 6, 3

def line(seed, name, *values):
    print(seed, name, " ".join(repr(float(v)) for v in values))

def parameters():
    return {name: (torch.randn(*shape) * 0.02).requires_grad_()
            for name, shape in [("wte", (V, C)), ("wpe", (T, C)), ("ln1", (C,)), ("attn", (3 * C, C)),
                                ("proj", (C, C)), ("ln2", (C,)), ("fc", (4 * C, C)), ("fc2", (C, 4 * C)),
                                ("lnf", (C,))]}

def forward(p, idx, targets):
    x = p["wte"][idx] + p["wpe"][:T]
    h = F.layer_norm(x, [C], p["ln1"] + 1.0)
    qkv = F.linear(h, p["attn"])
    q, k, v = qkv.split(C, dim=2)
    q, k, v = [t.reshape(B, T, H, C // H).transpose(1, 2) for t in (q, k, v)]
    mask = torch.full((T, T), float("-inf")).triu(1)
    att = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(C // H) + mask, dim=-1) @ v
    x = x + F.linear(att.transpose(1, 2).reshape(B, T, C), p["proj"])
    x = x + F.linear(F.gelu(F.linear(F.layer_norm(x, [C], p["ln2"] + 1.0), p["fc"])), p["fc2"])
    logits = F.linear(F.layer_norm(x, [C], p["lnf"] + 1.0), p["wte"])
    return F.cross_entropy(logits.reshape(-1, V), targets.reshape(-1))

for seed in [0, 1]:
    torch.manual_seed(seed)
    p = parameters()
    idx = torch.arange(B * T).reshape(B, T) % V
    targets = (idx * 3 + 1) % V
    optimizer = torch.optim.AdamW(p.values(), lr=1e-2, weight_decay=0.1)
    losses, norms = [], []
    for _ in range(3):
        optimizer.zero_grad()
        loss = forward(p, idx, targets)
        loss.backward()
        norms.append(torch.nn.utils.clip_grad_norm_(p.values(), 0.5).item())
        optimizer.step()
        losses.append(loss.item())
    losses.append(forward(p, idx, targets).item())
    line(seed, "losses", *losses)
    line(seed, "grad_norms_before_clipping", *norms)
    line(seed, "wte_sum", p["wte"].detach().double().sum().item())
'''


def main():
    run_with_avx2(CHILD, "tiny GPT block; see tests/tools/make_torch_transformer_reference.py")


if __name__ == "__main__":
    main()
