/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_MODEL_PAYLOAD_H
#define D2D_MODEL_PAYLOAD_H

#include "ns3/d2d-deferred-job.h"
#include "ns3/d2d-message.h"
#include "ns3/ptr.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief A model travelling as a message: weights, an update or a gradient, flattened in
 * the learner's parameter order, shared by reference (never copied by the network).
 */
class D2dModelPayload : public D2dPayload
{
  public:
    std::string what;    //!< "weights", "gradient", ...
    uint32_t round{0};   //!< protocol round it belongs to
    uint64_t samples{0}; //!< training samples behind it (aggregation weight n_k)
    uint32_t origin{0};  //!< device whose model it is
    std::shared_ptr<const std::vector<float>> values; //!< the values as received
    /**
     * Instead of values (which is then null): the training job whose result the values
     * are, computed when first read (Resolve). Sizes on the air are the same.
     */
    std::shared_ptr<D2dDeferredJob> deferred;
    bool deferredHalf{false}; //!< float16: Resolve rounds the deferred values to half
    /** Devices the message is meant for when it is broadcast (empty: every receiver). */
    std::vector<uint32_t> recipients;

    /**
     * \param device a receiver
     * \return true if the message is meant for it
     */
    bool IsFor(uint32_t device) const
    {
        if (recipients.empty())
        {
            return true;
        }
        // Every receiver of a broadcast asks: a binary search when the list is ascending
        // (as the protocols make it; checked once, at the first question), not a scan.
        if (m_recipientsSorted < 0)
        {
            m_recipientsSorted = std::is_sorted(recipients.begin(), recipients.end()) ? 1 : 0;
        }
        return m_recipientsSorted == 1
                   ? std::binary_search(recipients.begin(), recipients.end(), device)
                   : std::find(recipients.begin(), recipients.end(), device) != recipients.end();
    }

    /**
     * \return the values: values, or the deferred job's result (run now if it has not
     * run; float16-rounded if deferredHalf). Aborts if the deferred result was released.
     */
    std::shared_ptr<const std::vector<float>> Resolve() const;

    /**
     * \brief The consumer is done with a deferred result: it is dropped (no-op for values,
     * which the payload shares).
     */
    void ReleaseDeferred() const;

  private:
    mutable int8_t m_recipientsSorted{-1}; //!< IsFor: -1 unknown, 1 ascending, 0 not
};

/**
 * \ingroup d2dlearn
 * \brief Turns a model into a message of its true size on the air.
 *
 * float32: 4 bytes per value; float16: 2 bytes per value, and the values are rounded to
 * half precision before they leave, so that what arrives is exactly what was sent. Every
 * message also carries a fixed header (HeaderBytes: kind, round, sample count, origin).
 */
class D2dModelCodec
{
  public:
    /** Header bytes of a model message. */
    static constexpr uint64_t HeaderBytes = 32;

    // The kinds of the model messages (messages.csv's kind column), each named here once: a
    // protocol registers its receive handlers by these (D2dTransport::AddReceiveHandler) and
    // trusts the transport's filter, so a handler never tests the kind again.
    /** The server's (or a cluster head's) model to the devices. */
    static constexpr const char* KIND_GLOBAL_MODEL = "global_model";
    /** A device's trained model or gradient to the server. */
    static constexpr const char* KIND_UPDATE = "update";
    /** A straggler's reply to the server: still on an earlier round's job (FedAvg). */
    static constexpr const char* KIND_BUSY = "busy";
    /** A training client's gradient to the committee (CMFL). */
    static constexpr const char* KIND_GRADIENT = "gradient";
    /** A cluster's model to the server (semi-decentralized FL). */
    static constexpr const char* KIND_UPLOAD = "upload";
    /** A device's model to its neighbours (decentralized FL, D2dModelExchange). */
    static constexpr const char* KIND_MODEL = "model";

    // What a model payload's values are (D2dModelPayload::what).
    static constexpr const char* WHAT_WEIGHTS = "weights";   //!< the model's weights
    static constexpr const char* WHAT_GRADIENT = "gradient"; //!< a gradient
    static constexpr const char* WHAT_DELTA = "delta";       //!< w - w^t (FedAsync's delta)
    static constexpr const char* WHAT_NONE = "none";         //!< no values (a busy reply)

    /**
     * \param compression "float32" or "float16"
     * \throws std::invalid_argument (one line naming "compression") otherwise
     */
    explicit D2dModelCodec(const std::string& compression = "float32");

    /** \return "float32" or "float16" */
    const std::string& GetCompression() const;

    /**
     * \param nValues number of parameters
     * \return bytes on the air of a model message with that many values
     */
    uint64_t BytesFor(uint64_t nValues) const;

    /**
     * \brief Make the message of a model.
     * \param kind message kind (messages.csv)
     * \param what payload kind ("weights", "gradient")
     * \param round protocol round
     * \param samples aggregation weight n_k
     * \param origin device whose model it is
     * \param values the values (float16: rounded)
     * \param recipients devices a broadcast is meant for (empty: all); 4 bytes each are
     *        added to the header
     * \return the message
     */
    Ptr<D2dMessage> Encode(const std::string& kind,
                           const std::string& what,
                           uint32_t round,
                           uint64_t samples,
                           uint32_t origin,
                           std::vector<float> values,
                           std::vector<uint32_t> recipients = {}) const;

    /**
     * \brief Make the message of a model whose values are already shared (a learner's
     * weights): float32 shares them (no copy), float16 rounds a copy.
     * \param kind message kind (messages.csv)
     * \param what payload kind ("weights", "gradient")
     * \param round protocol round
     * \param samples aggregation weight n_k
     * \param origin device whose model it is
     * \param values the values (never changed afterwards)
     * \param recipients devices a broadcast is meant for (empty: all)
     * \return the message
     */
    Ptr<D2dMessage> Encode(const std::string& kind,
                           const std::string& what,
                           uint32_t round,
                           uint64_t samples,
                           uint32_t origin,
                           std::shared_ptr<const std::vector<float>> values,
                           std::vector<uint32_t> recipients = {}) const;

    /**
     * \brief Make the message of a model that a deferred training job computes (its
     * values computed when the receiver first reads them: D2dModelPayload::Resolve;
     * float16 rounds them then).
     * \param kind message kind (messages.csv)
     * \param what payload kind ("weights", "gradient")
     * \param round protocol round
     * \param samples aggregation weight n_k
     * \param origin device whose model it is
     * \param job the job (D2dTrainResult::deferred)
     * \param nValues the number of values it makes (the message's size)
     * \return the message
     */
    Ptr<D2dMessage> EncodeDeferred(const std::string& kind,
                                   const std::string& what,
                                   uint32_t round,
                                   uint64_t samples,
                                   uint32_t origin,
                                   std::shared_ptr<D2dDeferredJob> job,
                                   uint64_t nValues) const;

    /**
     * \param values values rounded in place to half precision (round to nearest even)
     */
    static void RoundToHalf(std::vector<float>& values);

  private:
    std::string m_compression; //!< "float32" (4 bytes a value) or "float16" (2, rounded)
};

} // namespace ns3

#endif /* D2D_MODEL_PAYLOAD_H */
