n_layer = 2 ** 3
