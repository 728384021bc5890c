"""The texts, warnings, defaults and autograd node names the engine documents, each as a small
Python program whose output real PyTorch gives: capture_pytorch.py runs them on a PyTorch
release and records what they print (tests/data/pytorch-2.11/probes.json), and the engine's test
tests/engine/pytorch/pytorch_probes_test.cpp computes the same through the engine and compares.

Each probe runs alone, in a fresh child of a process that has imported torch, on the cpu (the
capture hides any GPU): every text here is one a learner meets without a Mac, or with one.
"""

PRELUDE = """import torch
import torch.nn.functional as F
import warnings


def error_of(run):
    try:
        run()
        print("no error")
    except Exception as e:  # the text Python prints for an uncaught error, without the traceback
        print(f"{type(e).__name__}: {e}")


def node(t):
    print(type(t.grad_fn).__name__ if t.grad_fn is not None else None)


x = torch.ones(2, 3, requires_grad=True)
"""

PROBES = {
    # Placing tensors on mps where PyTorch has no MPS backend (lesson 2).
    "mps_route_to": 'error_of(lambda: torch.ones(2).to("mps"))',
    "mps_route_tensor": 'error_of(lambda: torch.tensor([1.0, 2.0], device="mps"))',
    "mps_route_module_to": 'error_of(lambda: torch.nn.Linear(2, 2).to("mps"))',
    "mps_route_zeros": 'error_of(lambda: torch.zeros(2, device="mps"))',
    "mps_route_ones": 'error_of(lambda: torch.ones(2, device="mps"))',
    "mps_route_empty": 'error_of(lambda: torch.empty(2, device="mps"))',
    "mps_route_randn": 'error_of(lambda: torch.randn(2, device="mps"))',
    "mps_built_available": "print(torch.backends.mps.is_built(), torch.backends.mps.is_available())",
    "mps_synchronize_without_mps": "error_of(torch.mps.synchronize)",
    "mps_memory_without_mps": "error_of(torch.mps.current_allocated_memory)",
    "mps_empty_cache_without_mps": "error_of(torch.mps.empty_cache)",
    # torch.mps's random numbers without MPS, and the state check every generator shares.
    "mps_rng_state_without_mps": "error_of(torch.mps.get_rng_state)",
    "mps_seed_without_mps": "error_of(torch.mps.seed)",
    "mps_manual_seed_without_mps": "error_of(lambda: torch.mps.manual_seed(1))",
    "rng_state_not_bytes": "error_of(lambda: torch.set_rng_state(torch.zeros(44)))",
    "rng_state_wrong_size": "error_of(lambda: torch.set_rng_state(torch.zeros(3, dtype=torch.uint8)))",
    # Devices.
    "device_strings": 'print(torch.device("mps"), torch.device("mps:0"), torch.device("mps") == torch.device("mps:0"))',
    "device_unknown_type": 'error_of(lambda: torch.device("mpss"))',
    "device_empty": 'error_of(lambda: torch.device(""))',
    "device_bad_index": 'error_of(lambda: torch.device("cpu:x"))',
    "device_negative_index": 'error_of(lambda: torch.device("cpu", -2))',
    "device_cpu_index": 'error_of(lambda: torch.ones(1, device="cpu:1"))',
    # Autograd.
    "nonleaf_grad_warning": """y = x * 2
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print(y.grad)
for w in caught:
    print(f"{w.category.__name__}: {w.message}")""",
    "backward_twice": """y = (x * x).sum()
y.backward()
error_of(y.backward)""",
    "backward_twice_without_saved": """y = (x + 1).sum()
y.backward()
error_of(y.backward)
print(x.grad[0, 0].item())""",
    "backward_non_scalar": "error_of(lambda: (x * 2).backward())",
    "backward_no_grad_fn": "error_of(lambda: torch.ones(2).sum().backward())",
    "requires_grad_integer_factory": "error_of(lambda: torch.ones(2, dtype=torch.long, requires_grad=True))",
    "requires_grad_integer_method": "error_of(lambda: torch.arange(3).requires_grad_())",
    "requires_grad_nonleaf_false": "error_of(lambda: (x * 2).requires_grad_(False))",
    "no_grad_result": """with torch.no_grad():
    y = x * 2
print(y.requires_grad, y.grad_fn)""",
    # Autograd node names.
    "nodes_elementwise": """node(x + 1); node(x - 1); node(x * 2); node(x / 2); node(x + x); node(-x)""",
    "nodes_reductions": """node(x.sum()); node(x.mean()); node(x.sum(0)); node(x.mean(1))""",
    "nodes_shapes": """node(x.view(3, 2)); node(x.reshape(6)); node(x.transpose(0, 1)); node(x.t()); node(x.unsqueeze(0))""",
    "nodes_products": """w = torch.ones(3, 4, requires_grad=True)
node(x @ w); node(x.matmul(w)); node(x[0] @ w); node(torch.ones(5, 2, 3) @ w)""",
    "nodes_linear": """lin = torch.nn.Linear(3, 4)
node(lin(x)); node(lin(torch.ones(5, 2, 3))); node(F.linear(x, lin.weight)); node(lin(torch.ones(3)))""",
    "nodes_activations": """node(F.relu(x)); node(F.gelu(x)); node(torch.softmax(x, 1)); node(torch.log_softmax(x, 1))""",
    "nodes_losses": """logits = torch.ones(4, 3, requires_grad=True)
labels = torch.tensor([0, 1, 2, 1])
node(F.cross_entropy(logits, labels)); node(F.nll_loss(torch.log_softmax(logits, 1), labels)); node(F.mse_loss(logits, torch.zeros(4, 3)))""",
    "nodes_layers": """node(F.layer_norm(x, (3,)))
emb = torch.nn.Embedding(10, 4)
node(emb(torch.tensor([1, 2])))
torch.manual_seed(0)
node(F.dropout(x, 0.5, training=True))""",
    "tensor_repr_grad_fn": "print(repr(x * 2)); print(repr(x.sum()))",
    "tensor_repr_requires_grad": "print(repr(torch.ones(2, requires_grad=True)))",
    # Shapes and operands.
    "linear_shape_mismatch": "error_of(lambda: F.linear(torch.ones(3, 5), torch.ones(2, 4)))",
    "linear_zero_dim": "error_of(lambda: F.linear(torch.tensor(1.0), torch.ones(2, 1)))",
    "matmul_zero_dim": "error_of(lambda: torch.tensor(1.0) @ torch.ones(2))",
    "matmul_mv_mismatch": "error_of(lambda: torch.ones(2, 3) @ torch.ones(2))",
    "matmul_mm_mismatch": "error_of(lambda: torch.ones(2, 3) @ torch.ones(4, 5))",
    "matmul_bmm_mismatch": "error_of(lambda: torch.ones(2, 2, 3) @ torch.ones(3, 4, 5))",
    "broadcast_mismatch": "error_of(lambda: torch.ones(3) + torch.ones(4))",
    "reshape_two_inferred": "error_of(lambda: torch.ones(6).view(-1, -1))",
    "reshape_invalid": "error_of(lambda: torch.ones(6).view(4, 2))",
    "dimension_out_of_range": "error_of(lambda: torch.ones(2).sum(1))",
    "negative_dimension": "error_of(lambda: torch.empty(-1))",
    "arange_zero_step": "error_of(lambda: torch.arange(0, 5, 0))",
    "embedding_index_out_of_range": "error_of(lambda: torch.nn.Embedding(3, 2)(torch.tensor([3])))",
    "embedding_float_indices": "error_of(lambda: torch.nn.Embedding(3, 2)(torch.tensor([1.0])))",
    "cross_entropy_batch_mismatch": "error_of(lambda: F.cross_entropy(torch.ones(4, 3), torch.tensor([0, 1])))",
    "cross_entropy_multi_target": "error_of(lambda: F.cross_entropy(torch.ones(4, 3), torch.zeros(4, 1, dtype=torch.long)))",
    "layer_norm_shape_mismatch": "error_of(lambda: F.layer_norm(torch.ones(2, 3), (4,)))",
    "item_of_many": "error_of(lambda: torch.ones(2).item())",
    # Modules, optimizers and their defaults.
    "defaults_sgd": "print(torch.optim.SGD([x], lr=0.1).defaults)",
    "defaults_adam": "print(torch.optim.Adam([x]).defaults)",
    "defaults_adamw": "print(torch.optim.AdamW([x]).defaults)",
    "defaults_modules": """print(torch.nn.LayerNorm(4).eps, torch.nn.Dropout().p, torch.nn.GELU().approximate)
print(torch.nn.CrossEntropyLoss().reduction, torch.nn.CrossEntropyLoss().label_smoothing, torch.nn.CrossEntropyLoss().ignore_index)
print(repr(torch.nn.Linear(3, 4)), repr(torch.nn.Dropout(0.1)), repr(torch.nn.LayerNorm(4)), repr(torch.nn.GELU()))""",
    "sgd_bad_learning_rate": "error_of(lambda: torch.optim.SGD([x], lr=-1.0))",
    "sgd_bad_momentum": "error_of(lambda: torch.optim.SGD([x], lr=0.1, momentum=-0.5))",
    "sgd_bad_weight_decay": "error_of(lambda: torch.optim.SGD([x], lr=0.1, weight_decay=-1.0))",
    "sgd_nesterov": "error_of(lambda: torch.optim.SGD([x], lr=0.1, nesterov=True))",
    "adam_bad_betas": "error_of(lambda: torch.optim.Adam([x], betas=(1.0, 0.999)))\nerror_of(lambda: torch.optim.Adam([x], betas=(0.9, -0.1)))",
    "adam_bad_eps": "error_of(lambda: torch.optim.Adam([x], eps=-1e-8))",
    "optimizer_no_parameters": "error_of(lambda: torch.optim.SGD([], lr=0.1))",
    "dropout_bad_probability": "error_of(lambda: torch.nn.Dropout(1.5))",
    "kaiming_fan_in_1d": "error_of(lambda: torch.nn.init.kaiming_uniform_(torch.empty(3)))",
    "linear_init_bounds": """torch.manual_seed(0)
lin = torch.nn.Linear(768, 3)
print(f"{lin.weight.abs().max().item():.6f} {lin.bias.abs().max().item():.6f} {1 / 768 ** 0.5:.6f}")""",
    # Printing.
    "repr_floats": "print(torch.tensor([1.0, 2.5, -3.25])); print(torch.tensor([1e-5, 1.0])); print(torch.tensor([123456.0, 1.0]))",
    "repr_specials": 'print(torch.tensor([float("nan"), float("inf"), -float("inf"), 0.0]))',
    "repr_ints_bools": "print(torch.arange(5)); print(torch.tensor([True, False])); print(torch.tensor(3))",
    "repr_dtypes": "print(torch.ones(2).dtype, torch.arange(2).dtype, torch.tensor([True]).dtype)",
    "sum_of_integers": "print(torch.arange(5).sum(), torch.tensor([True, True]).sum(), torch.ones(0).mean())",
}
