/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Internal header (includes LibTorch's TorchScript API): only the learning library's
 * sources and its tests include it.
 */
#ifndef D2D_SCRIPT_MODEL_H
#define D2D_SCRIPT_MODEL_H

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <torch/script.h>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief A TorchScript module saved from Python (`torch.jit.script(model).save(path)`,
 * or `torch.jit.trace`), loaded once per path and process: the architecture every device
 * of `--model=torchscript:PATH` shares. Devices own only their state (parameters and
 * floating-point buffers, as flat floats); each LibTorch worker thread trains a deep copy
 * (Instantiate) into which a device's state is copied for a job, as with the built-in
 * models (D2dLearner).
 *
 * The module's forward takes one float32 tensor [B, sample shape...] and returns
 * [B, classes] logits (or [B, 1] for regression). Optional attributes `input_shape`
 * (List[int]) and `num_classes` (int) let the errors name what the model expects.
 * The saved weights are every device's initial weights.
 *
 * A module runs with TorchScript's graph executor unoptimised: the profiling executor would
 * recompile during the first calls, at moments that depend on how the devices' jobs fall on
 * the worker threads, and same seed must give the same bytes whatever --threads. LibTorch's
 * switch is thread_local, so it is held off (GraphOptimizerEnabledGuard) around every run
 * of a module, in the thread that runs it: D2dNetImpl::forward and CheckData.
 */
class D2dScriptModel
{
  public:
    /**
     * \brief The loaded module of a path (loaded at the first call, then shared).
     * \param path the .pt file
     * \return the model
     * \throws std::invalid_argument (one line starting "model: torchscript:PATH: ") for a
     * missing or unreadable file, one that is not a TorchScript archive, or a module
     * without parameters (frozen by torch.jit.freeze) or without forward
     */
    static std::shared_ptr<const D2dScriptModel> Load(const std::string& path);

    /** \return the path it was loaded from */
    const std::string& GetPath() const;

    /**
     * \return a deep copy of the module (its own parameters and buffers, the code shared),
     * for one worker thread
     */
    torch::jit::Module Instantiate() const;

    /** What a module does on samples of a given shape. */
    struct Fit
    {
        double parameters{0};     //!< trainable and frozen parameters, values
        double floatBuffers{0};   //!< floating-point buffers (BatchNorm statistics), values
        uint32_t otherBuffers{0}; //!< buffers of other types (num_batches_tracked), tensors
        double forwardFlops{0};   //!< 2 x multiply-adds of one sample's forward pass
        std::map<std::string, double> flopsByOperator; //!< forward FLOPs per operator
        /**
         * Its training-mode forward draws random numbers (dropout): from LibTorch's global
         * generator, which no device owns. The learner then runs its jobs one at a time,
         * the global generator seeded from the device's own at the start of each
         * (D2dScriptModel::GlobalGeneratorMutex), so that results do not depend on threads.
         */
        bool drawsRandom{false};
    };

    /** \return the mutex a job holds while it uses LibTorch's global generator */
    static std::mutex& GlobalGeneratorMutex();

    /**
     * \brief Check the module on samples of a shape: one eval-mode forward of a zero sample
     * (counting its multiply-adds: D2dFlopCounter) must give [1, outputs]. Cached per shape.
     * \param inputShape one sample's shape, e.g. {3, 32, 32}
     * \param outputs classes (1 for regression)
     * \return the counts
     * \throws std::invalid_argument (one line "model: torchscript:PATH: ...") naming the
     * module's declared input and classes (if it declares them) and the data's, if the
     * forward fails or gives another shape
     */
    Fit CheckData(const std::vector<int64_t>& inputShape, int64_t outputs) const;

    /** \return the module's declared input_shape, if it has one */
    std::optional<std::vector<int64_t>> GetDeclaredInput() const;
    /** \return the module's declared num_classes, if it has one */
    std::optional<int64_t> GetDeclaredClasses() const;

  private:
    /** \param path the file \param module the loaded module */
    D2dScriptModel(std::string path, torch::jit::Module module);

    std::string m_path;                        //!< the .pt file
    torch::jit::Module m_module;               //!< as loaded; copied, never run
    mutable std::mutex m_mutex;                //!< guards m_module's copies and m_fits
    mutable std::map<std::string, Fit> m_fits; //!< CheckData's results, per shape
};

} // namespace ns3

#endif /* D2D_SCRIPT_MODEL_H */
