/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef DYNAMIC_RSS_MODEL_H
#define DYNAMIC_RSS_MODEL_H

#include "d2d-rss-model.h"

#include "ns3/nstime.h"
#include "ns3/random-variable-stream.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief RSS that changes every step: the dynamic wireless scenario of Wagle et al. 2025,
 * sec. VI-P.
 *
 * At every step (StepInterval of simulated time) every W_ij is redrawn from a Gaussian
 * N(MeanW, StdW^2) truncated to [MinW, MaxW] (values outside are redrawn), then
 * quantized into Levels equal bins over [MinW, MaxW] and replaced by its bin's centre;
 * the bin is the link's quantized state q. Levels = 0 disables quantization. The matrix
 * of a step is drawn when the step is first queried, so idle steps cost nothing.
 */
class DynamicRssModel : public D2dRssModel
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    DynamicRssModel();

    /** \param n number of devices (matrix size) */
    void SetNDevices(uint32_t n);

    /**
     * \brief W_ij of the current step (drawn when the step is first queried); positions and
     * power are ignored.
     * \param rx receiver index i (< N)
     * \param tx transmitter index j (< N)
     * \param rxMobility ignored
     * \param txMobility ignored
     * \param txPowerDbm ignored
     * \return W_ij in watts (the bin's centre with Levels > 0; 0 for i = j)
     */
    double GetRssW(uint32_t rx,
                   uint32_t tx,
                   Ptr<MobilityModel> rxMobility,
                   Ptr<MobilityModel> txMobility,
                   double txPowerDbm) override;
    /**
     * \param stream the RNG stream of the Gaussian draws
     * \return 1, the streams used
     */
    int64_t AssignStreams(int64_t stream) override;

    /**
     * \param rx receiver index
     * \param tx transmitter index
     * \return the quantized state (bin index in [0, Levels)) of W_ij at the current step
     */
    uint32_t GetState(uint32_t rx, uint32_t tx);
    /**
     * \brief The link state a D2dLinkQuality reports for an RSS model.
     * \param model any RSS model
     * \param rx receiver index
     * \param tx transmitter index
     * \return GetState(rx, tx) if model is a DynamicRssModel and rx != tx, else 0
     */
    static uint32_t StateOf(Ptr<D2dRssModel> model, uint32_t rx, uint32_t tx);
    /** \return the index of the current step */
    uint64_t GetStep() const;

  protected:
    /** \brief Drop the references this object holds (Object::DoDispose). */
    void DoDispose() override;

  private:
    /** \brief Redraw the matrix if a new step has begun. */
    void Refresh();
    /** \return one truncated Gaussian draw */
    double Draw();
    /**
     * \param w an RSS value in [MinW, MaxW]
     * \return its bin
     */
    uint32_t Bin(double w) const;

    double m_meanW;                     //!< attribute MeanW: mean of the Gaussian RSS (W)
    double m_stdW;                      //!< attribute StdW: its standard deviation (W)
    double m_minW;                      //!< attribute MinW: lower truncation bound (W)
    double m_maxW;                      //!< attribute MaxW: upper truncation bound (W)
    uint32_t m_levels;                  //!< attribute Levels: quantization bins (0: none)
    Time m_stepInterval;                //!< attribute StepInterval: simulated time between redraws
    uint32_t m_n{0};                    //!< N, number of devices (SetNDevices)
    int64_t m_step{-1};                 //!< the step m_w was drawn for (-1: none yet)
    std::vector<double> m_w;            //!< row-major N x N
    Ptr<NormalRandomVariable> m_normal; //!< N(MeanW, StdW^2) draws, truncated by Draw()
};

} // namespace ns3

#endif /* DYNAMIC_RSS_MODEL_H */
