/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef D2D_MLP_LABELLER_H
#define D2D_MLP_LABELLER_H

#include "ns3/callback.h"
#include "ns3/d2d-compute-model.h"
#include "ns3/d2d-dataset.h"
#include "ns3/object.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace ns3
{

class D2dLearner;

/**
 * \ingroup d2dlearn
 * \brief The alternative labeller of Wagle, Das, Love and Brinton, "Multi-Agent Reinforcement
 * Learning for Graph Discovery in D2D-Enabled Federated Learning", 2025, App. D-D: "a small,
 * completely local classification model at each device", "a single-layer multi-layer
 * perceptron (MLP) ... trained on the labeled data at each device, and then used to assign
 * classes to unlabeled data".
 *
 * Reading chosen: the MLP sees the device's raw features (the labelled data as the device
 * holds it), not the distributed-PCA projections: "completely local" sets it apart from label
 * propagation, whose projections need the common subspace F of the other devices' sketches;
 * "single-layer" is read as one hidden layer of Hidden ReLU units (mlp:Hidden of
 * D2dModelSpec). The paper gives no width, optimizer nor schedule: Adam with LearningRate,
 * Epochs passes over the labelled points in mini-batches of BatchSize.
 *
 * Each device's training is a real LibTorch job of a D2dLearner (its own torch generator,
 * seeded from the run seed offset by a constant and the device id, so the labels do not
 * depend on thread timing nor on the downstream learners' draws). With a compute model per
 * device (SetComputeModels) the jobs take simulated time and energy like every training job;
 * without (the default, as label propagation takes none), they complete at the time they
 * start. At the completion event each device predicts on all its points (the model's argmax;
 * no simulated cost, as propagation's); the labelled points keep their given labels.
 */
class D2dMlpLabeller : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    D2dMlpLabeller();
    ~D2dMlpLabeller() override;

    /**
     * \param data the data set (features; numClasses; its labels are not read)
     * \param points device i's sample indices into data at index i
     * \param given device i's given labels at index i, one per point (-1: unlabelled)
     * \param seed the run seed
     */
    void Setup(std::shared_ptr<const D2dDataset> data,
               const std::vector<std::vector<std::size_t>>& points,
               const std::vector<std::vector<int64_t>>& given,
               uint64_t seed);
    /**
     * \param compute device i's compute model at index i (null or empty: no simulated cost)
     */
    void SetComputeModels(const std::vector<Ptr<D2dComputeModel>>& compute);
    /**
     * \brief Start every device's training job; done is called once, at the completion event
     * of the last (at once, through the simulator, if no device has a labelled point).
     * \param done the callback
     */
    void Start(Callback<void> done);

    /** \return device i's labels after done, one per point in order */
    const std::vector<int64_t>& GetLabels(uint32_t device) const;
    /** \return the optimizer steps of device i's job (0: nothing to train) */
    uint64_t GetSteps(uint32_t device) const;
    /** \return the mean training loss of device i's job */
    double GetMeanLoss(uint32_t device) const;
    /** \return whether every job has completed */
    bool IsDone() const;

  protected:
    /** \brief Drop the references this object holds (Object::DoDispose). */
    void DoDispose() override;

  private:
    /** \brief Device i's job completed: predict, label, and finish if it was the last. */
    void Completed(uint32_t device, uint64_t steps, double loss);
    /** \brief Label a device without labelled points (or with one label only). */
    void LabelTrivially(uint32_t device);

    uint32_t m_hidden;     //!< ReLU units of the one hidden layer (attribute Hidden)
    uint32_t m_epochs;     //!< passes over each device's labelled points (attribute Epochs)
    double m_learningRate; //!< Adam's learning rate (attribute LearningRate)
    uint32_t m_batchSize;  //!< mini-batch size, labelled points (attribute BatchSize)

    std::shared_ptr<const D2dDataset> m_data;       //!< the data set given to Setup (features)
    std::vector<std::vector<std::size_t>> m_points; //!< device i's sample indices into m_data at i
    std::vector<std::vector<int64_t>> m_given; //!< device i's given labels at i (-1: unlabelled)
    uint64_t m_seed{0}; //!< the run seed (the learners' seed is it xor a constant)
    std::vector<Ptr<D2dComputeModel>> m_compute; //!< device i's compute model at i (may be empty)
    std::vector<Ptr<D2dLearner>> m_learners;     //!< device i's MLP at i (null: labelled trivially)
    std::vector<std::vector<int64_t>> m_labels;  //!< device i's labels at i, one per point
    std::vector<uint64_t> m_steps;               //!< device i's optimizer steps at i
    std::vector<double> m_loss;                  //!< device i's mean training loss at i
    uint32_t m_pending{0};                       //!< training jobs started and not yet completed
    bool m_done{false};                          //!< whether every job has completed (done called)
    Callback<void> m_callback;                   //!< Start's done, called at the last completion
};

} // namespace ns3

#endif /* D2D_MLP_LABELLER_H */
