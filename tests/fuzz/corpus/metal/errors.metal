kernel void k(device float* x) { x[0] = (((1 + 2) * 3) / 0.0f; }
What
