/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef D2D_SEMI_SUPERVISED_PARADIGM_H
#define D2D_SEMI_SUPERVISED_PARADIGM_H

#include "d2d-pca-exchange.h"
#include "d2d-supervised-paradigm.h"

#include "ns3/callback.h"
#include "ns3/d2d-compute-model.h"
#include "ns3/d2d-dataset.h"
#include "ns3/d2d-partitioner.h"

#include <memory>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief The semi-supervised paradigm of Wagle, Das, Love and Brinton, "Multi-Agent
 * Reinforcement Learning for Graph Discovery in D2D-Enabled Federated Learning", 2025,
 * sec. V-A1: a fraction of each device's points is labelled (LabelledFraction, at least one
 * point of every label the device holds); distributed PCA (D2dDistributedPca, Liang et al.
 * 2014) finds the common subspace F of dimension PcaDims from each device's top PcaLocalRank
 * right singular vectors scaled by their singular values; label propagation
 * (D2dLabelPropagation, Zhu and Ghahramani 2002) on the projections D_i F over a symmetric
 * Knn-nearest-neighbour graph, the labelled points clamped, labels the rest. The propagated
 * labels are the partitions: from there on the message passing, the rewards and the data
 * exchange are the supervised paradigm's, unchanged (this class only adds the labelling).
 *
 * Use: SetData, ChooseLabelled, then each device's Sketch goes to the server, which returns
 * D2dDistributedPca::CommonSubspace of what arrived; Label(F) propagates; AssignedCounts(i)
 * give the D_i for D2dSupervisedParadigm::Setup.
 *
 * Labeller mlp (App. D-D) replaces the propagation: each device trains a small local MLP on
 * its labelled points' raw features (D2dMlpLabeller; no distributed PCA is needed) and labels
 * the rest with its predictions (LabelWithMlp); the labels are then used exactly as the
 * propagated ones.
 *
 * Reading chosen: the propagated labels replace the unknown ones for everything after
 * (the counts of the message passing, the points moved, the downstream training), as the
 * paper's App. D-C ("used as the ground truth labels"); the true labels serve only to measure
 * the propagation accuracy.
 */
class D2dSemiSupervisedParadigm : public D2dSupervisedParadigm
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    D2dSemiSupervisedParadigm();

    /**
     * \param train the training set (true labels; feature rows of D values)
     * \param shards device i's points at index i (no label map)
     */
    void SetData(std::shared_ptr<const D2dDataset> train, std::vector<D2dShard> shards);
    /**
     * \brief Draws each device's labelled points (D2dLabelPropagation::ChooseLabelled).
     * \param seed the seed
     */
    void ChooseLabelled(uint64_t seed);

    /**
     * \brief The semi-supervised preparation (sec. V-A1): SetData and ChooseLabelled, then
     * with the labeller propagation the distributed PCA over Data::server (a D2dPcaExchange:
     * the sketches up, F down, messages of their true size) and Label once it ends; with the
     * labeller mlp, LabelWithMlp. The labels assigned are written into Data::train (they stand
     * for the unknown ones from then on), then D2dSupervisedParadigm::Prepare counts the
     * partitions and done is called.
     * \param data the devices' data (shards without a label map) and the server link
     * \param done called once every device has labelled its points
     */
    void Prepare(const Data& data, Callback<void> done) override;
    /** \return true with the labeller propagation (the distributed PCA) */
    bool UsesServer() const override;
    /** \return the distributed PCA of Prepare (null with the labeller mlp or before) */
    Ptr<D2dPcaExchange> GetPcaExchange() const;
    /**
     * \param device i
     * \return i's distributed-PCA message: min(t, n_i, D) rows of D values
     */
    std::vector<double> Sketch(uint32_t device) const;
    /** \return D, the feature size */
    std::size_t GetFeatureSize() const;
    /** \return d (PcaDims) */
    uint32_t GetPcaDims() const;
    /** \return t (PcaLocalRank, or d if that is 0) */
    uint32_t GetLocalRank() const;
    /** \return bytes per matrix value on the air (BytesPerValue) */
    uint32_t GetBytesPerValue() const;
    /**
     * \brief Projects every device's points on F and propagates its labels.
     *
     * A device that F did not reach (lost after the retries, or never computed because too
     * few sketches reached the server) projects on its own top-d right singular vectors
     * instead: local PCA, the best it can do alone.
     * \param basis F^T, d x D (D2dDistributedPca::CommonSubspace; empty if none)
     * \param reached per device, whether F reached it (empty: every device)
     */
    void Label(const std::vector<double>& basis, const std::vector<bool>& reached = {});
    /**
     * \brief Labeller mlp: starts every device's MLP training job (D2dMlpLabeller, attributes
     * of ns3::D2dMlpLabeller); at the completion event of the last one the labels are set as
     * Label sets them (GetIterations gives the optimizer steps) and done is called.
     * \param done called once every device has labelled its points
     * \param compute device i's compute model at index i (empty: the jobs take no
     * simulated time, as propagation)
     */
    void LabelWithMlp(Callback<void> done, const std::vector<Ptr<D2dComputeModel>>& compute = {});

    /** Values of the Labeller attribute. */
    enum Labeller
    {
        PROPAGATION, //!< label propagation on the distributed-PCA projections (sec. V-A1)
        MLP          //!< a local MLP on the raw features (App. D-D)
    };

    /** \return the labeller (attribute Labeller) */
    Labeller GetLabeller() const;
    /** \return whether device i projected on the common F (false: on its local subspace) */
    bool UsedCommonSubspace(uint32_t device) const;

    /** \return device i's labels after Label(), one per shard point in order */
    const std::vector<int64_t>& GetAssigned(uint32_t device) const;
    /** \return device i's labelled points (true), one per shard point */
    const std::vector<bool>& GetLabelled(uint32_t device) const;
    /** \return D_i from the assigned labels */
    D2dFractionalCounts AssignedCounts(uint32_t device) const;
    /** \return the share of i's points whose assigned label is the true one */
    double GetAccuracy(uint32_t device) const;
    /** \return the same share over i's unlabelled points only (1 if none) */
    double GetUnlabelledAccuracy(uint32_t device) const;
    /** \return the propagation's iterations at device i (mlp: the optimizer steps) */
    uint32_t GetIterations(uint32_t device) const;

  protected:
    /** \brief Drop the references this object holds (Object::DoDispose). */
    void DoDispose() override;

  private:
    /** \brief Every device has labelled its points: write the labels, count, call done.
     * \param done Prepare's callback */
    void Labelled(Callback<void> done);
    /** \return device i's feature rows, n_i x D */
    std::vector<double> Features(uint32_t device) const;

    uint32_t m_pcaDims;        //!< d: dimension of the common subspace F (PcaDims)
    uint32_t m_localRank;      //!< t: singular vectors a device sends (PcaLocalRank; 0: d)
    double m_labelledFraction; //!< share of each device's points that is labelled
    uint32_t m_knn;            //!< k of label propagation's symmetric k-nearest-neighbour graph
    uint32_t m_bytesPerValue;  //!< bytes per matrix value of the PCA messages (BytesPerValue)
    Labeller m_labeller;       //!< how the unlabelled points are labelled (Labeller)
    Ptr<Object> m_mlp;         //!< the D2dMlpLabeller of LabelWithMlp
    uint64_t m_seed{0};        //!< ChooseLabelled's seed (the MLP labeller's too)
    std::shared_ptr<const D2dDataset> m_train; //!< the training set (SetData)
    std::vector<D2dShard> m_shards;            //!< device i's points at index i (SetData)
    /** device i -> true label of each of its shard points, in order (SetData) */
    std::vector<std::vector<int64_t>> m_truth;
    /** device i -> whether each of its shard points is labelled (ChooseLabelled) */
    std::vector<std::vector<bool>> m_labelled;
    /** device i -> label assigned to each of its shard points (Label, LabelWithMlp) */
    std::vector<std::vector<int64_t>> m_assigned;
    /** device i -> propagation iterations (labeller mlp: optimizer steps) */
    std::vector<uint32_t> m_iterations;
    /** device i -> it projected on the common F (false: on its local subspace) */
    std::vector<bool> m_common;
    Data m_data;               //!< Prepare's data
    Ptr<D2dPcaExchange> m_pca; //!< Prepare's distributed PCA (labeller propagation)
};

} // namespace ns3

#endif /* D2D_SEMI_SUPERVISED_PARADIGM_H */
