#pragma once
// The emulator's stand-ins for the datasets of real input pipelines, with the cpu work each
// sample costs on the simulated machine: decoding a JPEG, augmenting it, converting it to a
// tensor, tokenizing a text. Each is a torch::data dataset (engine/data.h), so a DataLoader
// (engine/data_loader.h) runs their work in the main process or in its workers, on the clock of
// whichever runs it. What each step costs, and the measurements behind it:
// engine/pytorch/src/data/input_costs.cpp. Not PyTorch: torchvision and tokenizers do this work
// in Python scripts. Values are a function of the index (every pixel of image i is i % 256
// / 255, its label i % classes), or shapes only under sim::ShapeOnlyGuard.
// Also here: the machine's memory as a whole, for "does it swap?".

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "engine/data.h"

namespace engine::sim {

// Spends `seconds` of cpu time of the process that runs it (a DataLoader worker, inside one)
// on `what`, a span of category "data": a dataset's own Python work between PyTorch calls.
void spend_cpu(std::string_view what, double seconds);

// Who holds the machine's unified memory: the process's MPS memory (driver_allocated_memory),
// the resident sets of the DataLoader workers it has started, and the other applications. The
// main process's own Python and cpu tensors are not counted (an emulator simplification).
struct MemoryUse {
  std::uint64_t mps_driver = 0;
  std::uint64_t dataloader_workers = 0;
  std::uint64_t other_apps = 0;
  std::uint64_t machine = 0;
  std::uint64_t in_use() const noexcept { return mps_driver + dataloader_workers + other_apps; }
  bool swaps() const noexcept { return in_use() > machine; }  // macOS pages the rest out
};
MemoryUse memory_use();

namespace data {

using Sample = engine::data::Example<>;

// A folder of JPEG files, as torchvision.datasets.ImageFolder(root, transform) reads one: get(i)
// opens image i (stored_width x stored_height pixels), decodes it with Pillow, and transforms
// it: with `augment`, RandomResizedCrop(output_size), RandomHorizontalFlip(), ToTensor() and
// Normalize(); without, Resize((output_size, output_size)), ToTensor() and Normalize(). Data:
// (3, output_size, output_size) float32; target: the class, int64.
struct JpegFolderOptions {
  std::size_t images = 50000;
  std::int64_t stored_width = 500;  // ImageNet's photos are about 500 x 400
  std::int64_t stored_height = 400;
  std::int64_t output_size = 224;
  bool augment = true;
  std::int64_t classes = 1000;
};
class JpegImageFolder : public engine::data::datasets::Dataset<JpegImageFolder> {
 public:
  explicit JpegImageFolder(JpegFolderOptions options = {}) : options_(options) {}
  Sample get(std::size_t index) override;
  std::optional<std::size_t> size() const override { return options_.images; }
  // The (path, class) list each spawned worker unpickles a copy of.
  std::uint64_t in_memory_bytes() const;

 private:
  JpegFolderOptions options_;
};

// Images held decoded in memory as one uint8 array, as torchvision.datasets.CIFAR10 holds them
// (MNIST's: one channel): get(i) converts image i (channels x side x side) to a tensor
// (ToTensor, Normalize), with `augment` after RandomCrop(side, padding=4) and
// RandomHorizontalFlip(). The array is a numpy array, which a spawned worker unpickles a copy of.
// The per-pixel costs were measured on RGB images: a grayscale pixel costs a third of one.
struct InMemoryImagesOptions {
  std::size_t images = 50000;
  std::int64_t side = 32;
  bool augment = false;
  std::int64_t classes = 10;
  std::int64_t channels = 3;  // 1: grayscale, as MNIST's
};
class InMemoryImages : public engine::data::datasets::Dataset<InMemoryImages> {
 public:
  explicit InMemoryImages(InMemoryImagesOptions options = {}) : options_(options) {}
  Sample get(std::size_t index) override;
  std::optional<std::size_t> size() const override { return options_.images; }
  std::uint64_t in_memory_bytes() const;

 private:
  InMemoryImagesOptions options_;
};

// Texts tokenized as they are read: get(i) runs a BPE tokenizer (tiktoken's GPT-2 encoding) over
// text i and pads or cuts it to `tokens` ids. Data: (tokens) int64 ids; target: the class.
struct TextOptions {
  std::size_t texts = 25000;
  std::int64_t tokens = 512;
  std::int64_t classes = 2;
  std::uint64_t bytes_per_text = 1300;  // the raw text each worker keeps a copy of
};
class TokenizedTexts : public engine::data::datasets::Dataset<TokenizedTexts> {
 public:
  explicit TokenizedTexts(TextOptions options = {}) : options_(options) {}
  Sample get(std::size_t index) override;
  std::optional<std::size_t> size() const override { return options_.texts; }
  std::uint64_t in_memory_bytes() const;

 private:
  TextOptions options_;
};

}  // namespace data
}  // namespace engine::sim
