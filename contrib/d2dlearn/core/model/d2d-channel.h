/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_CHANNEL_H
#define D2D_CHANNEL_H

#include "d2d-channel-access.h"
#include "d2d-drx.h"
#include "d2d-link-quality.h"
#include "d2d-radio.h"
#include "d2d-rss-model.h"
#include "d2d-spectrum.h"

#include "ns3/event-id.h"
#include "ns3/object.h"
#include "ns3/propagation-delay-model.h"
#include "ns3/random-variable-stream.h"
#include "ns3/simple-ref-count.h"
#include "ns3/traced-callback.h"

#include <map>
#include <set>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ns3
{

class D2dMessageRegistry;
class PropagationRssModel;

/**
 * \ingroup d2dlearn
 * \brief The D2D channel of Wagle et al. 2025 (sec. III-A, App. C): links with drop probability
 * P_D(i, j) = 1 - exp(-(2^r - 1) sigma^2 / W_ij) (eq. 18/19).
 *
 * A message of B bytes is cut into ceil(B / MtuBytes) fragments; each fragment is lost
 * independently with P_D(i, j) of its link at the moment the transmission starts. The
 * link rate is r x BandwidthHz bit/s; the airtime of a fragment is its bytes (payload +
 * FragmentHeaderBytes) x 8 / rate; a receiver gets the last fragment one propagation
 * delay (ns-3 PropagationDelayModel) after it was sent.
 *
 * Hearing: receiver i hears transmitter j when W_ij > RxSensitivityW and, with RangeM > 0,
 * i is within range: closer than RangeM when the RSS comes from positions
 * (PropagationRssModel) or is the same on every link (ConstantRssModel, which carries no
 * distance), or, with an RSS matrix or dynamic RSS, W_ij above the RSS that the
 * default propagation model (ns-3 log-distance) gives at RangeM for j's transmit power. A
 * D2S channel (FixedDistanceM > 0) ignores RangeM. GetNeighbours(j) lists the devices
 * that hear j; with static RSS (a matrix, fixed positions, a D2S link) the lists are kept
 * (and rebuilt when a position is set), and with RangeM and positions they are found on a
 * grid of RangeM cells, so that a send to the neighbours costs O(neighbours), not O(N).
 *
 * Receivers: a message goes to one device, a named set (one transmission, a multicast)
 * or D2D_BROADCAST, every neighbour. Only receivers that hear the sender take part: they
 * draw their losses, occupy their radio and pay receive energy; a neighbour-less
 * broadcast gets no row at all, and a named receiver that cannot hear gets one row with
 * reason "out_of_range" and costs nothing. A send none of whose receivers hears is not
 * transmitted (its send-done reports failure).
 *
 * Delivery modes: unreliable (each fragment sent once; the receiver gets the count that
 * arrived) and reliable (selective-repeat ARQ in rounds with ideal, instantaneous
 * feedback: after each round the fragments that some receiver lacks are sent again, at
 * most MaxRetransmissions times each; a receiver still lacking one fails and the sender
 * is told). A broadcast or multicast is one transmission in which each receiver draws
 * its own losses; its reliable ARQ retransmits until every receiver that hears it has
 * every fragment.
 *
 * Channel access (AccessPolicy): when a radio's queued message goes on the air, see
 * D2dChannelAccess: IMMEDIATE (raw radios, half-duplex losses) or SCHEDULED (an ideal MAC
 * with spatial reuse).
 *
 * Spectrum (SubChannels K, D2dSpectrum): with K = 0 (the default of this class) every link has
 * the whole band whatever else is on the air, as above. With K > 0 the band is K sub-channels
 * (OFDMA resource blocks): a transmission occupies SubChannelsPerTransmission m of them from
 * its start to its end at the sender, at the rate r x BandwidthHz x m / K; a receiver takes
 * part in at most D2dRadio::ReceiveChains (default K) receptions at once (under immediate
 * access a further one is lost there, reason "rx_busy"); under scheduled access a
 * transmission waits for its sub-channels (SpectrumReuse) and its receivers' chains. With
 * Interference, eq. (18) takes the co-channel interference I at the receiver:
 * P_D = 1 - exp(-(2^r - 1)(sigma^2 + I) / W_ij). The fast path evaluates I once, when the
 * transmission starts, over the transmissions then on the air (so its O(1) events per
 * message stay); the per-fragment path evaluates it at the end of every fragment.
 *
 * Fast path (attribute FastPath, default on): the loss and retransmission counts are
 * drawn from their distributions (binomials), so a message costs O(1) events whatever
 * its size: one at the sender and two per receiver. The per-fragment
 * path schedules every fragment; both give the same distributions.
 *
 * With FixedDistanceM > 0 every link has that length whatever the positions: the equal-length
 * device-to-server (D2S) links of Wagle et al. 2025, sec. VI-G, whose server is at a fixed
 * multiple of the mean D2D distance from every device. With FixedDistanceM = 0 a D2S channel
 * whose radios carry the devices' and the server's MobilityModels (D2dHelper::InstallServer(
 * server, nodes)) gives each device's D2S link its own length, followed as it moves.
 *
 * As a D2dLinkQuality it tells protocols the P_D its messages are lost with and, with a
 * DynamicRssModel, the quantized state of each link.
 */
class D2dChannel : public D2dLinkQuality
{
  public:
    /** Where sigma^2 of eq. (18) comes from (NoiseModel attribute). */
    enum NoiseModel
    {
        CONSTANT_NOISE, //!< NoisePowerW, whatever the bandwidth (the papers' literal reading)
        THERMAL_NOISE,  //!< k T0 B_used F: the thermal noise of the bandwidth used
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    D2dChannel();
    ~D2dChannel() override;

    /**
     * \brief Attach a radio; its index (D2dTransport::GetIndex) is its address.
     * \param radio the radio
     */
    void Attach(Ptr<D2dRadio> radio);
    /** \return number of attached radios */
    uint32_t GetNRadios() const;
    /**
     * \param index device index
     * \return the radio with that index, or null
     */
    Ptr<D2dRadio> GetRadio(uint32_t index) const;
    /**
     * \return every radio as the D2dTransport protocols are set up with, radio i at index i
     */
    std::vector<Ptr<D2dTransport>> GetTransports() const;

    /** \param registry the network's message registry (shared by its channels) */
    void SetMessageRegistry(Ptr<D2dMessageRegistry> registry);
    /** \return the message registry */
    Ptr<D2dMessageRegistry> GetMessageRegistry() const;
    /** \param model the RSS model */
    void SetRssModel(Ptr<D2dRssModel> model);
    /** \return the RSS model */
    Ptr<D2dRssModel> GetRssModel() const;

    /**
     * \return the rate of one transmission (bit/s): r x BandwidthHz, times
     *         SubChannelsPerTransmission / SubChannels with a finite spectrum
     */
    double GetRateBps() const;
    /**
     * \param subChannels K (0: an unlimited band)
     * \param perTransmission m, sub-channels one transmission occupies
     * \return a transmission's share of the band: min(m, K) / K on a finite band, else 1
     */
    static double BandShare(uint32_t subChannels, uint32_t perTransmission);
    /**
     * \return the bandwidth one transmission occupies, Hz: BandwidthHz, times
     *         SubChannelsPerTransmission / SubChannels with a finite spectrum (B m / K)
     */
    double GetOccupiedBandwidthHz() const;
    /**
     * \return sigma^2 of eq. (18), W: NoisePowerW (NoiseModel Constant), or
     *         D2dThermalNoise::PowerW(GetOccupiedBandwidthHz(), NoiseFigureDb) (Thermal)
     */
    double GetNoisePowerW() const;
    /**
     * \param bytes message size
     * \return number of fragments
     */
    uint32_t GetNFragments(uint64_t bytes) const;
    /**
     * \param bytes message size
     * \return airtime of one transmission of every fragment
     */
    Time GetAirtime(uint64_t bytes) const;

    /**
     * \brief Eq. (18) of Wagle et al. 2025: P_D = 1 - exp(-(2^r - 1) sigma^2 / W).
     * \param rssW received signal strength W_ij (W); W <= 0 gives 1
     * \param spectralEfficiency r (bit/s/Hz)
     * \param noisePowerW sigma^2 (W)
     * \return drop probability in [0, 1]
     */
    static double DropProbability(double rssW, double spectralEfficiency, double noisePowerW);

    /**
     * \param rx receiver index i
     * \param tx transmitter index j
     * \return W_ij now (W)
     */
    double GetRssW(uint32_t rx, uint32_t tx) const override;
    /**
     * \param rx receiver index i
     * \param tx transmitter index j
     * \return P_D(i, j) now: eq. (18), or 1 if i does not hear j
     */
    double GetDropProbability(uint32_t rx, uint32_t tx) const override;
    /**
     * \param rx receiver index i
     * \param tx transmitter index j
     * \return with a DynamicRssModel, the quantized state of W_ij at the current step; else 0
     */
    uint32_t GetLinkState(uint32_t rx, uint32_t tx) const override;
    /** \return true with a DynamicRssModel */
    bool IsDynamic() const override;
    /**
     * \param rx receiver index i
     * \param tx transmitter index j
     * \return true if i hears j now: W_ij > RxSensitivityW and, with RangeM, in range
     */
    bool Hears(uint32_t rx, uint32_t tx) const;
    /**
     * \return the distance beyond which no radio hears another (m): RangeM when the range is
     *         a distance between positions (UsesPositions()), else 0 (no such bound)
     */
    double GetHearingDistanceM() const;
    /**
     * \param index a device
     * \return the devices that hear it now (its neighbours), ascending
     */
    const std::vector<uint32_t>& GetNeighbours(uint32_t index);
    /**
     * \param txPowerDbm a transmit power (dBm)
     * \return without positions: the RSS of the default propagation model at RangeM (W)
     */
    double GetRangeThresholdW(double txPowerDbm) const;
    /** \return the channel-access object (its policy is the AccessPolicy attribute) */
    Ptr<D2dChannelAccess> GetAccess();
    /**
     * \brief Give the channel's radios a DRX cycle (from now, the start of its first cycle):
     * the radios attached so far and those attached later follow it.
     * \param drx the DRX (its attributes set)
     */
    void SetDrx(Ptr<D2dDrx> drx);
    /** \return the DRX of the radios (null: none, every radio always listens) */
    Ptr<D2dDrx> GetDrx() const;
    /**
     * \return the DRX of the radios, made without a cycle (D2dDrx Cycle 0: the radios sleep
     * only when their device asks, D2dDrx::SleepUntil) if the channel had none
     */
    Ptr<D2dDrx> GetOrCreateDrx();
    /** \return the band (its sub-channels are the SubChannels attribute, 0: unlimited) */
    Ptr<D2dSpectrum> GetSpectrum();
    /** \return true if SubChannels > 0: the band is a finite resource */
    bool IsSpectrumFinite() const;
    /**
     * \param index a radio's index
     * \return receptions it can take part in at once: its ReceiveChains, at most K (K if 0);
     *         unlimited (UINT32_MAX) with an unlimited spectrum and ReceiveChains 0
     */
    uint32_t GetReceiveChains(uint32_t index) const;
    /**
     * \param rx receiver index
     * \param tx transmitter index
     * \return link length now (m); 0 without positions
     */
    double GetDistanceM(uint32_t rx, uint32_t tx) const;
    /**
     * \param rx receiver index
     * \param tx transmitter index
     * \return propagation delay now
     */
    Time GetPropagationDelay(uint32_t rx, uint32_t tx) const;

    /**
     * \param stream first RNG stream
     * \return number of streams used
     */
    int64_t AssignStreams(int64_t stream);

    // Called by D2dRadio and D2dChannelAccess only.
    /**
     * \param sender a sender's index
     * \param job one of its messages
     * \return the receivers of the message that hear the sender now, ascending
     */
    std::vector<uint32_t> HeardReceivers(uint32_t sender, const D2dRadio::TxJob& job);
    /**
     * \brief Put a job of a radio on the air (channel access allowed it). Named receivers
     * that do not hear get their "out_of_range" rows; without any receiver that hears,
     * nothing is transmitted and the send-done reports failure (both in an event of
     * their own, scheduled now).
     * \param sender the radio (idle)
     * \param job what to send
     * \param heard HeardReceivers(sender, job)
     * \return true if a transmission started
     */
    bool StartTransmission(Ptr<D2dRadio> sender,
                           const D2dRadio::TxJob& job,
                           const std::vector<uint32_t>& heard);
    /** \brief The sender died: abort its ongoing transmission. \param sender the radio */
    void AbortTransmission(Ptr<D2dRadio> sender);
    /**
     * \brief Report a job that will never be transmitted.
     * \param sender the radio
     * \param job the job
     * \param reason why ("sender_off")
     */
    void DropUnsent(Ptr<D2dRadio> sender, const D2dRadio::TxJob& job, const std::string& reason);
    /**
     * \brief Report every receiver of the sender's transmissions whose outcome is not known
     * yet as not delivered ("unfinished") and forget those transmissions.
     * \param sender the radio
     */
    void ReportUnfinished(Ptr<D2dRadio> sender);

    /** Signature of the Transmission trace: (msgId, sender, fragment transmissions, airtime). */
    typedef void (*TransmissionTracedCallback)(uint64_t msgId,
                                               uint32_t sender,
                                               uint64_t fragmentTransmissions,
                                               Time airtime);

  protected:
    /** \brief Drop the references this object holds (Object::DoDispose). */
    void DoDispose() override;

  private:
    struct Transmission;
    struct Receiver;

    /**
     * \brief What the channel knows of who hears whom (GetNeighbours): whether the links are
     * static, the neighbour lists of static links and the RangeM grid of the devices
     * (InvalidateNeighbours forgets the lists and the grid).
     */
    struct NeighbourCache
    {
        int staticLinks{-1};               //!< IsStatic(): 1 static, 0 not, -1 unknown
        bool courseChangeConnected{false}; //!< the radios' CourseChange traces are connected
        /** each device's neighbours, ascending, by device index (static links) */
        std::vector<std::vector<uint32_t>> neighbours;
        std::vector<bool> neighboursKnown; //!< whether neighbours[i] is current, by device
        std::vector<uint32_t> scratch;     //!< the neighbours of links that are not static
        bool gridKnown{false};             //!< whether grid is current
        /** the RangeM grid: the devices in each cell of side RangeM, by cell key */
        std::unordered_map<int64_t, std::vector<uint32_t>> grid;

        /** \brief What is known of the neighbours and the grid is stale (a move, a radio). */
        void Invalidate();
        /** \brief Forget the lists and the grid (DoDispose). */
        void Clear();
        /**
         * \param index a device
         * \param devices the channel's radios (the lists are sized to them)
         * \return its neighbour list if it is current, else null
         */
        const std::vector<uint32_t>* Known(uint32_t index, std::size_t devices);
        /**
         * \param index a device
         * \return its neighbour list, current from now (the caller fills it)
         */
        std::vector<uint32_t>& Store(uint32_t index);
        /**
         * \brief Place the radios in the cells of side rangeM, by their positions now.
         * \param radios the channel's radios (null: none at that index)
         * \param rangeM the cells' side, m
         */
        void BuildGrid(const std::vector<Ptr<D2dRadio>>& radios, double rangeM);
        /**
         * \param cx cell column
         * \param cy cell row
         * \return the devices in cell (cx, cy), or null if none
         */
        const std::vector<uint32_t>* Cell(int64_t cx, int64_t cy) const;
    };

    /** \return a job's named receivers, or for D2D_BROADCAST the sender's neighbours */
    std::vector<uint32_t> Addressees(uint32_t sender, const D2dRadio::TxJob& job);
    /**
     * \brief Report the "out_of_range" rows of a job's named receivers that do not hear,
     * and, if none hears, the failed send-done.
     * \param sender the radio
     * \param job the job
     * \param outOfRange its named receivers that do not hear
     * \param sent whether the job went on the air
     */
    void ReportOutOfRange(Ptr<D2dRadio> sender,
                          D2dRadio::TxJob job,
                          std::vector<uint32_t> outOfRange,
                          bool sent);
    /** \return true if the range is a distance: RSS from positions (PropagationRssModel) or the
     * same on every link (ConstantRssModel), and no fixed distance */
    bool UsesPositions() const;
    /** \return true if every link's RSS stays as it is unless a position is set */
    bool IsStatic();
    /** \brief Forget the neighbour lists and the grid. */
    void InvalidateNeighbours();
    /** \brief A radio's position was set: InvalidateNeighbours(). */
    void PositionChanged(Ptr<const MobilityModel>);
    /**
     * \param index a device
     * \param out its neighbours, ascending
     */
    void ComputeNeighbours(uint32_t index, std::vector<uint32_t>& out);
    /** \return mobility used for a radio (fixed positions for a D2S channel) */
    Ptr<MobilityModel> MobilityOf(uint32_t index, bool isReceiver) const;
    /**
     * \param rssW RSS of a link that is heard (W)
     * \param interferenceW co-channel interference at its receiver (W)
     * \return its drop probability, eq. (18) with sigma^2 + I
     */
    double LinkDropProbability(double rssW, double interferenceW = 0.0) const;
    /** \brief A transmission leaves the air: free its sub-channels (finite spectrum). */
    void LeaveSpectrum(Ptr<Transmission> tx);
    /**
     * \param radio a receiving radio
     * \param sender the transmitter's index
     * \return the receiver's state for a transmission that starts now
     */
    Receiver MakeReceiver(Ptr<D2dRadio> radio, uint32_t sender) const;
    /** \return a binomial draw */
    uint64_t Binomial(uint64_t n, double p);

    /**
     * \brief The transmission's start reaches a receiver (one propagation delay after it
     * started): the radio begins the reception, or the receiver fails ("receiver_off",
     * "rx_busy", "half_duplex").
     * \param tx the transmission
     * \param k the receiver's position in tx's receivers
     */
    void RxStart(Ptr<Transmission> tx, std::size_t k);
    /**
     * \brief The transmission's end reaches a receiver: end its reception, report its
     * outcome and, if delivered, hand the (possibly partial) message to its radio.
     * \param tx the transmission
     * \param k the receiver's position in tx's receivers
     */
    void RxEnd(Ptr<Transmission> tx, std::size_t k);
    /**
     * \brief The sender finished the transmission: free its sub-channels, fire the
     * Transmission trace, schedule each receiver's RxEnd, and report the send-done (reliable
     * mode: via ReliableAck) before the sender's next transmission may start.
     * \param tx the transmission
     */
    void TxEnd(Ptr<Transmission> tx);
    /**
     * \brief Per-fragment path: a fragment left the sender; draw its loss at each receiver
     * (eq. (18) of Wagle et al. 2025), then send the next fragment, start the next ARQ round
     * (reliable mode) or end the transmission.
     * \param tx the transmission
     */
    void FragmentSent(Ptr<Transmission> tx);
    /**
     * \brief Per-fragment path: a fragment that was not lost reached a receiver; count it.
     * \param tx the transmission
     * \param k the receiver's position in tx's receivers
     */
    void FragmentArrived(Ptr<Transmission> tx, std::size_t k);
    /**
     * \brief Per-fragment path: schedule FragmentSent at the end of the airtime of the
     * current round's next fragment.
     * \param tx the transmission
     */
    void SendNextFragment(Ptr<Transmission> tx);
    /** \brief Fast path, reliable mode: draw airtime, retransmissions and losses. */
    void DrawReliableOutcome(Ptr<Transmission> tx);
    /**
     * \brief Reliable mode: the last acknowledgement reached the sender (two propagation
     * delays after TxEnd): report the send-done, successful if every receiver got the
     * message and no named receiver was out of range.
     * \param tx the transmission
     */
    void ReliableAck(Ptr<Transmission> tx);
    /** \brief Cancel a transmission's pending events and drop their ids. */
    void CancelEvents(Ptr<Transmission> tx);
    /** \param tx a transmission whose outcomes are open: into m_live and its index */
    void RememberLive(Ptr<Transmission> tx);
    /** \param tx a transmission whose outcomes are all known (or aborted): out of both */
    void ForgetLive(Ptr<Transmission> tx);
    /** \brief Dispose of the channel when the simulator is destroyed. */
    void DisposeAtDestroy();
    /** \brief Break the transmission <-> event reference cycles (end of simulation). */
    void ReleaseTransmissions();
    /** \brief Fill and report one record. */
    void Report(Ptr<Transmission> tx, Receiver& r, bool delivered, const std::string& reason);

    double m_spectralEfficiency;       //!< rate of transmission r of eq. (18) (bit/s/Hz)
    double m_bandwidthHz;              //!< channel bandwidth (Hz); link rate r x this (bit/s)
    double m_noisePowerW;              //!< noise power sigma^2 of eq. (18) (W), Constant
    NoiseModel m_noiseModel;           //!< NoiseModel: Constant or Thermal
    double m_noiseFigureDb;            //!< receiver noise figure NF (dB), Thermal
    uint32_t m_mtuBytes;               //!< fragment payload size (bytes)
    uint32_t m_headerBytes;            //!< per-fragment header sent on the air (bytes)
    uint32_t m_maxRetransmissions;     //!< reliable mode: retransmissions allowed per fragment
    bool m_fastPath;                   //!< draw counts per message, not every fragment
    double m_fixedDistanceM;           //!< length of every link (m); 0: from the positions
    double m_rxSensitivityW;           //!< links with RSS at or below this are not heard (W)
    double m_rangeM;                   //!< hearing range (m); 0: no limit
    D2dChannelAccess::Policy m_policy; //!< AccessPolicy: IMMEDIATE or SCHEDULED
    Ptr<D2dChannelAccess> m_access;    //!< channel access with m_policy (made on first use)
    Ptr<D2dDrx> m_drx;                 //!< DRX of the radios (null: none)
    uint32_t m_subChannels;            //!< K, sub-channels of the band (0: unlimited)
    uint32_t m_perTransmission;        //!< sub-channels one transmission occupies
    bool m_interference;               //!< co-channel interference in eq. (18)
    D2dSpectrum::Reuse m_reuse;        //!< which transmissions share a sub-channel
    double m_reuseDistanceM;           //!< Hearing reuse: distance, m (0: hearing alone)
    Ptr<D2dSpectrum> m_spectrum;       //!< the band (made on first use)

    /** RangeM without positions: the reference propagation model and its thresholds */
    struct RangeReference
    {
        Ptr<PropagationRssModel> model;       //!< the default propagation model
        std::map<double, double> thresholdsW; //!< its RSS at RangeM by transmit power (dBm)

        /**
         * \param txPowerDbm a transmit power, dBm
         * \param rangeM RangeM, m
         * \return the default propagation model's RSS at rangeM for that power, W (cached)
         */
        double ThresholdW(double txPowerDbm, double rangeM);
    };

    mutable RangeReference m_rangeReference; //!< RangeM without positions (made on first use)
    NeighbourCache m_neighbourCache;         //!< who hears whom, as far as it is known
    bool m_releaseScheduled{false}; //!< DisposeAtDestroy is scheduled (by the first Attach)
    std::map<uint64_t, Ptr<Transmission>> m_live;           //!< transmissions with open outcomes
    std::set<std::pair<uint32_t, uint64_t>> m_liveBySender; //!< (sender, msgId) of m_live
    Ptr<D2dRssModel> m_rss;                                 //!< the RSS model W_ij (RssModel)
    Ptr<PropagationDelayModel> m_delay;                     //!< the propagation delay model
    Ptr<D2dMessageRegistry> m_registry;                     //!< allocates network-wide message ids
    Ptr<UniformRandomVariable> m_uniform;                   //!< U(0,1) for loss and binomial draws
    /**
     * FixedDistanceM > 0: the positions of every link's transmitter (first: the origin) and
     * receiver (second: FixedDistanceM along x)
     */
    std::pair<Ptr<MobilityModel>, Ptr<MobilityModel>> m_fixedEnds;
    std::vector<Ptr<D2dRadio>> m_radios;      //!< by index
    std::vector<Ptr<Transmission>> m_current; //!< ongoing transmission by sender index
    /** A transmission ended at the sender: (msgId, sender, fragment transmissions, airtime). */
    TracedCallback<uint64_t, uint32_t, uint64_t, Time> m_transmissionTrace;
};

} // namespace ns3

#endif /* D2D_CHANNEL_H */
