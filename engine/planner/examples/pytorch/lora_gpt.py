"""A LoRA fine-tune (Hu et al., 2021) of a small GPT: nanoGPT's model (6 layers, 6 heads, 384
wide, 256 tokens of context) with its weights frozen, and a trainable low-rank update (rank 8,
alpha 16) beside the query-key-value projection of every attention block, as peft's LoRA
targets c_attn; only the adapters get gradients and AdamW state. `course plan --torch` calls
training_step() and traces one step of it."""

import math

import torch
from torch import nn
from torch.nn import functional as F


class LoRALinear(nn.Module):
    """A frozen linear layer plus B A x scaled by alpha / rank; B starts at zero."""

    def __init__(self, features_in, features_out, rank=8, alpha=16):
        super().__init__()
        self.base = nn.Linear(features_in, features_out)
        self.base.requires_grad_(False)
        self.lora_a = nn.Parameter(torch.randn(rank, features_in) / math.sqrt(rank))
        self.lora_b = nn.Parameter(torch.zeros(features_out, rank))
        self.scale = alpha / rank

    def forward(self, x):
        return self.base(x) + F.linear(F.linear(x, self.lora_a), self.lora_b) * self.scale


class Block(nn.Module):
    def __init__(self, width, heads):
        super().__init__()
        self.heads = heads
        self.ln_1, self.ln_2 = nn.LayerNorm(width), nn.LayerNorm(width)
        self.c_attn = LoRALinear(width, 3 * width)
        self.c_proj = nn.Linear(width, width)
        self.mlp = nn.Sequential(nn.Linear(width, 4 * width), nn.GELU(), nn.Linear(4 * width, width))

    def attention(self, x):
        batch, tokens, width = x.shape
        q, k, v = self.c_attn(x).split(width, dim=2)
        q, k, v = (t.view(batch, tokens, self.heads, width // self.heads).transpose(1, 2)
                   for t in (q, k, v))
        scores = (q @ k.transpose(-2, -1)) / math.sqrt(width // self.heads)
        mask = torch.ones(tokens, tokens, dtype=torch.bool, device=x.device).triu(1)
        y = F.softmax(scores.masked_fill(mask, float("-inf")), dim=-1) @ v
        return self.c_proj(y.transpose(1, 2).reshape(batch, tokens, width))

    def forward(self, x):
        x = x + self.attention(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))


class GPT(nn.Module):
    def __init__(self, vocab=50304, context=256, width=384, layers=6, heads=6):
        super().__init__()
        self.wte, self.wpe = nn.Embedding(vocab, width), nn.Embedding(context, width)
        self.blocks = nn.ModuleList(Block(width, heads) for _ in range(layers))
        self.ln_f = nn.LayerNorm(width)
        self.lm_head = nn.Linear(width, vocab, bias=False)
        self.lm_head.weight = self.wte.weight  # tied, as nanoGPT ties them

    def forward(self, idx):
        positions = torch.arange(idx.shape[1], device=idx.device)
        x = self.wte(idx) + self.wpe(positions)
        for block in self.blocks:
            x = block(x)
        return self.lm_head(self.ln_f(x))


def training_step(batch_size=16):
    model = GPT()
    for name, parameter in model.named_parameters():
        parameter.requires_grad_("lora_" in name)  # only the adapters train
    tokens = torch.randint(0, 50304, (batch_size, 256))
    return {
        "model": model,
        "inputs": tokens,
        "targets": torch.randint(0, 50304, (batch_size, 256)),
        "loss": lambda logits, targets: F.cross_entropy(logits.view(-1, logits.size(-1)),
                                                        targets.view(-1)),
        "optimizer": torch.optim.AdamW([p for p in model.parameters() if p.requires_grad],
                                       lr=2e-4),
    }
