# nanoGPT's config/*.py
import time
out_dir = 'out'
n_layer = 2
n_head = 2
n_embd = 32
block_size = 16
batch_size = 4
gradient_accumulation_steps = 2 * 2
dropout = 0.0
compile = False
dataset = 'shakespeare_char'
