"""The planner's GPT family in PyTorch: nanoGPT's model.py (6 layers, 6 heads, 384 wide, 256 tokens
of context, 65 tokens, dropout 0.2, no biases; its attention written out, as model.py computes it
where PyTorch has no scaled_dot_product_attention), trained as train.py does one micro-step:
AdamW with betas (0.9, 0.95), the gradients clipped to 1.0. For the test that plans
train_shakespeare_char natively (eager attention) and from this file's trace."""

import math

import torch
from torch import nn
from torch.nn import functional as F

LAYERS, HEADS, WIDTH, CONTEXT, VOCAB, DROPOUT = 6, 6, 384, 256, 65, 0.2


class LayerNorm(nn.Module):
    """model.py's LayerNorm without a bias."""

    def __init__(self, width):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(width))

    def forward(self, x):
        return F.layer_norm(x, self.weight.shape, self.weight, None, 1e-5)


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln_1, self.ln_2 = LayerNorm(WIDTH), LayerNorm(WIDTH)
        self.c_attn = nn.Linear(WIDTH, 3 * WIDTH, bias=False)
        self.c_proj = nn.Linear(WIDTH, WIDTH, bias=False)
        self.c_fc = nn.Linear(WIDTH, 4 * WIDTH, bias=False)
        self.mlp_proj = nn.Linear(4 * WIDTH, WIDTH, bias=False)
        self.register_buffer("bias", torch.tril(torch.ones(CONTEXT, CONTEXT))
                             .view(1, 1, CONTEXT, CONTEXT))

    def attention(self, x):
        B, T, C = x.size()
        q, k, v = self.c_attn(x).split(WIDTH, dim=2)
        k = k.view(B, T, HEADS, C // HEADS).transpose(1, 2)
        q = q.view(B, T, HEADS, C // HEADS).transpose(1, 2)
        v = v.view(B, T, HEADS, C // HEADS).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        att = att.masked_fill(self.bias[:, :, :T, :T] == 0, float("-inf"))
        att = F.dropout(F.softmax(att, dim=-1), DROPOUT, self.training)
        y = (att @ v).transpose(1, 2).contiguous().view(B, T, C)
        return F.dropout(self.c_proj(y), DROPOUT, self.training)

    def forward(self, x):
        x = x + self.attention(self.ln_1(x))
        mlp = F.dropout(self.mlp_proj(F.gelu(self.c_fc(self.ln_2(x)))), DROPOUT, self.training)
        return x + mlp


class GPT(nn.Module):
    def __init__(self):
        super().__init__()
        self.wte, self.wpe = nn.Embedding(VOCAB, WIDTH), nn.Embedding(CONTEXT, WIDTH)
        self.h = nn.ModuleList(Block() for _ in range(LAYERS))
        self.ln_f = LayerNorm(WIDTH)
        self.lm_head = nn.Linear(WIDTH, VOCAB, bias=False)
        self.lm_head.weight = self.wte.weight

    def forward(self, idx, targets):
        pos = torch.arange(0, idx.size(1), dtype=torch.long, device=idx.device)
        x = F.dropout(self.wte(idx) + self.wpe(pos), DROPOUT, self.training)
        for block in self.h:
            x = block(x)
        logits = self.lm_head(self.ln_f(x))
        return F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1), ignore_index=-1)


def training_step(batch_size=64):
    model = GPT()
    tokens = torch.randint(0, VOCAB, (batch_size, CONTEXT))
    return {"model": model, "inputs": (tokens, torch.randint(0, VOCAB, (batch_size, CONTEXT))),
            "optimizer": torch.optim.AdamW(model.parameters(), lr=1e-3, betas=(0.9, 0.95)),
            "clip_grad_norm": 1.0}
