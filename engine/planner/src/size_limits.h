#pragma once
// The ranges the planner takes a config's sizes in: wide enough for every published model a
// Mac could train, narrow enough that a plan stays within seconds a machine and its sizes far
// within 64-bit integers. Each family applies those of its fields; family.h checks the tensors
// they multiply into.

#include <cstdint>

namespace planner::limits {

// Layers: Llama 3.1 405B has 126, GPT-3 175B 96.
inline constexpr std::int64_t kLayers = 128;
// Attention heads: Llama 3.1 405B has 128, GPT-3 96.
inline constexpr std::int64_t kHeads = 1024;
// A model's width: GPT-3's is 12288, Llama 3.1 405B's 16384.
inline constexpr std::int64_t kWidth = 65536;
// A feed-forward layer's: four widths.
inline constexpr std::int64_t kFeedForward = 4 * kWidth;
// Tokens a sequence holds, and in a vocabulary (Gemma's 256,000 tokens): 2^20.
inline constexpr std::int64_t kSequence = 1 << 20;
inline constexpr std::int64_t kVocabulary = 1 << 20;
// Classes (ImageNet-21k's 21,843), and an MLP's widths (a flattened 1024 x 1024 image).
inline constexpr std::int64_t kClasses = 1 << 20;
// Samples a step or micro-step: the batch sweep's largest.
inline constexpr std::int64_t kBatch = 1 << 16;
// Micro-steps an optimizer step accumulates (a plan times at most five of them a machine and
// device, prediction.cpp's run_steady, so this bounds no plan's time).
inline constexpr std::int64_t kMicroSteps = 1024;
// ATen operators a traced forward pass may dispatch: about thirty a layer of a GPT, so about as
// many as 2048 layers run, each forward and backward pass about 2 ms on one core of a 2024
// laptop.
inline constexpr std::int64_t kTracedOperators = 1 << 16;
// Pixels an image's side, and its channels.
inline constexpr std::int64_t kImageSide = 8192;
inline constexpr std::int64_t kChannels = 1024;
// DataLoader workers, each a process of its own (a Mac has at most 32 cpu cores), and the
// samples a dataset lists (ImageNet-21k's 14 million, twice over).
inline constexpr std::int64_t kWorkers = 64;
inline constexpr std::int64_t kSamples = 1 << 25;
// Steps between two reads of the loss (a million: a log line a day at 10 steps a second).
inline constexpr std::int64_t kLogInterval = 1'000'000;
// Elements one tensor may hold: 512 GiB in float32, the memory of the largest Mac sold (Mac
// Studio with M3 Ultra). Every byte count the engine keeps then stays far within 64 bits.
inline constexpr double kTensorElements = 137'438'953'472.0;  // 2^37

}  // namespace planner::limits
