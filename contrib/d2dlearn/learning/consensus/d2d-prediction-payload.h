/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_PREDICTION_PAYLOAD_H
#define D2D_PREDICTION_PAYLOAD_H

#include "ns3/d2d-message.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief An agent's predictions on the shared set X* travelling as a message (Fan,
 * Mendler-Dünner, Jaggi 2023, Algorithm 1: "each node broadcasts their soft labels"):
 * n* x C values, shared by reference. The message's size is the values' true size on the
 * air (4 or 2 bytes each) plus a header; its items are the n* rows.
 */
class D2dPredictionPayload : public D2dPayload
{
  public:
    uint32_t round{0};   //!< protocol round the predictions were made for
    uint32_t origin{0};  //!< the predicting agent
    uint32_t points{0};  //!< n*
    uint32_t classes{0}; //!< C (1 for regression)
    /** The predictions as received (float16: already rounded), row-major n* x C. */
    std::shared_ptr<const std::vector<float>> values;
};

} // namespace ns3

#endif /* D2D_PREDICTION_PAYLOAD_H */
