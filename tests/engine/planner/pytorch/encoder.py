"""The planner's encoder family in PyTorch: transformers' BertForSequenceClassification as
modeling_bert.py writes it (embeddings, post-norm layers of eager self-attention and a GELU
feed-forward, the pooler and the classifier), at bert-base-uncased's size, 128 tokens, batch 8,
AdamW; for the test that plans bert_base_uncased natively (eager attention) and from this file's
trace, and requires the two to agree."""

import math

import torch
from torch import nn

HIDDEN, LAYERS, HEADS, INTERMEDIATE, VOCAB, POSITIONS, DROPOUT = 768, 12, 12, 3072, 30522, 512, 0.1


class SelfAttention(nn.Module):
    def __init__(self):
        super().__init__()
        self.query, self.key, self.value = (nn.Linear(HIDDEN, HIDDEN) for _ in range(3))
        self.dropout = nn.Dropout(DROPOUT)

    def heads(self, x):
        return x.view(x.size(0), x.size(1), HEADS, HIDDEN // HEADS).permute(0, 2, 1, 3)

    def forward(self, hidden, mask):
        q, k, v = self.heads(self.query(hidden)), self.heads(self.key(hidden)), self.heads(
            self.value(hidden))
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(HIDDEN // HEADS) + mask
        context = torch.matmul(self.dropout(nn.functional.softmax(scores, dim=-1)), v)
        return context.permute(0, 2, 1, 3).reshape(hidden.size(0), hidden.size(1), HIDDEN)


class Layer(nn.Module):
    def __init__(self):
        super().__init__()
        self.attention = SelfAttention()
        self.attention_output = nn.Linear(HIDDEN, HIDDEN)
        self.attention_norm = nn.LayerNorm(HIDDEN, eps=1e-12)
        self.intermediate = nn.Linear(HIDDEN, INTERMEDIATE)
        self.output = nn.Linear(INTERMEDIATE, HIDDEN)
        self.output_norm = nn.LayerNorm(HIDDEN, eps=1e-12)
        self.dropout = nn.Dropout(DROPOUT)
        self.gelu = nn.GELU()

    def forward(self, hidden, mask):
        attended = self.dropout(self.attention_output(self.attention(hidden, mask)))
        attended = self.attention_norm(attended + hidden)
        out = self.dropout(self.output(self.gelu(self.intermediate(attended))))
        return self.output_norm(out + attended)


class Bert(nn.Module):
    def __init__(self, labels=2):
        super().__init__()
        self.words = nn.Embedding(VOCAB, HIDDEN)
        self.positions = nn.Embedding(POSITIONS, HIDDEN)
        self.token_types = nn.Embedding(2, HIDDEN)
        self.embedding_norm = nn.LayerNorm(HIDDEN, eps=1e-12)
        self.dropout = nn.Dropout(DROPOUT)
        self.layers = nn.ModuleList(Layer() for _ in range(LAYERS))
        self.pooler = nn.Linear(HIDDEN, HIDDEN)
        self.classifier = nn.Linear(HIDDEN, labels)
        self.register_buffer("position_ids", torch.arange(POSITIONS).expand((1, -1)))
        self.register_buffer("token_type_ids", torch.zeros(1, POSITIONS, dtype=torch.long))

    def forward(self, input_ids, attention_mask):
        length = input_ids.size(1)
        h = (self.words(input_ids) + self.positions(self.position_ids[:, :length])
             + self.token_types(self.token_type_ids[:, :length]))
        h = self.dropout(self.embedding_norm(h))
        # get_extended_attention_mask: (1 - mask) x the dtype's lowest, over heads and queries
        mask = (1.0 - attention_mask[:, None, None, :].to(torch.float32)) * torch.finfo(
            torch.float32).min
        for layer in self.layers:
            h = layer(h, mask)
        pooled = torch.tanh(self.pooler(h[:, 0]))
        return self.classifier(self.dropout(pooled))


def training_step(batch_size=8):
    model = Bert()
    return {"model": model,
            "inputs": (torch.randint(0, VOCAB, (batch_size, 128)),
                       torch.ones(batch_size, 128, dtype=torch.long)),
            "targets": (batch_size,), "loss": nn.CrossEntropyLoss(),
            "optimizer": torch.optim.AdamW(model.parameters(), lr=2e-5, weight_decay=0.0)}
