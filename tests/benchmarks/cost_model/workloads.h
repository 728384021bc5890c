#pragma once
// Runs a case through the engine's real API on its simulated machine, timed the way the
// published script timed it, and returns the prediction in the case's unit.

#include "cases.h"
#include "planner/model_config.h"

namespace cost_model {

double predict(const Case& c);

// The models (models/*.cpp): each returns the prediction in its case's unit.
double nanogpt(const Case& c);
// A GPT's config: `defaults`, with what the case's model table sets (models/nanogpt.cpp).
planner::ModelConfig gpt_config(const Case& c, planner::ModelConfig defaults);
// A GPT fine-tuned for classification, as LLMs-from-scratch's chapter 6 trains it.
double gpt_classifier(const Case& c);
// A classifier's training (or inference) steps: Hugging Face's encoders ("bert", "distilbert",
// "vit"), torchvision's CNNs (by name), an MLP.
double classifier(const Case& c);

}  // namespace cost_model
