# nanoGPT's character-level Shakespeare recipe, in the form of its config/*.py files: train.py
# globals assigned one per line, with comments, strings and booleans.

out_dir = 'out-shakespeare-char'
eval_interval = 250  # evaluations are frequent: the model overfits
eval_iters = 200
log_interval = 10

always_save_checkpoint = False

wandb_log = False
wandb_project = 'shakespeare-char'
wandb_run_name = 'mini-gpt'

dataset = 'shakespeare_char'
gradient_accumulation_steps = 1
batch_size = 64
block_size = 256 # characters of context

n_layer = 6
n_head = 6
n_embd = 384
dropout = 0.2

learning_rate = 1e-3
max_iters = 5000
lr_decay_iters = 5000
min_lr = 1e-4
beta2 = 0.99

warmup_iters = 100

# device = 'cpu'  # commented out: not read
compile = False
