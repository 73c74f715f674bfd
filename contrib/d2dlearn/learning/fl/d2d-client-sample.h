/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_CLIENT_SAMPLE_H
#define D2D_CLIENT_SAMPLE_H

#include "ns3/d2d-model-payload.h"
#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief The server's sample of a FedAvg round (McMahan et al., "Communication-Efficient
 * Learning of Deep Networks from Decentralized Data", 2017): the m = max(1, round(C K))
 * answers that close it, the devices asked (s m of those there, with the over-selection of
 * Bonawitz et al., "Towards Federated Learning at Scale: System Design", 2019), the answers
 * that arrived and the devices given up on. Part of D2dFedAvg, which forwards its
 * ClientFraction and OverSelection attributes here.
 */
class D2dClientSample
{
  public:
    /** The answers of the round, by device (ascending: the aggregation's order). */
    using Answers = std::map<uint32_t, std::shared_ptr<const D2dModelPayload>>;

    D2dClientSample();

    /** \param fraction C: fraction of the devices whose answers close a round, (0, 1] */
    void SetFraction(double fraction);
    /** \return C */
    double GetFraction() const;
    /** \param factor s: devices asked per answer needed, >= 1 */
    void SetOverSelection(double factor);
    /** \return s */
    double GetOverSelection() const;
    /**
     * \param stream the RNG stream of the draws
     * \return streams used (1)
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * \brief Start a round's sample: m = max(1, round(C K)) answers close it, and
     * min(available, round(s m)) of the available devices are asked, the first of a uniform
     * permutation of them (partial Fisher-Yates, D2dFlProtocol::PartialShuffle); the
     * previous round's answers and failures are forgotten.
     * \param order the devices there now (not away); its first entries are the sample
     *        afterwards, in draw order
     * \param devices K, all the devices
     * \return the number asked
     */
    uint32_t Draw(std::vector<uint32_t>& order, uint32_t devices);
    /**
     * \param device a device
     * \return whether it was asked this round
     */
    bool IsAsked(uint32_t device) const;
    /**
     * \brief Keep a device's answer.
     * \param device the device (asked)
     * \param payload its update
     */
    void Answer(uint32_t device, std::shared_ptr<const D2dModelPayload> payload);
    /**
     * \brief Give up on a device: no answer will come from it this round.
     * \param device the device
     * \return false if it was not waited for (not asked, answered, or given up already)
     */
    bool GiveUp(uint32_t device);
    /** \return whether the round can close: m answers, or every device asked answered or
     *          given up on */
    bool IsComplete() const;

    /** \return the devices asked this round */
    const std::set<uint32_t>& GetAsked() const;
    /** \return the devices there when the round's sample was drawn */
    uint32_t GetAvailable() const;
    /** \return the answers so far */
    const Answers& GetAnswers() const;
    /** \brief Drop the answers (the round's aggregation took them). */
    void ClearAnswers();
    /** \brief Drop the random stream (the protocol's DoDispose). */
    void Dispose();

  private:
    double m_fraction{1.0};            //!< C
    double m_overSelection{1.0};       //!< s
    Ptr<UniformRandomVariable> m_pick; //!< draws the sample
    std::set<uint32_t> m_asked;        //!< asked this round
    uint32_t m_target{0};              //!< m: answers that close the round
    std::set<uint32_t> m_failed;       //!< asked devices given up on this round
    Answers m_answers;                 //!< arrived this round
    uint32_t m_available{0};           //!< devices there when the sample was drawn
};

} // namespace ns3

#endif /* D2D_CLIENT_SAMPLE_H */
