/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-model-payload.h"

#include <c10/util/Half.h>
#include <stdexcept>

namespace ns3
{

namespace
{
/** \return a model payload with its header fields set (its values left to the caller) */
std::shared_ptr<D2dModelPayload>
NewPayload(const std::string& what, uint32_t round, uint64_t samples, uint32_t origin)
{
    auto payload = std::make_shared<D2dModelPayload>();
    payload->what = what;
    payload->round = round;
    payload->samples = samples;
    payload->origin = origin;
    return payload;
}
} // namespace

D2dModelCodec::D2dModelCodec(const std::string& compression)
    : m_compression(compression)
{
    if (compression != "float32" && compression != "float16")
    {
        throw std::invalid_argument("compression: '" + compression +
                                    "' is not accepted (float32 or float16)");
    }
}

const std::string&
D2dModelCodec::GetCompression() const
{
    return m_compression;
}

uint64_t
D2dModelCodec::BytesFor(uint64_t nValues) const
{
    return HeaderBytes + nValues * (m_compression == "float16" ? 2 : 4);
}

void
D2dModelCodec::RoundToHalf(std::vector<float>& values)
{
    for (auto& v : values)
    {
        v = static_cast<float>(c10::Half(v)); // IEEE binary16, round to nearest even
    }
}

Ptr<D2dMessage>
D2dModelCodec::Encode(const std::string& kind,
                      const std::string& what,
                      uint32_t round,
                      uint64_t samples,
                      uint32_t origin,
                      std::vector<float> values,
                      std::vector<uint32_t> recipients) const
{
    if (m_compression == "float16")
    {
        RoundToHalf(values);
    }
    auto payload = NewPayload(what, round, samples, origin);
    const uint64_t bytes = BytesFor(values.size()) + 4 * recipients.size();
    payload->recipients = std::move(recipients);
    payload->values = std::make_shared<const std::vector<float>>(std::move(values));
    return Create<D2dMessage>(kind, bytes, payload);
}

std::shared_ptr<const std::vector<float>>
D2dModelPayload::Resolve() const
{
    if (values || !deferred)
    {
        return values;
    }
    auto out = deferred->Get();
    if (!deferredHalf)
    {
        return out;
    }
    std::vector<float> rounded(*out);
    D2dModelCodec::RoundToHalf(rounded);
    return std::make_shared<const std::vector<float>>(std::move(rounded));
}

void
D2dModelPayload::ReleaseDeferred() const
{
    if (deferred)
    {
        deferred->Release();
    }
}

Ptr<D2dMessage>
D2dModelCodec::EncodeDeferred(const std::string& kind,
                              const std::string& what,
                              uint32_t round,
                              uint64_t samples,
                              uint32_t origin,
                              std::shared_ptr<D2dDeferredJob> job,
                              uint64_t nValues) const
{
    auto payload = NewPayload(what, round, samples, origin);
    payload->deferred = std::move(job);
    payload->deferredHalf = m_compression == "float16";
    return Create<D2dMessage>(kind, BytesFor(nValues), payload);
}

Ptr<D2dMessage>
D2dModelCodec::Encode(const std::string& kind,
                      const std::string& what,
                      uint32_t round,
                      uint64_t samples,
                      uint32_t origin,
                      std::shared_ptr<const std::vector<float>> values,
                      std::vector<uint32_t> recipients) const
{
    if (m_compression == "float16")
    {
        return Encode(kind, what, round, samples, origin, *values, std::move(recipients));
    }
    auto payload = NewPayload(what, round, samples, origin);
    const uint64_t bytes = BytesFor(values->size()) + 4 * recipients.size();
    payload->recipients = std::move(recipients);
    payload->values = std::move(values);
    return Create<D2dMessage>(kind, bytes, payload);
}

} // namespace ns3
