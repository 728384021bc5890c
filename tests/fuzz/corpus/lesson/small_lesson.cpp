// %% [markdown]
// # A small lesson
//
// Prose with `code`.

// %%
#include "engine/notebook/lesson.h"
// %% [python]
// import torch

// %% sanity_check
TUTOR_CELL("the claim") {
  print("mps available:", true);
}
// %% [output]
// mps available: True
// %% [output] machine="linux-x86_64,rosetta-x86_64"
// mps available: False
// %% [python]
// print("mps available:", torch.backends.mps.is_available())

// %% second
TUTOR_CELL("another claim") {
  print(1);
}
// %% [output]
// 1
// %% [python] before="2.6" differs="older releases print it another way"
// print(1)
