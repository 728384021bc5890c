// The CNN family's network (cnn.cpp reads its settings): torchvision's classification CNNs on the
// engine (torchvision/models/resnet.py and vgg.py), trained as its references/classification/
// train.py does: model.train(), a batch of images and labels copied to the device,
// cross-entropy, backward, the optimizer's step, zero_grad.
//   - ResNet: a 7x7 stride-2 stem with batch norm, ReLU and a 3x3 max pool; four stages of
//     BasicBlocks (resnet18/34) or Bottlenecks (resnet50 and deeper), each stage after the first
//     halving the image, with a 1x1 convolution and batch norm on the shortcut where the shape
//     changes; adaptive average pooling to 1x1 and the fully connected layer.
//   - VGG: 3x3 convolutions (with batch norm in the _bn variants) and ReLU, in five blocks each
//     ending in a 2x2 max pool; adaptive average pooling to 7x7; three linear layers with ReLU
//     and dropout 0.5.
// Simplification: torchvision's ReLUs are in place; the engine's write a new tensor, so the
// memory held is a little larger than a real run's.

#include <array>
#include <vector>

#include "families/cnn.h"
#include "input_pipeline.h"
#include "run_state.h"

namespace planner {
namespace cnn {

using engine::Tensor;
namespace F = engine::nn::functional;

struct Conv {
  Tensor weight, bias;
  std::int64_t stride = 1, padding = 0;
  Tensor operator()(const Tensor& x) const {
    return F::conv2d(x, weight, F::Conv2dFuncOptions().bias(bias).stride(stride).padding(padding));
  }
};

struct BatchNorm {
  Tensor weight, bias, running_mean, running_var;
  Tensor operator()(const Tensor& x, bool training) const {
    return F::batch_norm(x, running_mean, running_var,
                         F::BatchNormFuncOptions().weight(weight).bias(bias).training(training));
  }
};

// A convolution with its batch norm (VGG without _bn: none), and the shortcut of a residual block.
struct ConvBn {
  Conv conv;
  BatchNorm bn;
  bool has_bn = true;
  Tensor operator()(const Tensor& x, bool training) const {
    const Tensor y = conv(x);
    return has_bn ? bn(y, training) : y;
  }
};

struct Block {
  std::vector<ConvBn> convs;     // ReLU between them
  std::vector<ConvBn> shortcut;  // empty: the identity
};

struct Linear {
  Tensor weight, bias;
  Tensor operator()(const Tensor& x) const { return F::linear(x, weight, bias); }
};

struct Model {
  CnnSettings cfg;
  bool training = true;
  bool checkpointed = false;               // each stage under torch.utils.checkpoint while training
  ConvBn stem;                             // ResNet
  std::vector<std::vector<Block>> stages;  // ResNet's four; VGG's five, a Block per convolution
  std::vector<Linear> head;                // ResNet: fc; VGG: its classifier's three

  bool resnet() const { return cfg.model.starts_with("resnet"); }
  // whether a stage's parameters train (trainable_layers freezes whole stages)
  static bool trains(const std::vector<Block>& stage) {
    return stage.front().convs.front().conv.weight.requires_grad();
  }

  Tensor residual(const Block& b, const Tensor& x) const {
    Tensor h = x;
    for (std::size_t i = 0; i < b.convs.size(); ++i) {
      h = b.convs[i](h, training);
      if (i + 1 < b.convs.size()) h = F::relu(h);
    }
    const Tensor identity = b.shortcut.empty() ? x : b.shortcut.front()(x, training);
    return F::relu(h + identity);
  }

  Tensor loss(const Tensor& images, const Tensor& labels) const {
    Tensor h = images;
    const std::int64_t B = images.size(0);
    if (resnet()) {
      h = F::max_pool2d(F::relu(stem(h, training)),
                        F::MaxPool2dFuncOptions(3).stride(2).padding(1));
      for (const auto& stage : stages) {
        h = runs::run_block(
            checkpointed, trains(stage),
            [this, &stage](Tensor in) {
              for (const Block& b : stage) in = residual(b, in);
              return in;
            },
            h);
      }
      h = F::adaptive_avg_pool2d(h, F::AdaptiveAvgPool2dFuncOptions(1)).reshape({B, -1});
      return F::cross_entropy(head[0](h), labels);
    }
    for (const auto& stage : stages) {
      h = runs::run_block(
          checkpointed, trains(stage),
          [this, &stage](Tensor in) {
            for (const Block& b : stage) in = F::relu(b.convs[0](in, training));
            return F::max_pool2d(in, F::MaxPool2dFuncOptions(2).stride(2));
          },
          h);
    }
    h = F::adaptive_avg_pool2d(h, F::AdaptiveAvgPool2dFuncOptions({7, 7})).reshape({B, -1});
    const auto drop = F::DropoutFuncOptions().p(0.5).training(training);
    h = F::dropout(F::relu(head[0](h)), drop);
    h = F::dropout(F::relu(head[1](h)), drop);
    return F::cross_entropy(head[2](h), labels);
  }
};

// torchvision's layer counts: ResNet's blocks per stage, VGG's convolutions per block.
std::array<int, 5> depths(const std::string& name) {
  if (name == "resnet18") return {2, 2, 2, 2, 0};
  if (name == "resnet34" || name == "resnet50") return {3, 4, 6, 3, 0};
  if (name == "resnet101") return {3, 4, 23, 3, 0};
  if (name == "resnet152") return {3, 8, 36, 3, 0};
  if (name.starts_with("vgg11")) return {1, 1, 2, 2, 2};
  if (name.starts_with("vgg13")) return {2, 2, 2, 2, 2};
  if (name.starts_with("vgg16")) return {2, 2, 3, 3, 3};
  return {2, 2, 4, 4, 4};  // vgg19
}

struct CnnRun final : runs::ClassifierRun {
  CnnRun(const ModelConfig& c, engine::Device d, std::int64_t blocks)
      : ClassifierRun(runs::ParameterMaker(d, blocks, c.trainable_layers), c),
        batch_size(c.batch_size),
        with_bn(c.as<CnnSettings>().model.starts_with("resnet") ||
                c.as<CnnSettings>().model.ends_with("_bn")) {
    model.cfg = c.as<CnnSettings>();
    model.checkpointed = c.gradient_checkpointing;
    if (model.resnet())
      make_resnet();
    else
      make_vgg();
    optimizer = runs::make_optimizer(c.optimizer, maker.trained(), 0.0);
    if (c.input.reads_samples()) {
      input = std::make_unique<InputPipeline>(c.input, batch_size, model.cfg.image_size,
                                              model.cfg.num_classes);
    }
  }

  // A convolution of `k` x `k` with its batch norm where the model has them (kaiming-normal-like
  // draws: their scale changes no cost).
  ConvBn conv_bn(std::int64_t in, std::int64_t out, std::int64_t k, std::int64_t stride,
                 bool bias) {
    ConvBn cb{{maker.weight({out, in, k, k}), bias ? maker.zeros({out}) : Tensor(), stride, k / 2},
              {},
              with_bn};
    if (with_bn) {
      cb.bn = {maker.ones({out}), maker.zeros({out}), engine::zeros({out}).to(maker.device()),
               engine::ones({out}).to(maker.device())};
    }
    return cb;
  }

  // One residual block of a stage: a BasicBlock (resnet18/34) or a Bottleneck, with a 1x1
  // convolution on the shortcut where the shape changes.
  Block residual_block(std::int64_t& channels, std::int64_t planes, std::int64_t stride) {
    const bool bottleneck = model.cfg.model != "resnet18" && model.cfg.model != "resnet34";
    const std::int64_t expansion = bottleneck ? 4 : 1;
    Block b;
    if (bottleneck) {
      b.convs = {conv_bn(channels, planes, 1, 1, false), conv_bn(planes, planes, 3, stride, false),
                 conv_bn(planes, planes * expansion, 1, 1, false)};
    } else {
      b.convs = {conv_bn(channels, planes, 3, stride, false), conv_bn(planes, planes, 3, 1, false)};
    }
    if (stride != 1 || channels != planes * expansion)
      b.shortcut = {conv_bn(channels, planes * expansion, 1, stride, false)};
    channels = planes * expansion;
    return b;
  }

  void make_resnet() {
    const std::array<int, 5> depth = depths(model.cfg.model);
    maker.enter_block(-1);
    model.stem = conv_bn(3, 64, 7, 2, false);
    model.stem.conv.padding = 3;
    std::int64_t channels = 64;
    for (std::int64_t s = 0; s < 4; ++s) {
      maker.enter_block(s);
      std::vector<Block> stage;
      for (int i = 0; i < depth[static_cast<std::size_t>(s)]; ++i)
        stage.push_back(residual_block(channels, 64 << s, (s > 0 && i == 0) ? 2 : 1));
      model.stages.push_back(std::move(stage));
    }
    maker.enter_head();
    const std::int64_t classes = model.cfg.num_classes;
    model.head = {{maker.weight({classes, channels}), maker.zeros({classes})}};
  }

  void make_vgg() {
    const std::array<int, 5> depth = depths(model.cfg.model);
    std::int64_t channels = 3;
    for (std::int64_t s = 0; s < 5; ++s) {
      maker.enter_block(s);
      const std::int64_t out = std::min<std::int64_t>(64 << s, 512);
      std::vector<Block> stage;
      for (int i = 0; i < depth[static_cast<std::size_t>(s)]; ++i) {
        stage.push_back({{conv_bn(channels, out, 3, 1, true)}, {}});
        channels = out;
      }
      model.stages.push_back(std::move(stage));
    }
    maker.enter_head();
    const std::int64_t features = 512 * 7 * 7, classes = model.cfg.num_classes;
    model.head = {{maker.weight({4096, features}), maker.zeros({4096})},
                  {maker.weight({4096, 4096}), maker.zeros({4096})},
                  {maker.weight({classes, 4096}), maker.zeros({classes})}};
  }

  // The next batch of the input pipeline, or a batch made in memory, copied to the device.
  std::vector<Tensor> batch() const override {
    const engine::Device d = maker.device();
    if (input) {
      const std::vector<Tensor> b = input->next();
      return {b[0].to(d), b[1].to(d)};
    }
    const CnnSettings& c = model.cfg;
    return {engine::zeros({batch_size, 3, c.image_size, c.image_size}).to(d),
            engine::zeros({batch_size}, engine::kInt64).to(d)};
  }
  Tensor loss(const std::vector<Tensor>& b) override { return model.loss(b[0], b[1]); }
  void set_training(bool on) override { model.training = on; }

  std::int64_t batch_size;
  bool with_bn;
  Model model;
  std::unique_ptr<InputPipeline> input;  // none: batches made in memory
};

}  // namespace cnn

std::unique_ptr<TrainingRun::State> make_cnn_run(const ModelConfig& config, engine::Device device,
                                                 std::int64_t blocks) {
  return std::make_unique<cnn::CnnRun>(config, device, blocks);
}
}  // namespace planner
