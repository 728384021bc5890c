# GPT-2 small on OpenWebText, in the style of nanoGPT's config/train_gpt2.py: the model keeps
# train.py's defaults, and the batch is accumulated over micro-steps.
import time

wandb_log = True
wandb_project = 'owt'
wandb_run_name='gpt2-124M-' + str(time.time())  # not a literal: ignored, as the planner does not use it

batch_size = 12
block_size = 1024
gradient_accumulation_steps = 5 * 8

max_iters = 600000
eval_interval = 1000
weight_decay = 1e-1
