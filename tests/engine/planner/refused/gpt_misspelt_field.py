# nanoGPT names it n_embd
n_layer = 4
n_embed = 256
