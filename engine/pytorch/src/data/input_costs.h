#pragma once
// Internal: what an input pipeline's work costs on a simulated machine, on one performance core
// (input_costs.cpp says where each number comes from): the per-sample work of decoding,
// transforming and tokenizing, and what DataLoader worker processes cost to start and to hold.

#include <cstdint>

#include "engine/machine.h"

namespace engine::detail {

// How a DataLoader starts its workers (multiprocessing's start methods).
enum class StartMethod { Spawn, Fork, Forkserver };

// Seconds of one core of `machine` for each step of an image's way to a tensor.
double jpeg_decode_seconds(double stored_pixels, const MachineProfile& machine);
double resize_seconds(double output_pixels, const MachineProfile& machine);     // or a resized crop
double flip_seconds(double output_pixels, const MachineProfile& machine);       // when it flips
double crop_seconds(double output_pixels, const MachineProfile& machine);       // a padded crop
double to_tensor_seconds(double output_pixels, const MachineProfile& machine);  // and Normalize
double tokenize_seconds(double tokens, const MachineProfile& machine);
// Python's own work per sample beside those (__getitem__, the transforms' calls).
double sample_overhead_seconds(const MachineProfile& machine);

// The main process's time to start one worker, and the worker's until it can load a batch;
// `dataset_bytes`: what is pickled to it.
double parent_start_seconds(StartMethod method, double dataset_bytes,
                            const MachineProfile& machine);
double worker_start_seconds(StartMethod method, double dataset_bytes,
                            const MachineProfile& machine);
// A worker's resident memory of its own, before the dataset's copy and the batches it holds.
std::uint64_t worker_base_bytes(StartMethod method);
// The main process taking one batch off the workers' queue (unpickling it, mapping its shared
// memory), per tensor in the batch.
double batch_receive_seconds(const MachineProfile& machine);
// Bytes a Python object of one (path, class) entry of an image folder's list takes.
std::uint64_t path_entry_bytes();

}  // namespace engine::detail
