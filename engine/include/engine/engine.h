#pragma once
// Everything a lesson or lab uses from the engine. Lean by design: no Eigen, no fmt, so a
// translation unit that includes it compiles in a fraction of a second.

#include "engine/backends/mps.h"
#include "engine/device.h"
#include "engine/errors.h"
#include "engine/factories.h"
#include "engine/machine.h"
#include "engine/mps.h"
#include "engine/nn/functional.h"
#include "engine/nn/init.h"
#include "engine/nn/linear.h"
#include "engine/nn/module.h"
#include "engine/platform.h"
#include "engine/python_format.h"
#include "engine/random.h"
#include "engine/scalar_type.h"
#include "engine/sim.h"
#include "engine/tensor.h"
#include "engine/tensor_options.h"
#include "engine/version.h"
